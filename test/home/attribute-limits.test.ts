// One bad state must not break everyone: attributes too deep or too large are refused with a
// 400 before anything is stored or published, so GET /api/states, get_states and
// subscribe_entities keep working for every other client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawSocket, startHome, type HomeTest } from './helpers.js';

const nested = (depth: number): unknown => {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = { child: v };
  return v;
};
/** Built as text: JSON.stringify itself overflows the stack on 20,000 levels. */
const deepAttributesBody = (depth: number) =>
  `{"state":"on","attributes":${'{"child":'.repeat(depth)}"leaf"${'}'.repeat(depth)}}`;

async function socket(h: HomeTest) {
  const s = await rawSocket(h.url);
  await s.next((m) => m.type === 'auth_required');
  s.send({ type: 'auth', access_token: h.token });
  await s.next((m) => m.type === 'auth_ok');
  return s;
}

async function everyoneStillServed(h: HomeTest) {
  const all = await h.api('GET', '/api/states');
  expect(all.status).toBe(200);
  expect(Array.isArray(all.body)).toBe(true);
  const s = await socket(h);
  s.send({ id: 1, type: 'get_states' });
  const states = await s.next((m) => m.id === 1);
  expect(states.success).toBe(true);
  s.send({ id: 2, type: 'subscribe_entities' });
  expect((await s.next((m) => m.id === 2 && m.type === 'result')).success).toBe(true);
  const snapshot = await s.next((m) => m.id === 2 && m.type === 'event');
  expect(Object.keys(snapshot.event.a).length).toBe(all.body.length);
  s.ws.close();
}

describe('home attribute limits', () => {
  let h: HomeTest;
  beforeAll(async () => {
    h = await startHome();
  });
  afterAll(() => h?.t.destroy());

  it('refuses attributes nested 20,000 deep, stores nothing, and every reader keeps working', async () => {
    const r = await h.api('POST', '/api/states/sensor.deep', deepAttributesBody(20_000));
    expect(r.status).toBe(400);
    expect(Object.keys(r.body)).toEqual(['message']);
    expect((await h.api('GET', '/api/states/sensor.deep')).status).toBe(404);
    await everyoneStillServed(h);
  });

  it('refuses attributes deeper than the home limit even when the body passes the edge', async () => {
    const r = await h.api('POST', '/api/states/sensor.deepish', { state: 'on', attributes: { tree: nested(40) } });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/attributes/);
    expect(r.body.message).toMatch(/32/);
    expect((await h.api('GET', '/api/states/sensor.deepish')).status).toBe(404);
  });

  it('refuses attributes larger than the size limit, and an update that would grow past it leaves the old state', async () => {
    expect((await h.api('POST', '/api/states/sensor.big', { state: 'on', attributes: { note: 'small' } })).status).toBe(
      201,
    );
    const r = await h.api('POST', '/api/states/sensor.big', {
      state: 'off',
      attributes: { note: 'x'.repeat(300 * 1024) },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/attributes/);
    const kept = await h.api('GET', '/api/states/sensor.big');
    expect(kept.body).toMatchObject({ state: 'on', attributes: { note: 'small' } });
    await everyoneStillServed(h);
  });

  it('accepts what real integrations send: a forecast list of dicts, 10 KiB of attributes', async () => {
    const forecast = Array.from({ length: 48 }, (_, i) => ({
      datetime: `2026-01-01T${String(i % 24).padStart(2, '0')}:00:00+00:00`,
      temperature: 3 + i / 10,
      condition: 'cloudy',
      detail: { wind: { speed: 3, bearing: 180 } },
    }));
    const r = await h.api('POST', '/api/states/weather.test', {
      state: 'cloudy',
      attributes: { forecast, tree: nested(30), friendly_name: 'Test weather' },
    });
    expect(r.status).toBe(201);
  });

  it('a WebSocket frame nested 20,000 deep gets an error result, and the connection keeps working', async () => {
    const s = await socket(h);
    s.send(
      `{"id":5,"type":"fire_event","event_type":"deep","event_data":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`,
    );
    const err = await s.next((m) => m.id === 5);
    expect(err.success).toBe(false);
    expect(err.error.code).toBe('invalid_format');
    s.send({ id: 6, type: 'get_states' });
    expect((await s.next((m) => m.id === 6)).success).toBe(true);
    s.ws.close();
    await everyoneStillServed(h);
  });
});

describe('home attribute limits are configurable', () => {
  let h: HomeTest;
  beforeAll(async () => {
    h = await startHome({ env: { HOME_MAX_ATTRIBUTE_DEPTH: '3', HOME_MAX_ATTRIBUTES_BYTES: '2048' } });
  });
  afterAll(() => h?.t.destroy());

  it('uses HOME_MAX_ATTRIBUTE_DEPTH and HOME_MAX_ATTRIBUTES_BYTES', async () => {
    expect((await h.api('POST', '/api/states/sensor.a', { state: '1', attributes: { a: { b: 1 } } })).status).toBe(201);
    expect(
      (await h.api('POST', '/api/states/sensor.b', { state: '1', attributes: { a: { b: { c: { d: 1 } } } } })).status,
    ).toBe(400);
    expect(
      (await h.api('POST', '/api/states/sensor.c', { state: '1', attributes: { a: 'x'.repeat(3000) } })).status,
    ).toBe(400);
  });
});
