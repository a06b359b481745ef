// Workflows in the console, all through the workflow service's public (n8n) API with the
// console's workflow key: the list with active toggles and an import drop zone, a workflow's
// read-only canvas, executions (paginated by the API's cursor, never counted) with each node's
// input and output items, and run, re-run and retry.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServicePages, ServicePagesContext } from '../../../platform/console-pages.js';
import {
  backTo,
  callService,
  field,
  isHtmx,
  relayStatus,
  sendHtml,
  serviceMessage,
  shortTime,
} from '../../../platform/console-partial.js';
import { html, layout, raw } from '../../../platform/console-layout.js';
import { canvasSvg, isSticky, nodeAnchor, type N8nWorkflow } from './workflow-canvas.js';
import { nodeRunsHtml, runSummaries, type RunData } from './workflow-runs.js';

const API = '/api/v1';
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const EXECUTIONS_PER_PAGE = 50;
const STATUSES = ['success', 'error', 'running', 'waiting', 'canceled', 'crashed', 'new'];

interface Workflow extends N8nWorkflow {
  id: string;
  name: string;
  active: boolean;
  updatedAt?: string;
}

interface Execution {
  id: string;
  status: string;
  mode: string;
  workflowId: string;
  startedAt: string | null;
  stoppedAt: string | null;
  retryOf: string | null;
  retrySuccessId: string | null;
  data?: { resultData?: { runData?: RunData; error?: { message?: string; description?: string } } } | null;
  workflowData?: N8nWorkflow | null;
}

interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export const workflowPages: ServicePages['register'] = (app, ctx) => {
  const api = <T>(path: string, init: { method?: string; body?: unknown } = {}) =>
    callService<T>(ctx.client, 'workflow', API + path, init);

  const page = (request: FastifyRequest, reply: FastifyReply, title: string, body: string, status = 200) =>
    sendHtml(
      reply,
      layout({
        title,
        body: `<link rel="stylesheet" href="/static/home-workflow.css"><main>${body}</main>`,
        csrf: request.consoleCsrf,
        nav: request.consoleNav,
        path: request.url.split('?')[0],
        scripts: ['workflow.js'],
      }),
      status,
    );
  const problem = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    message: string,
    back = '/workflows',
  ) =>
    page(
      request,
      reply,
      'Not done',
      html`<h1>Not done</h1><p class="error" role="alert">${message}</p><p><a href="${back}">Back</a></p>`,
      relayStatus(status),
    );

  app.get('/workflows', { schema: { hide: true } }, async (request, reply) => {
    const cursor = (request.query as { cursor?: string }).cursor;
    const res = await api<Page<Workflow>>(
      `/workflows?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    if (res.status !== 200) return problem(request, reply, res.status, serviceMessage(res.body, res.status));
    const csrf = request.consoleCsrf ?? '';
    const rows = res.body.data.map((w) => raw(workflowRow(w, csrf)));
    return page(
      request,
      reply,
      'Workflows',
      html`${raw(workflowNav('/workflows'))}<h1>Workflows</h1>
${raw(importForm(csrf))}
<div class="table-wrap"><table><caption class="muted">Active workflows listen to their triggers (webhooks, schedules, events).</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Active</th><th scope="col">Nodes</th><th scope="col">Updated</th><th scope="col">Run</th></tr></thead>
<tbody>${rows}</tbody></table></div>
${res.body.data.length ? '' : raw('<p class="muted">No workflows yet: import one above.</p>')}
${raw(pager('/workflows?', cursor, res.body.nextCursor))}`,
    );
  });

  app.post('/workflows/:id/active', { schema: { hide: true } }, async (request, reply) => {
    const id = (request.params as { id: string }).id;
    const to = field(request.body, 'to');
    if (!ID.test(id)) return reply.code(404).send({ message: 'No such workflow', code: 'not_found' });
    if (to !== 'on' && to !== 'off') return problem(request, reply, 400, 'to must be on or off');
    const res = await api<Workflow>(`/workflows/${id}/${to === 'on' ? 'activate' : 'deactivate'}`, { method: 'POST' });
    const back = backTo(field(request.body, 'back'), '/workflows', '/workflows');
    if (!isHtmx(request))
      return res.status === 200
        ? reply.redirect(back, 303)
        : problem(request, reply, res.status, serviceMessage(res.body, res.status), back);
    if (res.status === 200) return sendHtml(reply, workflowRow(res.body, request.consoleCsrf ?? ''));
    const current = await api<Workflow>(`/workflows/${id}`);
    if (current.status !== 200)
      return sendHtml(
        reply,
        html`<tr><td colspan="5" class="error" role="alert">${serviceMessage(res.body, res.status)}</td></tr>`,
        relayStatus(res.status),
      );
    return sendHtml(
      reply,
      workflowRow(current.body, request.consoleCsrf ?? '', serviceMessage(res.body, res.status)),
      relayStatus(res.status),
    );
  });

  // An n8n export file (one workflow, or a list of them): JSON from the drop zone's script, or
  // the text of a pasted export from the plain form.
  app.post('/workflows/import', { schema: { hide: true } }, async (request, reply) => {
    const fromForm = /^application\/x-www-form-urlencoded/.test(request.headers['content-type'] ?? '');
    let parsed: unknown = request.body;
    if (fromForm) {
      try {
        parsed = JSON.parse(field(request.body, 'json') ?? '');
      } catch {
        return problem(request, reply, 400, 'The pasted text is not JSON: paste an n8n workflow export.');
      }
    }
    const fileName =
      typeof request.headers['x-file-name'] === 'string'
        ? decodeURIComponent(request.headers['x-file-name'])
        : undefined;
    const list = Array.isArray(parsed) ? parsed : [parsed];
    if (!list.length || list.some((w) => !w || typeof w !== 'object' || Array.isArray(w))) {
      const message = 'An n8n export is a workflow object (or a list of them)';
      return fromForm ? problem(request, reply, 400, message) : reply.code(400).send({ message, code: 'bad_request' });
    }
    const created: Array<{ id: string; name: string; url: string }> = [];
    for (const w of list as Array<Record<string, unknown>>) {
      const body = {
        ...w,
        name:
          typeof w.name === 'string' && w.name ? w.name : (fileName?.replace(/\.json$/i, '') ?? 'Imported workflow'),
      };
      const res = await api<Workflow>('/workflows', { method: 'POST', body });
      if (res.status !== 200) {
        const message = `${created.length ? `${created.length} imported, then: ` : ''}${serviceMessage(res.body, res.status)}`;
        return fromForm
          ? problem(request, reply, res.status, message)
          : reply.code(relayStatus(res.status)).send({ message, code: 'refused', created });
      }
      created.push({ id: res.body.id, name: res.body.name, url: `/workflows/${res.body.id}` });
    }
    if (fromForm) return reply.redirect(created.length === 1 ? created[0].url : '/workflows', 303);
    return reply.code(201).send({ workflows: created });
  });

  app.get('/workflows/executions', { schema: { hide: true } }, async (request, reply) => {
    const q = request.query as { workflowId?: string; status?: string; cursor?: string };
    const params = new URLSearchParams({ limit: String(EXECUTIONS_PER_PAGE) });
    if (q.workflowId && ID.test(q.workflowId)) params.set('workflowId', q.workflowId);
    if (q.status && STATUSES.includes(q.status)) params.set('status', q.status);
    const filter = new URLSearchParams(params);
    filter.delete('limit');
    if (q.cursor) params.set('cursor', q.cursor);
    const [res, names] = await Promise.all([api<Page<Execution>>(`/executions?${params}`), workflowNames(ctx)]);
    if (res.status !== 200) return problem(request, reply, res.status, serviceMessage(res.body, res.status));
    const rows = res.body.data.map(
      (
        e,
      ) => html`<tr><td><a href="/workflows/executions/${e.id}">#${e.id}</a></td><td><a href="/workflows/${e.workflowId}">${names.get(e.workflowId) ?? e.workflowId}</a></td>
<td><span class="status ${e.status}">${e.status}</span></td><td>${e.mode}</td><td>${e.startedAt ? raw(html`<time datetime="${e.startedAt}">${shortTime(e.startedAt)}</time>`) : ''}</td><td>${duration(e)}</td></tr>`,
    );
    return page(
      request,
      reply,
      'Executions',
      html`${raw(workflowNav('/workflows/executions'))}<h1>Executions</h1>
<form class="period" method="get" action="/workflows/executions">
<span><label for="f-workflow">Workflow</label><select id="f-workflow" name="workflowId"><option value="">All</option>${[...names].map(([id, name]) => raw(html`<option value="${id}"${raw(id === q.workflowId ? ' selected' : '')}>${name}</option>`))}</select></span>
<span><label for="f-status">Status</label><select id="f-status" name="status"><option value="">Any</option>${STATUSES.map((s) => raw(html`<option${raw(s === q.status ? ' selected' : '')}>${s}</option>`))}</select></span>
<button type="submit">Filter</button></form>
<div class="table-wrap"><table><thead><tr><th scope="col">Execution</th><th scope="col">Workflow</th><th scope="col">Status</th><th scope="col">Mode</th><th scope="col">Started</th><th scope="col">Took</th></tr></thead>
<tbody>${rows.map((r) => raw(r))}</tbody></table></div>
${res.body.data.length ? '' : raw('<p class="muted">No executions.</p>')}
${raw(pager(`/workflows/executions?${filter}&`, q.cursor, res.body.nextCursor))}`,
    );
  });

  app.get('/workflows/executions/:id', { schema: { hide: true } }, async (request, reply) => {
    const id = (request.params as { id: string }).id;
    if (!ID.test(id)) return problem(request, reply, 404, 'No such execution');
    const res = await api<Execution>(`/executions/${id}?includeData=true`);
    if (res.status !== 200)
      return problem(request, reply, res.status, serviceMessage(res.body, res.status), '/workflows/executions');
    const e = res.body;
    const runData = e.data?.resultData?.runData ?? {};
    const wf = e.workflowData ?? {};
    const types = new Map((wf.nodes ?? []).map((n) => [n.name, n.type]));
    const error = e.data?.resultData?.error;
    const csrf = request.consoleCsrf ?? '';
    const retryable = ['error', 'crashed', 'canceled'].includes(e.status);
    return page(
      request,
      reply,
      `Execution ${e.id}`,
      html`${raw(workflowNav(''))}<h1>Execution #${e.id} <span class="status ${e.status}">${e.status}</span></h1>
<dl class="meta"><dt>Workflow</dt><dd><a href="/workflows/${e.workflowId}">${wf.name ?? e.workflowId}</a></dd><dt>Mode</dt><dd>${e.mode}</dd>
<dt>Started</dt><dd>${e.startedAt ? shortTime(e.startedAt) : '–'}</dd><dt>Took</dt><dd>${duration(e)}</dd>
${e.retryOf ? raw(html`<dt>Retry of</dt><dd><a href="/workflows/executions/${e.retryOf}">#${e.retryOf}</a></dd>`) : ''}
${e.retrySuccessId ? raw(html`<dt>Retried successfully as</dt><dd><a href="/workflows/executions/${e.retrySuccessId}">#${e.retrySuccessId}</a></dd>`) : ''}</dl>
<div class="actions">
${retryable ? raw(postButton(`/workflows/executions/${e.id}/retry`, 'Retry', csrf)) : ''}
${retryable ? raw(postButton(`/workflows/executions/${e.id}/retry`, 'Retry with the current workflow', csrf, { loadWorkflow: 'true' })) : ''}
${raw(postButton(`/workflows/${e.workflowId}/run`, 'Run the workflow again', csrf))}
</div>
${error ? raw(html`<p class="error" role="alert">${error.message ?? 'The execution failed'}${error.description ? raw(html`<br>${error.description}`) : ''}</p>`) : ''}
<h2>Canvas</h2>${raw(canvasSvg(wf, runSummaries(runData)))}
<h2>Nodes</h2>${raw(nodeRunsHtml(runData, types))}`,
    );
  });

  app.post('/workflows/executions/:id/retry', { schema: { hide: true } }, async (request, reply) => {
    const id = (request.params as { id: string }).id;
    if (!ID.test(id)) return problem(request, reply, 404, 'No such execution');
    const res = await api<Execution>(`/executions/${id}/retry`, {
      method: 'POST',
      body: { loadWorkflow: field(request.body, 'loadWorkflow') === 'true' },
    });
    if (res.status !== 200)
      return problem(request, reply, res.status, serviceMessage(res.body, res.status), `/workflows/executions/${id}`);
    return reply.redirect(`/workflows/executions/${res.body.id}`, 303);
  });

  app.post('/workflows/:id/run', { schema: { hide: true } }, async (request, reply) => {
    const id = (request.params as { id: string }).id;
    if (!ID.test(id)) return problem(request, reply, 404, 'No such workflow');
    const res = await api<Execution>(`/workflows/${id}/execute`, { method: 'POST', body: {} });
    if (res.status !== 200)
      return problem(request, reply, res.status, serviceMessage(res.body, res.status), `/workflows/${id}`);
    return reply.redirect(`/workflows/executions/${res.body.id}`, 303);
  });

  app.get('/workflows/:id', { schema: { hide: true } }, async (request, reply) => {
    const id = (request.params as { id: string }).id;
    if (!ID.test(id)) return problem(request, reply, 404, 'No such workflow');
    const [res, recent] = await Promise.all([
      api<Workflow>(`/workflows/${id}`),
      api<Page<Execution>>(`/executions?workflowId=${id}&limit=10`),
    ]);
    if (res.status !== 200) return problem(request, reply, res.status, serviceMessage(res.body, res.status));
    const w = res.body;
    const csrf = request.consoleCsrf ?? '';
    const nodes = (w.nodes ?? []).filter((n) => !isSticky(n));
    const runs = recent.status === 200 ? recent.body.data : [];
    return page(
      request,
      reply,
      w.name,
      html`${raw(workflowNav(''))}<h1>${w.name}</h1>
<div class="actions">${raw(activeToggle(w, csrf, `/workflows/${w.id}`))}${raw(postButton(`/workflows/${w.id}/run`, 'Run now', csrf))}<a class="button" href="/workflows/executions?workflowId=${w.id}">All executions</a></div>
${raw(canvasSvg(w))}
<h2>Recent executions</h2>${runs.length ? raw(html`<ul>${runs.map((e) => raw(html`<li><a href="/workflows/executions/${e.id}">#${e.id}</a> <span class="status ${e.status}">${e.status}</span> ${e.startedAt ? shortTime(e.startedAt) : ''}</li>`))}</ul>`) : raw('<p class="muted">Not run yet.</p>')}
<h2>Nodes</h2>${nodes.map((n) => raw(html`<details class="node-run" id="${nodeAnchor(n.name)}"><summary><strong>${n.name}</strong> <span class="muted">${n.type}${n.disabled ? ' (disabled)' : ''}</span></summary><pre>${JSON.stringify(n.parameters ?? {}, null, 2)}</pre></details>`))}`,
    );
  });
};

/** Workflow names by id, for execution lists (the API's list, one page of the most). */
async function workflowNames(ctx: ServicePagesContext): Promise<Map<string, string>> {
  const res = await callService<Page<Workflow>>(ctx.client, 'workflow', `${API}/workflows?limit=250`);
  return new Map(res.status === 200 ? res.body.data.map((w) => [w.id, w.name]) : []);
}

function workflowRow(w: Workflow, csrf: string, error?: string): string {
  const nodes = (w.nodes ?? []).filter((n) => !isSticky(n)).length;
  return html`<tr id="wf-${w.id}"><td><a href="/workflows/${w.id}">${w.name}</a>${error ? raw(html`<p class="error" role="alert">${error}</p>`) : ''}</td>
<td>${raw(activeToggle(w, csrf, '/workflows'))}</td><td>${nodes}</td><td>${w.updatedAt ? shortTime(w.updatedAt) : ''}</td>
<td>${raw(postButton(`/workflows/${w.id}/run`, 'Run', csrf, {}, `Run ${w.name}`))} <a href="/workflows/executions?workflowId=${w.id}">Executions</a></td></tr>`;
}

/** A real toggle button (aria-pressed); htmx swaps the row, a plain post comes back to `back`. */
function activeToggle(w: Workflow, csrf: string, back: string): string {
  const hx =
    back === '/workflows'
      ? raw(html` hx-post="/workflows/${w.id}/active" hx-target="#wf-${w.id}" hx-swap="outerHTML"`)
      : '';
  return html`<form method="post" action="/workflows/${w.id}/active"${hx}><input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="back" value="${back}"><input type="hidden" name="to" value="${w.active ? 'off' : 'on'}">
<button type="submit" class="toggle" aria-pressed="${w.active ? 'true' : 'false'}" aria-label="${w.name}: ${w.active ? 'active, deactivate' : 'inactive, activate'}">${w.active ? 'Active' : 'Inactive'}</button></form>`;
}

function postButton(
  action: string,
  label: string,
  csrf: string,
  fields: Record<string, string> = {},
  ariaLabel?: string,
): string {
  return html`<form method="post" action="${action}" class="inline"><input type="hidden" name="_csrf" value="${csrf}">${Object.entries(fields).map(([k, v]) => raw(html`<input type="hidden" name="${k}" value="${v}">`))}<button type="submit"${ariaLabel ? raw(html` aria-label="${ariaLabel}"`) : ''}>${label}</button></form>`;
}

function importForm(csrf: string): string {
  return html`<section aria-labelledby="import-h"><h2 id="import-h">Import</h2>
<div class="dropzone" data-import="/workflows/import"><p>Drop an n8n export file (.json) here, or <label for="import-file">choose a file</label>.</p>
<input type="file" id="import-file" accept=".json,application/json">
<p class="import-status" role="status" aria-live="polite"></p></div>
<details><summary>Or paste the export</summary><form method="post" action="/workflows/import"><input type="hidden" name="_csrf" value="${csrf}">
<label for="import-json">n8n workflow JSON</label><textarea id="import-json" name="json" class="import" required></textarea><button type="submit">Import</button></form></details></section>`;
}

function pager(base: string, cursor: string | undefined, next: string | null): string {
  if (!cursor && !next) return '';
  return html`<nav class="pager" aria-label="Pages">${cursor ? raw(html`<a href="${base.replace(/[?&]$/, '')}">First page</a>`) : ''}${next ? raw(html`<a href="${base}cursor=${encodeURIComponent(next)}" rel="next">Next page</a>`) : ''}</nav>`;
}

function duration(e: Execution): string {
  if (!e.startedAt || !e.stoppedAt) return '–';
  const ms = new Date(e.stoppedAt).getTime() - new Date(e.startedAt).getTime();
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

const workflowNav = (current: string) =>
  html`<nav class="subnav" aria-label="Workflow views"><ul>${[
    ['/workflows', 'Workflows'],
    ['/workflows/executions', 'Executions'],
  ].map(([href, label]) =>
    raw(html`<li><a href="${href}"${raw(href === current ? ' aria-current="page"' : '')}>${label}</a></li>`),
  )}</ul></nav>`;
