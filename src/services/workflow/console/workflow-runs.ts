// What an execution did, node by node, from its n8n run data (`data.resultData.runData`): each
// run's status and time, the items that came in (the source node's output it read) and the
// items that went out, per output, as tables of their json fields.
import { html, raw } from '../../../platform/console-layout.js';
import { nodeAnchor, type NodeRunSummary } from './workflow-canvas.js';

interface Item {
  json?: Record<string, unknown>;
  binary?: Record<string, { fileName?: string; mimeType?: string }>;
}

export interface TaskData {
  startTime?: number;
  executionIndex?: number;
  executionTime?: number;
  executionStatus?: string;
  source?: Array<{ previousNode: string; previousNodeOutput?: number; previousNodeRun?: number } | null>;
  data?: { main?: Array<Item[] | null> };
  error?: { message?: string; description?: string };
}

export type RunData = Record<string, TaskData[]>;

const MAX_ITEMS = 50;
const MAX_COLUMNS = 16;
const MAX_CELL = 400;

/** Per node: the status of its last run and the items of each output over all its runs. */
export function runSummaries(runData: RunData): Record<string, NodeRunSummary> {
  return Object.fromEntries(
    Object.entries(runData).map(([name, runs]) => {
      const counts: number[] = [];
      for (const r of runs)
        (r.data?.main ?? []).forEach((items, i) => (counts[i] = (counts[i] ?? 0) + (items?.length ?? 0)));
      return [name, { status: runs[runs.length - 1]?.executionStatus ?? 'success', outputCounts: counts }];
    }),
  );
}

export function nodeRunsHtml(runData: RunData, types: Map<string, string>): string {
  const ordered = Object.entries(runData).sort(
    ([, a], [, b]) => (a[0]?.executionIndex ?? a[0]?.startTime ?? 0) - (b[0]?.executionIndex ?? b[0]?.startTime ?? 0),
  );
  if (!ordered.length)
    return '<p class="muted">No node ran (or the workflow does not save run data for this outcome).</p>';
  return ordered
    .map(([name, runs]) => {
      const parts = runs.map((run, i) => {
        const inputs = (run.source ?? []).map((src, input) => {
          if (!src) return '';
          const items =
            runData[src.previousNode]?.[src.previousNodeRun ?? 0]?.data?.main?.[src.previousNodeOutput ?? 0] ?? [];
          return html`<h4>Input${run.source!.length > 1 ? ` ${input + 1}` : ''} <span class="muted">from ${src.previousNode}: ${items.length} item${items.length === 1 ? '' : 's'}</span></h4>${raw(itemsTable(items))}`;
        });
        const outputs = (run.data?.main ?? []).map(
          (items, out, all) =>
            html`<h4>Output${all.length > 1 ? ` ${out + 1}` : ''} <span class="muted">${items?.length ?? 0} item${items?.length === 1 ? '' : 's'}</span></h4>${raw(itemsTable(items ?? []))}`,
        );
        return html`<div class="run"><p>${runs.length > 1 ? `Run ${i + 1}: ` : ''}<span class="status ${run.executionStatus ?? ''}">${run.executionStatus ?? 'unknown'}</span> <span class="muted">${run.executionTime ?? 0} ms</span></p>
${run.error ? raw(html`<p class="error" role="alert">${run.error.message ?? 'Error'}${run.error.description ? raw(html`<br><span class="muted">${run.error.description}</span>`) : ''}</p>`) : ''}
${raw(inputs.join(''))}${raw(outputs.join(''))}</div>`;
      });
      return html`<section class="node-run" id="${nodeAnchor(name)}" aria-labelledby="${nodeAnchor(name)}-h"><h3 id="${nodeAnchor(name)}-h">${name} <span class="muted">${types.get(name) ?? ''}</span></h3>${raw(parts.join(''))}</section>`;
    })
    .join('\n');
}

/** Items as a table: one row per item, one column per json field (the first MAX_COLUMNS seen). */
function itemsTable(items: Item[]): string {
  if (!items.length) return '<p class="muted">No items.</p>';
  const shown = items.slice(0, MAX_ITEMS);
  const keys: string[] = [];
  for (const it of shown)
    for (const k of Object.keys(it.json ?? {})) if (!keys.includes(k) && keys.length < MAX_COLUMNS) keys.push(k);
  const hasBinary = shown.some((it) => it.binary && Object.keys(it.binary).length);
  const head = html`<tr><th scope="col">#</th>${keys.map((k) => raw(html`<th scope="col">${k}</th>`))}${hasBinary ? raw('<th scope="col">binary</th>') : ''}</tr>`;
  const rows = shown.map(
    (it, i) =>
      html`<tr><td>${i}</td>${keys.map((k) => raw(html`<td>${cell(it.json?.[k])}</td>`))}${
        hasBinary
          ? raw(
              html`<td>${Object.entries(it.binary ?? {})
                .map(([k, b]) => `${k}: ${b.fileName ?? ''} ${b.mimeType ?? ''}`)
                .join(', ')}</td>`,
            )
          : ''
      }</tr>`,
  );
  return html`<div class="table-wrap"><table class="items"><thead>${raw(head)}</thead><tbody>${raw(rows.join(''))}</tbody></table></div>${
    items.length > MAX_ITEMS ? raw(html`<p class="muted">The first ${MAX_ITEMS} of ${items.length} items.</p>`) : ''
  }${keys.length === 0 ? raw('<p class="muted">The items have no json fields.</p>') : ''}`;
}

function cell(v: unknown): string {
  if (v === undefined) return '';
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL)}…` : text;
}
