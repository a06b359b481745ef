// Issue 9, observation 1: the data of one execution must never be visible to another.
// In a fresh engine, an expression that needs the sandbox followed by a Code node in another
// workflow used to hand the Code node the expression's data (two callers kept their own
// run counters and keyed one sandbox memo with them).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startWorkflowServer, type WorkflowTestServer } from './helpers.js';

let s: WorkflowTestServer;
beforeAll(async () => {
  s = await startWorkflowServer();
});
afterAll(() => s?.stop());

function upperCaseWebhook(path: string) {
  return {
    name: 'Shout',
    nodes: [
      {
        id: 'w',
        name: 'Webhook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        webhookId: path,
        parameters: { httpMethod: 'POST', path, responseMode: 'responseNode', options: {} },
      },
      {
        id: 's',
        name: 'Set',
        type: 'n8n-nodes-base.set',
        typeVersion: 3.4,
        position: [200, 0],
        parameters: {
          assignments: {
            assignments: [{ id: '1', name: 'shout', type: 'string', value: '={{ $json.body.msg.toUpperCase() }}' }],
          },
          options: {},
        },
      },
      {
        id: 'r',
        name: 'Respond',
        type: 'n8n-nodes-base.respondToWebhook',
        typeVersion: 1.1,
        position: [400, 0],
        parameters: { respondWith: 'firstIncomingItem', options: {} },
      },
    ],
    connections: {
      Webhook: { main: [[{ node: 'Set', type: 'main', index: 0 }]] },
      Set: { main: [[{ node: 'Respond', type: 'main', index: 0 }]] },
    },
    settings: { executionOrder: 'v1' },
  };
}

const echoCode = {
  name: 'Echo input',
  nodes: [
    { id: 'm', name: 'Manual', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
    {
      id: 'c',
      name: 'Code',
      type: 'n8n-nodes-base.code',
      typeVersion: 2,
      position: [200, 0],
      parameters: { jsCode: 'return $input.all();' },
    },
  ],
  connections: { Manual: { main: [[{ node: 'Code', type: 'main', index: 0 }]] } },
  settings: { executionOrder: 'v1' },
};

test('a Code node run by /execute after a webhook expression sees its own input, not the webhook data', async () => {
  const hook = await s.api('POST', '/workflows', upperCaseWebhook('shout'));
  expect((await s.api('POST', `/workflows/${hook.body.id}/activate`)).status).toBe(200);
  const shouted = await s.call('POST', '/webhook/shout', {
    body: JSON.stringify({ msg: 'secret from the webhook' }),
    headers: { 'content-type': 'application/json' },
  });
  expect(shouted.body).toMatchObject({ shout: 'SECRET FROM THE WEBHOOK' });

  const code = await s.api('POST', '/workflows', echoCode);
  const run = await s.api('POST', `/workflows/${code.body.id}/execute`, { data: { base: 10 } });
  expect(run.body.status).toBe('success');
  expect(run.body.data.resultData.runData.Code[0].data.main[0].map((item: { json: unknown }) => item.json)).toEqual([
    { base: 10 },
  ]);
});
