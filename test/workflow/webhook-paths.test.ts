// Observation 5 of issue #9: badly encoded webhook paths answered 500, unauthenticated.
// Every such path is simply not a registered webhook: 404 in the webhook envelope.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWorkflowServer, type WorkflowTestServer } from './helpers.js';

let s: WorkflowTestServer;
beforeAll(async () => {
  s = await startWorkflowServer();
  // An active workflow with a dynamic path, so the parameter matcher sees the bad segments too.
  const c = await s.api('POST', '/workflows', {
    name: 'dynamic hook',
    nodes: [
      {
        name: 'Hook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        webhookId: 'abc',
        parameters: { path: 'user/:name', responseMode: 'lastNode' },
      },
    ],
    connections: {},
    settings: { executionOrder: 'v1' },
  });
  expect((await s.api('POST', `/workflows/${c.body.id}/activate`)).status).toBe(200);
}, 60_000);
afterAll(() => s?.stop());

const BAD = ['%25', '%', '%E0%A4%A', '%zz', 'a/%', 'user/%E0%A4%A', 'user/%', 'abc/user/%ff%fe'];

describe('badly encoded webhook paths', () => {
  for (const prefix of ['/webhook/', '/webhook-test/']) {
    for (const bad of BAD) {
      test(`${prefix}${bad} answers 404 in the webhook envelope`, async () => {
        for (const method of ['GET', 'POST']) {
          const r = await s.call(method, prefix + bad);
          expect(r.status, `${method} ${prefix}${bad}: ${r.text}`).toBe(404);
          expect(r.body.code).toBe(404);
          expect(typeof r.body.message).toBe('string');
        }
      });
    }
  }

  for (const bad of ['%', '%E0%A4%A', '%zz', '1%']) {
    test(`/webhook-waiting/${bad} answers 404`, async () => {
      const r = await s.call('POST', `/webhook-waiting/${bad}`);
      expect(r.status, r.text).toBe(404);
      expect(r.body.code).toBe(404);
    });
  }

  test('a well-encoded parameter still reaches the workflow', async () => {
    const r = await s.call('GET', '/webhook/user/J%C3%BCrgen');
    expect(r.status).toBe(200);
    expect(r.body.params).toEqual({ name: 'Jürgen' });
  });
});
