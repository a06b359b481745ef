// Webhook triggers: production and test URLs, methods, path parameters, response modes,
// and deactivation removing the route at once.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWorkflowServer, webhookWorkflow, type WorkflowTestServer } from './helpers.js';
import { waitFor } from '../helpers/wait.js';

let s: WorkflowTestServer;
beforeAll(async () => {
  s = await startWorkflowServer();
}, 60_000);
afterAll(() => s?.stop());

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

function hookWith(
  path: string,
  webhookParams: Record<string, unknown>,
  extra: { nodes?: any[]; connections?: any } = {},
) {
  return {
    name: `hook ${path}`,
    nodes: [
      {
        name: 'Hook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        parameters: { path, ...webhookParams },
      },
      ...(extra.nodes ?? []),
    ],
    connections: extra.connections ?? {},
    settings: { executionOrder: 'v1' },
  };
}

async function create(wf: unknown, activate = true) {
  const c = await s.api('POST', '/workflows', wf);
  expect(c.status).toBe(200);
  if (activate) expect((await s.api('POST', `/workflows/${c.body.id}/activate`)).status).toBe(200);
  return c.body.id as string;
}

/** Split Out of the webhook's `body.list`: one item per element. */
const SPLIT_BODY_LIST = {
  name: 'Split',
  type: 'n8n-nodes-base.splitOut',
  typeVersion: 1,
  position: [200, 0],
  parameters: { fieldToSplitOut: 'body.list' },
};

describe('production webhooks', () => {
  test('responseNode: answers with Respond to Webhook; execution saved with mode webhook and the webhook item', async () => {
    const id = await create(webhookWorkflow('echo'));
    const r = await s.call('POST', '/webhook/echo?x=1', json({ msg: 'hi' }));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ processed: true, echo: 'hi' });
    // The answer goes out when Respond to Webhook runs; the execution is saved when the run ends.
    const e = await waitFor(
      async () => {
        const list = await s.api('GET', `/executions?workflowId=${id}&includeData=true`);
        expect(list.body.data[0]).toMatchObject({ mode: 'webhook', status: 'success', finished: true });
        return list.body.data[0];
      },
      { message: 'the webhook run to finish' },
    );
    const item = e.data.resultData.runData.Webhook[0].data.main[0][0].json;
    expect(item).toMatchObject({
      params: {},
      query: { x: '1' },
      body: { msg: 'hi' },
      executionMode: 'production',
      webhookUrl: `${s.url}/webhook/echo`,
    });
    expect(item.headers['content-type']).toBe('application/json');
  });

  test('deactivation removes the webhook at once (404 in n8n words); reactivation restores it', async () => {
    const id = await create(webhookWorkflow('toggle'));
    expect((await s.call('POST', '/webhook/toggle', json({ msg: 'a' }))).status).toBe(200);
    await s.api('POST', `/workflows/${id}/deactivate`);
    const gone = await s.call('POST', '/webhook/toggle', json({ msg: 'a' }));
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ code: 404, message: 'The requested webhook "POST toggle" is not registered.' });
    await s.api('PATCH', `/workflows/${id}`, { active: true });
    expect((await s.call('POST', '/webhook/toggle', json({ msg: 'b' }))).body).toEqual({ processed: true, echo: 'b' });
    await s.api('DELETE', `/workflows/${id}`);
    expect((await s.call('POST', '/webhook/toggle', json({ msg: 'a' }))).status).toBe(404);
  });

  test('wrong method names the registered one; path parameters fill params', async () => {
    await create(hookWith('users/:id/orders/:order', { httpMethod: 'GET', responseMode: 'lastNode' }));
    const r = await s.call('GET', '/webhook/users/42/orders/7');
    expect(r.status).toBe(200);
    expect(r.body.params).toEqual({ id: '42', order: '7' });
    await create(hookWith('only-get', { httpMethod: 'GET', responseMode: 'lastNode' }));
    const wrong = await s.call('POST', '/webhook/only-get', json({}));
    expect(wrong.status).toBe(404);
    expect(wrong.body.message).toBe(
      'This webhook is not registered for POST requests. Did you mean to make a GET request?',
    );
  });

  test('onReceived answers at once and the execution runs durably on the job queue', async () => {
    const id = await create(
      hookWith(
        'fire',
        { httpMethod: 'POST' },
        {
          nodes: [
            {
              name: 'Set',
              type: 'n8n-nodes-base.set',
              typeVersion: 3.4,
              position: [200, 0],
              parameters: {
                assignments: { assignments: [{ id: '1', name: 'got', type: 'string', value: '={{ $json.body.v }}' }] },
              },
            },
          ],
          connections: { Hook: { main: [[{ node: 'Set', type: 'main', index: 0 }]] } },
        },
      ),
    );
    const r = await s.call('POST', '/webhook/fire', json({ v: 'x' }));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'Workflow was started' });
    const e = await waitFor(
      async () => {
        await s.t.hamlet.platform.jobs.idle();
        const first = (await s.api('GET', `/executions?workflowId=${id}&includeData=true`)).body.data[0];
        expect(first.status).toBe('success');
        return first;
      },
      { message: 'the run to succeed' },
    );
    expect(e.data.resultData.runData.Set[0].data.main[0][0].json).toEqual({ got: 'x' });
  });

  test('lastNode: firstEntryJson by default, allEntries, response code option', async () => {
    const split = {
      nodes: [SPLIT_BODY_LIST],
      connections: { Hook: { main: [[{ node: 'Split', type: 'main', index: 0 }]] } },
    };
    // v2 takes the code as n8n's editor writes it, {values: {responseCode}} (a plain number there is not read, as in n8n).
    await create(
      hookWith(
        'first',
        { httpMethod: 'POST', responseMode: 'lastNode', options: { responseCode: { values: { responseCode: 201 } } } },
        split,
      ),
    );
    await create(hookWith('all', { httpMethod: 'POST', responseMode: 'lastNode', responseData: 'allEntries' }, split));
    const first = await s.call('POST', '/webhook/first', json({ list: [{ a: 1 }, { a: 2 }] }));
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ a: 1 });
    const all = await s.call('POST', '/webhook/all', json({ list: [{ a: 1 }, { a: 2 }] }));
    expect(all.body).toEqual([{ a: 1 }, { a: 2 }]);
  });

  test('Remove Duplicates remembers what production runs saw: a second call passes on only the new items', async () => {
    // Manual runs keep every item and remember none (nodes.test.ts); production runs remember.
    await create(
      hookWith(
        'dedupe',
        { httpMethod: 'POST', responseMode: 'lastNode', responseData: 'allEntries' },
        {
          nodes: [
            SPLIT_BODY_LIST,
            {
              name: 'Dedupe',
              type: 'n8n-nodes-base.removeDuplicates',
              typeVersion: 2,
              position: [400, 0],
              parameters: { operation: 'removeItemsSeenInPreviousExecutions', dedupeValue: '={{ $json.name }}' },
            },
          ],
          connections: {
            Hook: { main: [[{ node: 'Split', type: 'main', index: 0 }]] },
            Split: { main: [[{ node: 'Dedupe', type: 'main', index: 0 }]] },
          },
        },
      ),
    );
    const first = await s.call('POST', '/webhook/dedupe', json({ list: [{ name: 'a' }, { name: 'b' }] }));
    expect(first.body).toEqual([{ name: 'a' }, { name: 'b' }]);
    const second = await s.call('POST', '/webhook/dedupe', json({ list: [{ name: 'b' }, { name: 'c' }] }));
    expect(second.body).toEqual([{ name: 'c' }]);
  });

  test('Respond to Webhook with text answers text/html; json with headers and code', async () => {
    await create(
      hookWith(
        'texty',
        { httpMethod: 'POST', responseMode: 'responseNode' },
        {
          nodes: [
            {
              name: 'Respond',
              type: 'n8n-nodes-base.respondToWebhook',
              typeVersion: 1.1,
              position: [200, 0],
              parameters: {
                respondWith: 'text',
                responseBody: '=Hi {{ $json.body.n }}',
                options: { responseCode: 202, responseHeaders: { entries: [{ name: 'X-Hamlet', value: 'yes' }] } },
              },
            },
          ],
          connections: { Hook: { main: [[{ node: 'Respond', type: 'main', index: 0 }]] } },
        },
      ),
    );
    const r = await s.call('POST', '/webhook/texty', json({ n: 'Bo' }));
    expect(r.status).toBe(202);
    expect(r.text).toBe('Hi Bo');
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(r.headers.get('x-hamlet')).toBe('yes');
  });

  test('form-urlencoded bodies arrive as flat keys; malformed JSON is a 400', async () => {
    await create(hookWith('form', { httpMethod: 'POST', responseMode: 'lastNode' }));
    const r = await s.call('POST', '/webhook/form', {
      body: 'a%5Bb%5D=1&c=2',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r.body.body).toEqual({ 'a[b]': '1', c: '2' });
    const bad = await s.call('POST', '/webhook/form', {
      body: '{"x":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
  });

  test('test URL runs an inactive workflow in mode manual with executionMode test; unknown path 404', async () => {
    const id = await create(hookWith('testing', { httpMethod: 'POST', responseMode: 'lastNode' }), false);
    const r = await s.call('POST', '/webhook-test/testing', json({ a: 1 }));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ executionMode: 'test', webhookUrl: `${s.url}/webhook-test/testing` });
    await waitFor(async () => (await s.api('GET', `/executions?workflowId=${id}`)).body.data[0]?.mode === 'manual', {
      message: 'a manual execution',
    });
    expect((await s.call('POST', '/webhook/testing', json({}))).status).toBe(404);
    expect((await s.call('POST', '/webhook-test/nothing-here', json({}))).status).toBe(404);
  });

  test('a Webhook listening on several methods emits on one output per method', async () => {
    await create(
      hookWith(
        'multi',
        { multipleMethods: true, httpMethod: ['GET', 'POST'], responseMode: 'lastNode' },
        {
          nodes: [
            {
              name: 'On GET',
              type: 'n8n-nodes-base.set',
              typeVersion: 3.4,
              position: [200, 0],
              parameters: { assignments: { assignments: [{ id: '1', name: 'via', type: 'string', value: 'get' }] } },
            },
            {
              name: 'On POST',
              type: 'n8n-nodes-base.set',
              typeVersion: 3.4,
              position: [200, 200],
              parameters: { assignments: { assignments: [{ id: '1', name: 'via', type: 'string', value: 'post' }] } },
            },
          ],
          connections: {
            Hook: {
              main: [[{ node: 'On GET', type: 'main', index: 0 }], [{ node: 'On POST', type: 'main', index: 0 }]],
            },
          },
        },
      ),
    );
    expect((await s.call('GET', '/webhook/multi')).body).toEqual({ via: 'get' });
    expect((await s.call('POST', '/webhook/multi', json({}))).body).toEqual({ via: 'post' });
  });

  test('two active workflows cannot take the same path', async () => {
    await create(webhookWorkflow('taken'));
    const c = await s.api('POST', '/workflows', webhookWorkflow('taken', 'second'));
    const r = await s.api('POST', `/workflows/${c.body.id}/activate`);
    expect(r.status).toBe(400);
    expect((await s.api('GET', `/workflows/${c.body.id}`)).body.active).toBe(false);
  });
});
