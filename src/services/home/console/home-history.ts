// An entity's history drawn on the server as an SVG step line (a state holds until the next
// change): numeric states on a value axis, others (on/off, heat/cool, playing/paused) as
// levels, one per state seen. A table with the same changes follows for screen readers and
// for copying. And the logbook as a list.
import { html, raw } from '../../../platform/console-layout.js';
import { shortTime } from '../../../platform/console-partial.js';

export interface HistoryPoint {
  state: string;
  last_changed: string;
}

export interface LogbookEntry {
  when: string;
  name?: string;
  message?: string;
  state?: string;
  entity_id?: string;
  context_domain?: string;
  context_service?: string;
  context_event_type?: string;
}

const W = 640;
const H = 180;
const PAD = { left: 56, right: 12, top: 12, bottom: 28 };
const NOT_VALUES = new Set(['unknown', 'unavailable']);

export function historySvg(entityId: string, name: string, points: HistoryPoint[], start: Date, end: Date): string {
  // The axis starts at the period's start, or at the first recorded state when the recorder
  // holds less than the period (a home started an hour ago shows that hour, not a flat day).
  const first = points.length ? new Date(points[0].last_changed).getTime() : NaN;
  const t0 = Number.isFinite(first) && first > start.getTime() ? first : start.getTime();
  const from = new Date(t0);
  const span = Math.max(1, end.getTime() - t0);
  // Seconds matter on a short axis.
  const when = (d: Date) => (span < 7_200_000 ? `${d.toISOString().slice(11, 19)} UTC` : shortTime(d.toISOString()));
  const known = points.filter((p) => !NOT_VALUES.has(p.state));
  const numeric = known.length > 0 && known.every((p) => p.state.trim() !== '' && Number.isFinite(Number(p.state)));
  const x = (iso: string) =>
    PAD.left + ((Math.min(Math.max(new Date(iso).getTime(), t0), t0 + span) - t0) / span) * (W - PAD.left - PAD.right);
  const plotH = H - PAD.top - PAD.bottom;

  let y: (state: string) => number;
  let axis: Array<{ label: string; y: number }>;
  if (numeric) {
    const values = known.map((p) => Number(p.state));
    let lo = Math.min(...values);
    let hi = Math.max(...values);
    if (lo === hi) [lo, hi] = [lo - 1, hi + 1];
    y = (s) => PAD.top + (1 - (Number(s) - lo) / (hi - lo)) * plotH;
    axis = [
      { label: fmt(hi), y: PAD.top },
      { label: fmt(lo), y: PAD.top + plotH },
    ];
  } else {
    // Off-like states at the bottom, the rest in the order first seen.
    const levels = [...new Set(known.map((p) => p.state))].sort((a, b) => rank(a) - rank(b));
    const step = levels.length > 1 ? plotH / (levels.length - 1) : 0;
    const at = new Map(levels.map((l, i) => [l, PAD.top + plotH - i * step - (levels.length === 1 ? plotH / 2 : 0)]));
    y = (s) => at.get(s) ?? PAD.top + plotH;
    axis = levels.map((l) => ({ label: l, y: at.get(l)! }));
  }

  const coords: string[] = [];
  let prevY: number | undefined;
  for (const p of known) {
    const px = x(p.last_changed);
    const py = y(p.state);
    if (prevY !== undefined) coords.push(`${px.toFixed(1)},${prevY.toFixed(1)}`);
    coords.push(`${px.toFixed(1)},${py.toFixed(1)}`);
    prevY = py;
  }
  if (prevY !== undefined) coords.push(`${(W - PAD.right).toFixed(1)},${prevY.toFixed(1)}`);
  const titleId = `hist-${entityId}-title`;
  const summary = `${name}: ${points.length} recorded state${points.length === 1 ? '' : 's'} from ${shortTime(from.toISOString())} to ${shortTime(end.toISOString())}`;
  return html`<figure class="history-graph"><svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${titleId}" xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="xMidYMid meet">
<title id="${titleId}">${summary}</title>
<rect class="plot" x="${PAD.left}" y="${PAD.top}" width="${W - PAD.left - PAD.right}" height="${plotH}"/>
${axis.map((a) => raw(html`<text class="axis" x="${PAD.left - 6}" y="${a.y.toFixed(1)}" text-anchor="end" dominant-baseline="middle">${a.label}</text>`))}
<text class="axis" x="${PAD.left}" y="${H - 8}">${when(from)}</text>
<text class="axis" x="${W - PAD.right}" y="${H - 8}" text-anchor="end">${when(end)}</text>
${coords.length ? raw(html`<polyline class="line" points="${coords.join(' ')}"/>`) : raw(html`<text class="axis" x="${W / 2}" y="${H / 2}" text-anchor="middle">No recorded states</text>`)}
</svg><figcaption class="muted">${summary}</figcaption></figure>
<details><summary>Changes as a table</summary><div class="table-wrap"><table><thead><tr><th scope="col">When</th><th scope="col">State</th></tr></thead><tbody>
${points
  .slice(-200)
  .reverse()
  .map((p) =>
    raw(
      html`<tr><td><time datetime="${p.last_changed}">${shortTime(p.last_changed)}</time></td><td>${p.state}</td></tr>`,
    ),
  )}
</tbody></table></div></details>`;
}

/** HA's logbook wording for a state change without a message. */
const describeState = (state: string | undefined) =>
  state === undefined ? '' : state === 'on' || state === 'off' ? `turned ${state}` : `changed to ${state}`;

const OFFLIKE = ['off', 'closed', 'idle', 'paused', 'not_home', 'disarmed'];
const rank = (s: string) => (OFFLIKE.includes(s) ? -1 : 0);
const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

export function logbookList(entries: LogbookEntry[], limit = 300): string {
  if (!entries.length) return '<p class="muted">Nothing in the logbook for this period.</p>';
  const newest = [...entries].reverse().slice(0, limit);
  return html`<ol class="logbook">${newest.map((e) =>
    raw(
      html`<li><time datetime="${e.when}">${shortTime(e.when)}</time> <strong>${e.name ?? e.entity_id ?? ''}</strong> ${
        e.message ?? describeState(e.state)
      }${e.entity_id ? raw(html` <a href="/home/entities/${e.entity_id}" class="entity-id">${e.entity_id}</a>`) : ''}${
        e.context_domain && e.context_service
          ? raw(html` <span class="muted">(by ${e.context_domain}.${e.context_service})</span>`)
          : ''
      }</li>`,
    ),
  )}</ol>${entries.length > limit ? raw(html`<p class="muted">Showing the newest ${limit} of ${entries.length}.</p>`) : ''}`;
}
