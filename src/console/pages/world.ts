// The world page (/world): the clock, the snapshots (save, restore, download, reset), the diff
// between two states and seeding a scenario, for a person at the console. It is a view over
// the admin API (admin/world.ts, admin/clock.ts): each read and each form goes through the
// same routes a program calls, with the person's own session (and its CSRF token), so the
// page has no rule of its own to drift from the API's. Forms work without script; each answers
// with the page again, saying what happened (or why not, with the API's 4xx).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleModule } from '../context.js';
import { field, sendHtml, shortTime } from '../../platform/console-partial.js';
import { html, layout, raw } from '../../platform/console-layout.js';

interface Answer<T = any> {
  status: number;
  body: T;
}

const EXAMPLES = ['newsroom', 'help-desk', 'smart-home'];

export const worldPages: ConsoleModule = (app) => {
  /** Calls the admin API as the person asking (their session or key, and the CSRF token). */
  async function api<T = any>(
    request: FastifyRequest,
    method: 'GET' | 'POST',
    url: string,
    payload?: { json?: unknown; yaml?: string },
  ): Promise<Answer<T>> {
    const headers: Record<string, string> = {};
    for (const h of ['cookie', 'authorization'] as const)
      if (typeof request.headers[h] === 'string') headers[h] = request.headers[h];
    if (request.consoleCsrf) headers['x-csrf-token'] = request.consoleCsrf;
    let body: string | undefined;
    if (payload?.yaml !== undefined) {
      headers['content-type'] = 'text/yaml';
      body = payload.yaml;
    } else if (payload?.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(payload.json);
    }
    const res = await app.inject({ method, url, headers, ...(body !== undefined ? { payload: body } : {}) });
    let parsed: unknown = res.body;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      // not JSON: kept as text
    }
    return { status: res.statusCode, body: parsed as T };
  }

  const messageOf = (a: Answer) =>
    a.body && typeof a.body === 'object' && typeof a.body.message === 'string'
      ? a.body.message
      : `the admin API answered ${a.status}`;

  /** The page, with a note of what the last form did (or an error, with its status). */
  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    note?: { text: string; error?: boolean; status?: number; extra?: string },
  ) {
    const [clock, snapshots, hash] = await Promise.all([
      api(request, 'GET', '/admin/api/clock'),
      api(request, 'GET', '/admin/api/world/snapshots'),
      api(request, 'GET', '/admin/api/world/hash'),
    ]);
    const csrf = request.consoleCsrf ?? '';
    const hidden = raw(html`<input type="hidden" name="_csrf" value="${csrf}">`);
    const list: Array<{
      id: string;
      name?: string;
      savedAt: string;
      rows: number;
      bytes: number;
      clock?: { now: string };
    }> = snapshots.body?.snapshots ?? [];
    const options = (selected: string) =>
      list.map(
        (s) =>
          html`<option value="${s.id}"${s.id === selected ? raw(' selected') : ''}>${s.name ? `${s.name} (${s.id})` : s.id}</option>`,
      );
    const body = html`<h1>World</h1>
${note ? raw(html`<p class="${note.error ? 'error' : 'notice'}" role="${note.error ? 'alert' : 'status'}">${note.text}</p>`) : ''}
${note?.extra ? raw(note.extra) : ''}
<section aria-labelledby="clock"><h2 id="clock">Clock</h2>
<p>Platform time: <strong data-clock-now>${clock.body?.now ?? '?'}</strong> (${clock.body?.frozen ? 'frozen' : 'running'}). State hash <code>${String(hash.body?.hash ?? '').slice(0, 16)}</code>.</p>
<form method="post" action="/world/clock" class="inline">${hidden}<input type="hidden" name="frozen" value="${clock.body?.frozen ? 'false' : 'true'}"><button type="submit">${clock.body?.frozen ? 'Let it run' : 'Freeze'}</button></form>
<form method="post" action="/world/clock" class="inline">${hidden}<label>Jump to <input name="now" type="text" placeholder="2026-01-12T09:00:00Z" required></label> <button type="submit">Set</button></form>
<form method="post" action="/world/clock/advance" class="inline">${hidden}<label>Advance by <input name="minutes" type="number" min="1" max="527040" value="60" required> minutes</label> <button type="submit">Advance</button></form>
</section>
<section aria-labelledby="snapshots"><h2 id="snapshots">Snapshots</h2>
<form method="post" action="/world/snapshots" class="inline">${hidden}<label>Name <input name="name" maxlength="200"></label> <button type="submit">Save the world now</button></form>
<form method="post" action="/world/reset" class="inline">${hidden}<button type="submit" class="danger">Reset to empty</button></form>
${
  list.length
    ? raw(
        html`<div class="table-wrap"><table><thead><tr><th scope="col">Snapshot</th><th scope="col">Saved</th><th scope="col">Clock</th><th scope="col">Rows</th><th scope="col">Bytes</th><th scope="col">Actions</th></tr></thead><tbody>${list.map(
          (s) =>
            raw(
              html`<tr><td>${s.name ?? ''} <code>${s.id}</code></td><td>${shortTime(s.savedAt)}</td><td>${s.clock ? shortTime(s.clock.now) : ''}</td><td>${s.rows}</td><td>${s.bytes}</td><td><form method="post" action="/world/snapshots/${s.id}/restore" class="inline">${hidden}<button type="submit">Restore</button></form> <a href="/admin/api/world/snapshots/${s.id}" download>Download</a> <a href="/world/diff?from=${s.id}&amp;to=now">Diff to now</a></td></tr>`,
            ),
        )}</tbody></table></div>`,
      )
    : raw('<p class="muted">No snapshot saved yet.</p>')
}
</section>
<section aria-labelledby="diff"><h2 id="diff">What changed</h2>
${list.length ? raw(html`<form method="get" action="/world/diff" class="inline"><label>From <select name="from">${options('')}</select></label> <label>to <select name="to"><option value="now">now</option>${options('')}</select></label> <button type="submit">Compare</button></form>`) : raw('<p class="muted">Save a snapshot to compare the world with it later.</p>')}
</section>
<section aria-labelledby="seed"><h2 id="seed">Seed a scenario</h2>
<form method="post" action="/world/seed" class="inline">${hidden}<label>Example <select name="example">${EXAMPLES.map((e) => raw(html`<option>${e}</option>`))}</select></label> <button type="submit">Seed the example</button></form>
<form method="post" action="/world/seed"><label for="scenario-yaml">Scenario (YAML)</label><textarea id="scenario-yaml" name="yaml" rows="10" cols="80" placeholder="name: my-world&#10;agents:&#10;  - name: ada&#10;    mail: true"></textarea>${hidden}<p><button type="submit">Seed</button></p></form>
</section>`;
    return sendHtml(
      reply,
      layout({ title: 'World', body, csrf, nav: request.consoleNav, path: '/world' }),
      note?.status ?? 200,
    );
  }

  /** After a form: the page with what happened, or the API's refusal (its status). */
  const after = (request: FastifyRequest, reply: FastifyReply, a: Answer, done: string, extra?: string) =>
    a.status < 300
      ? render(request, reply, { text: done, extra })
      : render(request, reply, { text: messageOf(a), error: true, status: a.status >= 500 ? 502 : a.status });

  app.get('/world', { schema: { hide: true } }, (request, reply) => render(request, reply));

  app.post('/world/clock', { schema: { hide: true } }, async (request, reply) => {
    const frozen = field(request.body, 'frozen');
    const now = field(request.body, 'now');
    const json = { ...(frozen !== undefined ? { frozen: frozen === 'true' } : {}), ...(now ? { now } : {}) };
    const a = await api(request, 'POST', '/admin/api/clock', { json });
    return after(
      request,
      reply,
      a,
      a.status < 300 ? `The clock is at ${a.body.now} (${a.body.frozen ? 'frozen' : 'running'}).` : '',
    );
  });

  app.post('/world/clock/advance', { schema: { hide: true } }, async (request, reply) => {
    const minutes = Number(field(request.body, 'minutes'));
    const a = await api(request, 'POST', '/admin/api/clock/advance', {
      json: { seconds: Number.isFinite(minutes) ? minutes * 60 : -1 },
    });
    return after(request, reply, a, a.status < 300 ? `Advanced to ${a.body.now}.` : '');
  });

  app.post('/world/snapshots', { schema: { hide: true } }, async (request, reply) => {
    const name = field(request.body, 'name');
    const a = await api(request, 'POST', '/admin/api/world/snapshots', { json: name ? { name } : {} });
    return after(request, reply, a, a.status < 300 ? `Saved snapshot ${a.body.id} (${a.body.rows} rows).` : '');
  });

  app.post('/world/snapshots/:id/restore', { schema: { hide: true } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const a = await api(request, 'POST', `/admin/api/world/snapshots/${encodeURIComponent(id)}/restore`);
    return after(request, reply, a, a.status < 300 ? `Restored snapshot ${id}.` : '');
  });

  app.post('/world/reset', { schema: { hide: true } }, async (request, reply) =>
    after(request, reply, await api(request, 'POST', '/admin/api/world/reset'), 'The world is empty.'),
  );

  app.post('/world/seed', { schema: { hide: true } }, async (request, reply) => {
    const yaml = field(request.body, 'yaml');
    const example = field(request.body, 'example');
    const a = yaml
      ? await api(request, 'POST', '/admin/api/world/seed', { yaml })
      : await api(request, 'POST', `/admin/api/world/seed?example=${encodeURIComponent(example ?? '')}`);
    // The keys are shown once, here: the world keeps only their digests.
    const keys =
      a.status < 300
        ? html`<details open><summary>The agents' keys (shown once)</summary><pre>${JSON.stringify(a.body.agents, null, 2)}</pre></details>`
        : undefined;
    return after(request, reply, a, a.status < 300 ? `Seeded ${a.body.scenario ?? 'the scenario'}.` : '', keys);
  });

  app.get('/world/diff', { schema: { hide: true } }, async (request, reply) => {
    const q = request.query as { from?: string; to?: string; cursor?: string };
    const params = new URLSearchParams({
      from: q.from ?? '',
      to: q.to ?? 'now',
      ...(q.cursor ? { cursor: q.cursor } : {}),
      limit: '200',
    });
    const a = await api(request, 'GET', `/admin/api/world/diff?${params}`);
    if (a.status >= 300) return render(request, reply, { text: messageOf(a), error: true, status: a.status });
    const services = Object.entries(
      (a.body.services ?? {}) as Record<string, { added: any[]; changed: any[]; removed: any[] }>,
    );
    const rows = services.flatMap(([service, c]) => [
      ...c.added.map((r) => ({ service, what: 'added', table: r.table, key: r.key, detail: '' })),
      ...c.changed.map((r) => ({
        service,
        what: 'changed',
        table: r.table,
        key: r.key,
        detail: (r.columns ?? [])
          .map((col: string) => `${col}: ${JSON.stringify(r.before?.[col])} → ${JSON.stringify(r.after?.[col])}`)
          .join('; '),
      })),
      ...c.removed.map((r) => ({ service, what: 'removed', table: r.table, key: r.key, detail: '' })),
    ]);
    const body = html`<h1>What changed</h1><p>From <code>${a.body.from}</code> to <code>${a.body.to}</code>. <a href="/world">Back to the world</a></p>
<div class="table-wrap"><table><thead><tr><th scope="col">Service</th><th scope="col">Added</th><th scope="col">Changed</th><th scope="col">Removed</th></tr></thead><tbody>${services.map(([s, c]) => raw(html`<tr><td>${s}</td><td>${c.added.length}</td><td>${c.changed.length}</td><td>${c.removed.length}</td></tr>`))}</tbody></table></div>
<h2>Rows</h2>${rows.length ? raw(html`<div class="table-wrap"><table><thead><tr><th scope="col">Service</th><th scope="col">Change</th><th scope="col">Table</th><th scope="col">Key</th><th scope="col">Columns</th></tr></thead><tbody>${rows.map((r) => raw(html`<tr><td>${r.service}</td><td>${r.what}</td><td>${r.table}</td><td><code>${JSON.stringify(r.key)}</code></td><td>${r.detail.slice(0, 2000)}</td></tr>`))}</tbody></table></div>`) : raw('<p class="muted">Nothing changed.</p>')}
${a.body.next ? raw(html`<p><a href="/world/diff?${new URLSearchParams({ from: q.from ?? '', to: q.to ?? 'now', cursor: a.body.next })}">More changes →</a></p>`) : ''}`;
    return sendHtml(
      reply,
      layout({ title: 'What changed', body, csrf: request.consoleCsrf, nav: request.consoleNav, path: '/world' }),
    );
  });
};
