// Validation answers name what is allowed: a value limited to a set is answered with the set
// ("must be one of: hot, new, top"), not with Ajv's "must be equal to constant", in every service
// (they all build their apps with createApp). A union that also takes another type keeps the
// plain message, since listing only its constants would mislead.
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp, type App } from '../../src/platform/http.js';
import { createLogger } from '../../src/platform/logger.js';

let app: App;
const OK = { 200: Type.Object({ ok: Type.Boolean() }) };

beforeAll(async () => {
  app = await createApp(
    { logger: createLogger({ level: 'silent', pretty: false }) },
    { service: 'probe', envelope: (e) => ({ error: e.message, code: e.code }) },
  );
  const handler = async () => ({ ok: true });
  app.get(
    '/list',
    {
      schema: {
        querystring: Type.Object({
          sort: Type.Optional(Type.Union([Type.Literal('hot'), Type.Literal('new'), Type.Literal('top')])),
          limit: Type.Optional(Type.Integer({ minimum: 1 })),
        }),
        response: OK,
      },
    },
    handler,
  );
  app.post(
    '/vote',
    {
      schema: {
        body: Type.Object(
          {
            direction: Type.Enum({ up: 'up', down: 'down' }),
            weight: Type.Optional(Type.Union([Type.Literal('auto'), Type.Number()])),
          },
          { additionalProperties: false },
        ),
        response: OK,
      },
    },
    handler,
  );
  await app.ready();
});

afterAll(async () => {
  await app?.close();
});

async function answer(method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await app.inject({ method, url, payload: payload as object });
  return { status: res.statusCode, body: res.json<{ error: string; code: string }>() };
}

it('a union of constants is answered with every allowed value', async () => {
  expect(await answer('GET', '/list?sort=old')).toEqual({
    status: 400,
    body: { error: 'querystring.sort must be one of: hot, new, top', code: 'validation_error' },
  });
});

it('an enum in a body is answered the same way', async () => {
  expect((await answer('POST', '/vote', { direction: 'sideways' })).body.error).toBe(
    'body.direction must be one of: up, down',
  );
});

it('a union of a constant and another type keeps the plain message', async () => {
  const { status, body } = await answer('POST', '/vote', { direction: 'up', weight: 'heavy' });
  expect(status).toBe(400);
  expect(body.error).not.toMatch(/one of/);
  expect(body.error).toMatch(/^body\.weight /);
});

it('missing, unknown and out-of-range fields are named', async () => {
  expect((await answer('POST', '/vote', {})).body.error).toBe('body.direction is required');
  expect((await answer('POST', '/vote', { direction: 'up', extra: 1 })).body.error).toBe('body.extra is not allowed');
  expect((await answer('GET', '/list?limit=0')).body.error).toBe('querystring.limit must be >= 1');
});
