// The activity feed: one time-ordered list of what happened across the services, read from
// the trace (platform/trace.ts): the events worth a sentence (a mail received, a post
// published, a light turned on, an execution finished) among the API calls, SMTP messages,
// WebSocket commands and MCP tool calls agents made. Filtered by service, agent key and kind;
// live: /activity/stream tells the page (data-live in console.js) when matching entries
// are stored, and htmx fetches the list again from /activity/feed.
import type { FastifyRequest } from 'fastify';
import { TRACE_KINDS, type TraceEntry, type TraceKind } from '../../platform/trace.js';
import type { ConsoleContext, ConsoleModule } from '../context.js';
import { eventStreams, sharedFrames } from '../../platform/console-event-stream.js';
import { html, layout, raw } from '../../platform/console-layout.js';

const FEED_SIZE = 100;
const KIND_LABELS: Record<TraceKind, string> = {
  event: 'Events',
  http: 'API calls',
  smtp: 'SMTP',
  ws: 'WebSocket commands',
  mcp: 'MCP tool calls',
};

interface Filters {
  service?: string;
  key?: string;
  kind?: TraceKind;
}

function filtersOf(request: FastifyRequest): Filters {
  const q = request.query as Record<string, string | undefined>;
  const kind = (TRACE_KINDS as readonly string[]).includes(q.kind ?? '') ? (q.kind as TraceKind) : undefined;
  return { service: q.service || undefined, key: q.key || undefined, kind };
}

const queryString = (f: Filters): string => {
  const params = new URLSearchParams(Object.entries(f).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const text = params.toString();
  return text ? `?${text}` : '';
};

const matches = (f: Filters, e: TraceEntry): boolean =>
  (!f.service || e.service === f.service) && (!f.key || e.keyId === f.key) && (!f.kind || e.kind === f.kind);

/** Every live key of the services here, labelled for people: service, name, last characters. */
async function keyLabels(ctx: ConsoleContext): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  const services = [...new Set([...Object.keys(ctx.running), ...ctx.selected.map((s) => s.definition.name)])];
  for (const service of services) {
    for (const k of await ctx.platform.keys.list(service)) {
      if (!k.revokedAt) labels.set(k.id, `${service} · ${k.name ?? k.ownerId ?? 'key'} · …${k.hint}`);
    }
  }
  return labels;
}

function describe(e: TraceEntry): string {
  if (e.summary) return e.summary;
  switch (e.kind) {
    case 'smtp': {
      const to = Array.isArray(e.detail?.to) ? (e.detail.to as string[]).join(', ') : '';
      return `SMTP ${e.route ?? ''}: ${String(e.detail?.from ?? '<>')} → ${to}`;
    }
    case 'ws':
      return `WebSocket ${e.method ?? ''} (id ${String(e.detail?.id ?? '?')})`;
    case 'mcp':
      return `MCP ${e.route ?? e.method ?? ''}`;
    default:
      return `${e.method ?? ''} ${e.route ?? e.path ?? ''}`;
  }
}

function outcome(e: TraceEntry): string {
  if (e.kind === 'event') return e.ok ? '' : 'failed';
  if (e.status !== null) return String(e.status);
  return e.ok ? 'ok' : 'failed';
}

function feedList(entries: TraceEntry[], keys: Map<string, string>): string {
  if (!entries.length) return html`<p class="muted" id="activity-empty">Nothing recorded yet for this view.</p>`;
  const items = entries.map((e) => {
    const when = e.at.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
    const key = e.keyId ? (keys.get(e.keyId) ?? `key ${e.keyId.slice(0, 8)}`) : '';
    const ms =
      e.durationMs === null ? '' : `${e.durationMs < 10 ? e.durationMs.toFixed(1) : Math.round(e.durationMs)} ms`;
    return html`<li class="activity-item kind-${e.kind}${e.ok ? '' : ' failed'}" data-kind="${e.kind}" data-service="${e.service}">
<time datetime="${e.at}">${when}</time> <span class="badge">${e.service}</span> <span class="what">${describe(e)}</span>
<span class="muted">${outcome(e)}${ms ? ` · ${ms}` : ''}${key ? ` · ${key}` : ''}</span>${e.path && e.kind === 'http' && e.path !== e.route ? raw(html`<br><code class="muted">${e.path}</code>`) : ''}</li>`;
  });
  return html`<ol class="activity" aria-label="Activity, newest first">${raw(items.join(''))}</ol>`;
}

function filterForm(f: Filters, services: string[], keys: Map<string, string>): string {
  const option = (value: string, label: string, selected: string | undefined) =>
    raw(html`<option value="${value}"${value === (selected ?? '') ? raw(' selected') : ''}>${label}</option>`);
  return html`<form method="get" action="/activity" class="filters" aria-label="Filter the activity">
<div><label for="f-service">Service</label><select id="f-service" name="service">${option('', 'All services', f.service)}${services.map((s) => option(s, s, f.service))}</select></div>
<div><label for="f-key">Agent key</label><select id="f-key" name="key">${option('', 'All keys', f.key)}${[...keys].map(([id, label]) => option(id, label, f.key))}</select></div>
<div><label for="f-kind">What</label><select id="f-kind" name="kind">${option('', 'Everything', f.kind)}${TRACE_KINDS.map((k) => option(k, KIND_LABELS[k], f.kind))}</select></div>
<div class="actions"><button type="submit">Show</button> <a class="button" href="/admin/api/trace.jsonl${queryString({ service: f.service, key: f.key, kind: f.kind })}" download="trace.jsonl">Export JSONL</a></div>
</form>`;
}

export const activityPages: ConsoleModule = (app, ctx) => {
  const { trace } = ctx.platform;
  const readFeed = async (f: Filters) => {
    const [page, keys] = await Promise.all([
      trace.query({
        service: f.service ? [f.service] : undefined,
        keyId: f.key,
        kind: f.kind ? [f.kind] : undefined,
        limit: FEED_SIZE,
      }),
      keyLabels(ctx),
    ]);
    return { entries: page.entries, keys };
  };

  app.get('/activity', { schema: { hide: true } }, async (request, reply) => {
    const f = filtersOf(request);
    const { entries, keys } = await readFeed(f);
    const services = [...new Set([...Object.keys(ctx.running), ...entries.map((e) => e.service)])].sort();
    const qs = queryString(f);
    const body = html`<h1>Activity</h1>
<p class="muted">What agents did across the services, newest first, as it happens.${trace.enabled ? '' : ' The trace is off (HAMLET_TRACE=off): nothing new is recorded.'}</p>
${raw(filterForm(f, services, keys))}
<section id="feed" aria-live="polite" data-live="/activity/stream${qs}" hx-get="/activity/feed${qs}" hx-trigger="live delay:200ms" hx-swap="innerHTML">${raw(feedList(entries, keys))}</section>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(layout({ title: 'Activity', body, csrf: request.consoleCsrf, nav: request.consoleNav, path: '/activity' }));
  });

  app.get('/activity/feed', { schema: { hide: true } }, async (request, reply) => {
    const { entries, keys } = await readFeed(filtersOf(request));
    return reply.type('text/html; charset=utf-8').send(feedList(entries, keys));
  });

  // Server-sent events: one message per stored batch with matching entries (the newest's id); the page fetches the list again.
  const stream = eventStreams(app, ctx.platform);
  const frames = sharedFrames<TraceEntry>();
  app.get('/activity/stream', { schema: { hide: true } }, (request, reply) => {
    const f = filtersOf(request);
    stream(request, reply, (send) =>
      trace.follow((entries) => {
        const last = entries.filter((e) => matches(f, e)).pop();
        if (last) send(frames(last, '', () => `id: ${last.id}\ndata: ${last.id}\n\n`));
      }),
    );
  });
};
