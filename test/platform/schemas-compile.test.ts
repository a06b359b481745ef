// Validators and response serializers compile on a route's first use (start-up was seconds of
// schema compiling per service). This test compiles every schema of every service and of the
// console at start (HAMLET_HTTP_EAGER_SCHEMAS=on), so a schema that cannot compile still fails a
// test, and checks that both modes answer bad input and good output byte for byte alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

const ALL = ['blog', 'mail', 'community', 'home', 'workflow'] as const;
let eager: TestHamlet;
let lazy: TestHamlet;

beforeAll(async () => {
  eager = await startTestHamlet({
    services: [...ALL],
    env: { HAMLET_HTTP_EAGER_SCHEMAS: 'on', HAMLET_CONSOLE: 'on', HAMLET_RATE_LIMITS: 'off' },
  });
  lazy = await startTestHamlet({ services: [...ALL], env: { HAMLET_RATE_LIMITS: 'off' } });
}, 180_000);
afterAll(async () => {
  await eager?.destroy();
  await lazy?.destroy();
});

async function answer(t: TestHamlet, service: (typeof ALL)[number], method: string, path: string, body?: string) {
  const res = await fetch(t.url(service) + path, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body,
  });
  return { status: res.status, body: await res.text() };
}

describe('schemas compiled at start or on first use', () => {
  it('every route of every service compiles at start', () => {
    expect(Object.keys(eager.hamlet.services).sort()).toEqual([...ALL].sort());
    expect(eager.hamlet.console).toBeDefined();
  });

  it('answers bad input alike in both modes', async () => {
    const cases: Array<[(typeof ALL)[number], string, string, string?]> = [
      ['community', 'GET', '/api/v1/posts?sort=sideways'],
      ['community', 'POST', '/api/v1/agents/register', '{"name": 7}'],
      ['blog', 'POST', '/api/register', '{"email": "not-an-address"}'],
      ['blog', 'GET', '/api/posts?limit=0'],
      ['mail', 'POST', '/v0/inboxes', '{"username": ""}'],
    ];
    for (const [service, method, path, body] of cases) {
      const a = await answer(eager, service, method, path, body);
      const b = await answer(lazy, service, method, path, body);
      expect(a.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(a.status).toBeLessThan(500);
      expect(b).toEqual(a);
    }
  });

  it('serializes responses alike in both modes (fields outside the schema are dropped by both)', async () => {
    for (const [service, path] of [
      ['blog', '/api/posts'],
      ['blog', '/api/blogs'],
      ['community', '/api/v1/health'],
    ] as const) {
      const a = await answer(eager, service, 'GET', path);
      const b = await answer(lazy, service, 'GET', path);
      expect(a.status, path).toBe(200);
      expect(b.body.replace(/"(created_at|timestamp|time)":"[^"]*"/g, '')).toEqual(
        a.body.replace(/"(created_at|timestamp|time)":"[^"]*"/g, ''),
      );
    }
  });
});
