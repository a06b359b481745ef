// The console's workflow views over HTTP: import of an n8n export, the canvas drawn from the
// workflow JSON (nodes at their positions, one path per connection, sticky notes), active
// toggles, runs with each node's items, executions paginated, and retry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

let t: TestHamlet;
let base: string;
let api: string;
let admin: Record<string, string>;
let wfKey: Record<string, string>;

beforeAll(async () => {
  t = await startTestHamlet({ services: ['workflow'], env: { HAMLET_CONSOLE: 'on' } });
  base = t.hamlet.console!.urls.web!;
  api = t.url('workflow') + '/api/v1';
  admin = { authorization: `Bearer ${(await t.hamlet.platform.keys.create('admin')).key}` };
  wfKey = { 'x-n8n-api-key': (await t.hamlet.platform.keys.create('workflow')).key };
}, 120_000);
afterAll(async () => t?.destroy());

/** An n8n export as the editor downloads it: id, active, meta and a sticky note included. */
const EXPORT = {
  name: 'Greeter',
  id: 'ignored-on-import',
  active: false,
  meta: { instanceId: 'abc' },
  nodes: [
    {
      id: 'a',
      name: 'Start',
      type: 'n8n-nodes-base.manualTrigger',
      typeVersion: 1,
      position: [100, 200],
      parameters: {},
    },
    {
      id: 'b',
      name: 'Greet',
      type: 'n8n-nodes-base.set',
      typeVersion: 3.4,
      position: [340, 200],
      parameters: {
        assignments: { assignments: [{ id: 'x', name: 'greeting', type: 'string', value: 'hello from the console' }] },
        options: {},
      },
    },
    { id: 'c', name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [580, 120], parameters: {} },
    { id: 'd', name: 'Also', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [580, 300], parameters: {} },
    {
      id: 'e',
      name: 'Note',
      type: 'n8n-nodes-base.stickyNote',
      typeVersion: 1,
      position: [60, 0],
      parameters: { content: '## Read me\nGreets whoever runs it.', width: 300, height: 140, color: 5 },
    },
  ],
  connections: {
    Start: { main: [[{ node: 'Greet', type: 'main', index: 0 }]] },
    Greet: {
      main: [
        [
          { node: 'Done', type: 'main', index: 0 },
          { node: 'Also', type: 'main', index: 0 },
        ],
      ],
    },
  },
  settings: { executionOrder: 'v1' },
};

const FAILING = {
  name: 'Fails',
  nodes: [
    { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
    {
      name: 'Stop',
      type: 'n8n-nodes-base.stopAndError',
      typeVersion: 1,
      position: [220, 0],
      parameters: { errorMessage: 'stopped on purpose' },
    },
  ],
  connections: { Start: { main: [[{ node: 'Stop', type: 'main', index: 0 }]] } },
  settings: { executionOrder: 'v1' },
};

const page = async (path: string) => {
  const res = await fetch(base + path, { headers: admin });
  return { status: res.status, text: await res.text() };
};
const post = (path: string, fields: Record<string, string> = {}, extra: Record<string, string> = {}) =>
  fetch(base + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...admin, 'content-type': 'application/x-www-form-urlencoded', ...extra },
    body: new URLSearchParams(fields),
  });

async function importJson(body: unknown, fileName?: string) {
  const res = await fetch(`${base}/workflows/import`, {
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/json', ...(fileName ? { 'x-file-name': fileName } : {}) },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as { workflows: Array<{ id: string; url: string }>; message?: string },
  };
}

describe('workflow console', () => {
  let greeter: string;

  it('imports an n8n export, creating the workflow through the API', async () => {
    const res = await importJson(EXPORT, 'greeter.json');
    expect(res.status).toBe(201);
    greeter = res.body.workflows[0].id;
    expect(res.body.workflows[0].url).toBe(`/workflows/${greeter}`);
    const stored = (await (await fetch(`${api}/workflows/${greeter}`, { headers: wfKey })).json()) as {
      name: string;
      nodes: unknown[];
    };
    expect(stored.name).toBe('Greeter');
    expect(stored.nodes).toHaveLength(5);

    // The plain form: pasted text; refusals are clear 4xx.
    const pasted = await post('/workflows/import', { json: JSON.stringify({ ...FAILING, name: 'Pasted' }) });
    expect(pasted.status).toBe(303);
    expect(pasted.headers.get('location')).toMatch(/^\/workflows\/[A-Za-z0-9]+$/);
    expect((await post('/workflows/import', { json: 'not json' })).status).toBe(400);
    const noNodes = await importJson({ name: 'empty' });
    expect(noNodes.status).toBe(400);
    expect(noNodes.body.message).toMatch(/nodes/);
  });

  it('draws the canvas: a node element per node at its position, a path per connection, sticky notes', async () => {
    const { status, text } = await page(`/workflows/${greeter}`);
    expect(status).toBe(200);
    const nodes = [
      ...text.matchAll(/<g class="node[^"]*" data-node="([^"]+)" transform="translate\(([-\d.]+) ([-\d.]+)\)"/g),
    ].map((m) => [m[1], Number(m[2]), Number(m[3])]);
    expect(nodes).toEqual([
      ['Start', 100, 200],
      ['Greet', 340, 200],
      ['Done', 580, 120],
      ['Also', 580, 300],
    ]);
    const paths = [...text.matchAll(/<path class="connection[^"]*" data-from="([^"]+)" data-to="([^"]+)"/g)].map(
      (m) => `${m[1]}→${m[2]}`,
    );
    expect(paths).toEqual(['Start→Greet', 'Greet→Done', 'Greet→Also']);
    const sticky =
      /<g class="sticky" data-sticky="Note" transform="translate\(60 0\)"><rect width="300" height="140" rx="6" fill="([^"]+)"/.exec(
        text,
      );
    expect(sticky?.[1]).toBe('#d6e6fb');
    expect(text).toContain('Read me');
  });

  it('lists workflows with an active toggle that activates through the API, or says why not', async () => {
    const list = await page('/workflows');
    expect(list.text).toMatch(new RegExp(`<tr id="wf-${greeter}">[\\s\\S]*aria-pressed="false"`));
    expect(list.text).toContain('data-import="/workflows/import"');
    // A manual trigger alone cannot be activated: the API's reason comes back in the row.
    const refused = await post(`/workflows/${greeter}/active`, { to: 'on' }, { 'hx-request': 'true' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/role="alert">[^<]*trigger/);

    const hook = await importJson({
      name: 'Hooked',
      nodes: [
        {
          name: 'Hook',
          type: 'n8n-nodes-base.webhook',
          typeVersion: 2,
          position: [0, 0],
          parameters: { path: 'console-hook', httpMethod: 'POST' },
        },
      ],
      connections: {},
    });
    const id = hook.body.workflows[0].id;
    const on = await post(`/workflows/${id}/active`, { to: 'on' }, { 'hx-request': 'true' });
    expect(on.status).toBe(200);
    expect(await on.text()).toMatch(/^<tr id="wf-[^"]+">[\s\S]*aria-pressed="true"/);
    expect(
      ((await (await fetch(`${api}/workflows/${id}`, { headers: wfKey })).json()) as { active: boolean }).active,
    ).toBe(true);
    const off = await post(`/workflows/${id}/active`, { to: 'off', back: '/workflows' });
    expect(off.status).toBe(303);
    expect(
      ((await (await fetch(`${api}/workflows/${id}`, { headers: wfKey })).json()) as { active: boolean }).active,
    ).toBe(false);
  });

  it('runs a workflow and shows each node with its input and output items', async () => {
    const run = await post(`/workflows/${greeter}/run`);
    expect(run.status).toBe(303);
    const at = run.headers.get('location')!;
    expect(at).toMatch(/^\/workflows\/executions\/\d+$/);
    const { status, text } = await page(at);
    expect(status).toBe(200);
    expect(text).toContain('<span class="status success">success</span>');
    const greet = text.slice(
      text.indexOf('<section class="node-run" id="node-Greet"'),
      text.indexOf('</section>', text.indexOf('id="node-Greet"')),
    );
    expect(greet).toMatch(/Input <span class="muted">from Start: 1 item/);
    expect(greet).toMatch(/<th scope="col">greeting<\/th>[\s\S]*<td>hello from the console<\/td>/);
    expect(text).toMatch(/<g class="node run-success" data-node="Greet"/);
    expect(text).toMatch(/data-from="Greet" data-to="Done"[^>]*>[\s\S]*?1 item</);
  });

  it('retries a failed execution through the API and lists executions page by page', async () => {
    const failing = (await importJson(FAILING)).body.workflows[0].id;
    const run = await post(`/workflows/${failing}/run`);
    const failed = run.headers.get('location')!;
    const view = await page(failed);
    expect(view.text).toContain('<span class="status error">error</span>');
    expect(view.text).toContain('stopped on purpose');
    const failedId = failed.split('/').pop()!;
    const retry = await post(`/workflows/executions/${failedId}/retry`);
    expect(retry.status).toBe(303);
    const retried = retry.headers.get('location')!;
    expect(retried).not.toBe(failed);
    const again = await page(retried);
    expect(again.text).toContain(`<a href="/workflows/executions/${failedId}">#${failedId}</a>`);
    const apiView = (await (
      await fetch(`${api}/executions/${retried.split('/').pop()}`, { headers: wfKey })
    ).json()) as { retryOf: string };
    expect(apiView.retryOf).toBe(failedId);

    // A succeeded execution cannot be retried: the API's 409, shown.
    const ok = (await (await fetch(`${api}/executions?workflowId=${greeter}&limit=1`, { headers: wfKey })).json()) as {
      data: Array<{ id: string }>;
    };
    expect((await post(`/workflows/executions/${ok.data[0].id}/retry`)).status).toBe(409);

    for (let i = 0; i < 50; i++)
      await fetch(`${api}/workflows/${greeter}/execute`, {
        method: 'POST',
        headers: { ...wfKey, 'content-type': 'application/json' },
        body: '{}',
      });
    const first = await page('/workflows/executions');
    expect(first.text.match(/<tr><td><a href="\/workflows\/executions\/\d+">/g)).toHaveLength(50);
    const next = /<a href="([^"]+)" rel="next">/.exec(first.text)![1].replace(/&amp;/g, '&');
    const second = await page(next);
    expect(second.text.match(/<tr><td><a href="\/workflows\/executions\/\d+">/g)!.length).toBeGreaterThanOrEqual(3);
    const filtered = await page(`/workflows/executions?workflowId=${failing}`);
    expect(filtered.text.match(/<tr><td><a href="\/workflows\/executions\/\d+">/g)).toHaveLength(2);
  });
});
