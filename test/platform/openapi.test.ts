// Every service documents its whole API: /docs/json lists every route with its request and
// response schemas, also with rate limits off (the blog's document was once empty then). The
// platform refuses at start any route without a response schema (createApp's onRoute check),
// so a route missing here would have stopped the start; this test reads the documents as a
// client (or a schema-driven fuzzer) would.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SERVICE_NAMES } from '../../src/services/registry.js';
import { createApp } from '../../src/platform/http.js';
import { createLogger } from '../../src/platform/logger.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

let t: TestHamlet;

beforeAll(async () => {
  t = await startTestHamlet({ services: [...SERVICE_NAMES], env: { HAMLET_RATE_LIMITS: 'off' } });
}, 60_000);

afterAll(async () => {
  await t?.destroy();
});

const BODY_METHODS = new Set(['post', 'put', 'patch']);

it.each(SERVICE_NAMES)(
  '%s: /docs/json documents every operation with its responses, and bodies where it takes one',
  async (service) => {
    const doc = (await (await fetch(`${t.url(service)}/docs/json`)).json()) as {
      paths: Record<string, Record<string, any>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ p, method, op })),
    );
    expect(operations.length).toBeGreaterThan(5);
    const undocumented: string[] = [];
    for (const { p, method, op } of operations) {
      const responses = Object.entries<any>(op.responses ?? {});
      const success = responses.filter(([status]) => /^2/.test(status));
      if (!success.length) undocumented.push(`${method.toUpperCase()} ${p}: no success response`);
      for (const [status, r] of responses) {
        // 204 and 304 have no body by definition, nor does an answer documented as empty (Home
        // Assistant's webhooks answer 200 with nothing); every other answer says what its body looks like.
        const empty = status === '204' || status === '304' || /^No body/.test(r.description ?? '');
        if (!empty && !r.content) undocumented.push(`${method.toUpperCase()} ${p}: ${status} without a body schema`);
      }
      if (BODY_METHODS.has(method) && op.requestBody && !op.requestBody.content)
        undocumented.push(`${method.toUpperCase()} ${p}: request body without a schema`);
    }
    expect(undocumented).toEqual([]);
  },
);

it('the platform refuses an API route without a response schema, and lets a hidden page through', async () => {
  const app = await createApp(
    { logger: createLogger({ level: 'silent', pretty: false }) },
    { service: 'probe', envelope: (e) => ({ message: e.message }) },
  );
  expect(() => app.get('/undocumented', async () => ({ ok: true }))).toThrow(
    /probe: route GET \/undocumented declares no response schema/,
  );
  expect(() => app.get('/page', { schema: { hide: true } }, async () => 'html')).not.toThrow();
  expect(() =>
    app.get(
      '/documented',
      { schema: { response: { 200: { type: 'object', properties: { ok: { type: 'boolean' } } } } } },
      async () => ({ ok: true }),
    ),
  ).not.toThrow();
  await app.close();
});
