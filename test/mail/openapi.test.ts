// /docs/json lists every route of the mail API with its request and response schemas, also
// with rate limits off (the document once came out empty when no plugin was awaited first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMail, type MailTestEnv } from './helpers.js';

describe('mail OpenAPI document', () => {
  let env: MailTestEnv;
  beforeAll(async () => {
    env = await startMail({ env: { HAMLET_RATE_LIMITS: 'off' } });
  });
  afterAll(async () => env?.t.destroy());

  it('documents every /v0 route with a success and an error response', async () => {
    const doc = (await (await fetch(`${env.api}/docs/json`)).json()) as {
      paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path, method, op })),
    );
    const api = operations.filter((o) => o.method !== 'head');
    // 46 core routes, 89 of the wider AgentMail surface (pods and their nested routes, domains, lists,
    // metrics, api keys, attachments, identity), the older API's …/metrics of the organization, a pod
    // and an inbox (the Python SDK 0.5.0's), Hamlet's outbox (GET /v0/outbox, GET /v0/outbox/{id}),
    // agent sign-up, human and verify, an inbox's label events, and AgentID's eight (providers:
    // list, search, get, accounts, connect; accounts: list, get; an inbox's authorize).
    expect(api.length).toBe(152);
    for (const { path, method, op } of api) {
      expect(path.startsWith('/v0/'), `${method} ${path}`).toBe(true);
      expect(Object.keys(op.responses ?? {}), `${method} ${path}`).toEqual(
        expect.arrayContaining(['200', '400', '401', '429']),
      );
    }
    expect(doc.paths['/v0/inboxes/{inbox_id}/messages']?.get).toMatchObject({
      parameters: expect.arrayContaining([expect.objectContaining({ name: 'labels', in: 'query' })]),
    });
  });
});
