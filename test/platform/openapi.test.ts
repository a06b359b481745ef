// Every service documents its whole API: /docs/json lists every route with its request and
// response schemas, also with rate limits off (the blog's document was once empty then). The
// platform refuses at start any route without a response schema (createApp's onRoute check),
// so a route missing here would have stopped the start; this test reads the documents as a
// client (or a schema-driven fuzzer) would.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SERVICE_NAMES } from '../../src/config.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

let t: TestHamlet;

beforeAll(async () => {
  t = await startTestHamlet({ services: [...SERVICE_NAMES], env: { HAMLET_RATE_LIMITS: 'off' } });
}, 60_000);

afterAll(async () => {
  await t?.destroy();
});

const BODY_METHODS = new Set(['post', 'put', 'patch']);

it.each(SERVICE_NAMES)('%s: /docs/json documents every operation with its responses, and bodies where it takes one', async (service) => {
  const doc = (await (await fetch(`${t.url(service)}/docs/json`)).json()) as { paths: Record<string, Record<string, any>> };
  const operations = Object.entries(doc.paths).flatMap(([p, ops]) => Object.entries(ops).map(([method, op]) => ({ p, method, op })));
  expect(operations.length).toBeGreaterThan(5);
  const undocumented: string[] = [];
  for (const { p, method, op } of operations) {
    const responses = Object.entries(op.responses ?? {}) as Array<[string, any]>;
    const success = responses.filter(([status]) => /^2/.test(status));
    if (!success.length) undocumented.push(`${method.toUpperCase()} ${p}: no success response`);
    for (const [status, r] of responses) {
      // 204 has no body; every other answer says what its body looks like.
      if (status !== '204' && !r.content) undocumented.push(`${method.toUpperCase()} ${p}: ${status} without a body schema`);
    }
    if (BODY_METHODS.has(method) && op.requestBody && !op.requestBody.content) undocumented.push(`${method.toUpperCase()} ${p}: request body without a schema`);
  }
  expect(undocumented).toEqual([]);
});
