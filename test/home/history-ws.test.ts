// History and logbook over the WebSocket with the official home-assistant-js-websocket
// client, in the shapes HA's frontend reads: compressed history rows {s, a, lu, lc?},
// history/stream's past-then-live events, logbook entries with epoch `when`.
import WebSocket from 'ws';
(globalThis as unknown as { WebSocket: unknown }).WebSocket = WebSocket;

import { callService, createConnection, createLongLivedTokenAuth, type Connection } from 'home-assistant-js-websocket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { startHome, type HomeTest } from './helpers.js';

let h: HomeTest;
let conn: Connection;
let t0: string;

beforeAll(async () => {
  h = await startHome();
  conn = await createConnection({ auth: createLongLivedTokenAuth(h.url, h.token) });
  // After the house's initial states were recorded, so the range holds only this test's changes.
  const everything = { start_time: new Date(0).toISOString(), entity_ids: ['light.kitchen'] };
  await waitFor(
    async () =>
      (await send<Record<string, unknown[]>>('history/history_during_period', everything))['light.kitchen']?.length,
    {
      message: "the kitchen light's initial state in the history",
    },
  );
  t0 = new Date().toISOString();
  // The changes below are stamped after t0: the clock has moved past t0's millisecond.
  await waitFor(() => Date.now() > Date.parse(t0), { intervalMs: 1, message: 'the clock to pass t0' });
  await callService(conn, 'light', 'turn_on', { brightness: 10 }, { entity_id: 'light.kitchen' });
  await callService(conn, 'light', 'turn_on', { brightness: 20 }, { entity_id: 'light.kitchen' });
  await callService(conn, 'light', 'turn_off', {}, { entity_id: 'light.kitchen' });
});

afterAll(async () => {
  conn?.close();
  await h?.t.destroy();
});

const send = <T = any>(type: string, extra: Record<string, unknown> = {}) =>
  conn.sendMessagePromise<T>({ type, ...extra });

describe('history over the WebSocket', () => {
  it('history_during_period: compressed rows, significant changes only by default', async () => {
    const r = await send('history/history_during_period', {
      start_time: t0,
      entity_ids: ['light.kitchen', 'light.nope'],
    });
    expect(Object.keys(r)).toEqual(['light.kitchen']);
    const rows = r['light.kitchen'];
    // The state at start, on, off (the brightness-only change is not significant).
    expect(rows.map((x: any) => x.s)).toEqual(['off', 'on', 'off']);
    expect(Object.keys(rows[1]).sort()).toEqual(['a', 'lu', 's']);
    expect(typeof rows[1].lu).toBe('number');
    expect(rows[1].lu).toBeGreaterThan(Date.parse(t0) / 1000);
    expect(rows[1].a.brightness).toBe(10);

    const all = await send('history/history_during_period', {
      start_time: t0,
      entity_ids: ['light.kitchen'],
      significant_changes_only: false,
      include_start_time_state: false,
    });
    const full = all['light.kitchen'];
    expect(full.map((x: any) => x.s)).toEqual(['on', 'on', 'off']);
    // An attribute-only change keeps last_changed: lc is sent beside lu.
    expect(full[1].a.brightness).toBe(20);
    expect(full[1].lc).toBe(full[0].lu);

    const minimal = await send('history/history_during_period', {
      start_time: t0,
      entity_ids: ['light.kitchen'],
      minimal_response: true,
      no_attributes: true,
    });
    expect(minimal['light.kitchen'][0]).not.toHaveProperty('a');
    expect(Object.keys(minimal['light.kitchen'][1]).sort()).toEqual(['lu', 's']);
  });

  it('history_during_period refuses bad input with HA codes', async () => {
    await expect(
      send('history/history_during_period', { start_time: 'yesterday', entity_ids: ['light.kitchen'] }),
    ).rejects.toEqual({ code: 'invalid_start_time', message: 'Invalid start_time' });
    await expect(send('history/history_during_period', { start_time: t0 })).rejects.toMatchObject({
      code: 'invalid_format',
    });
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect(await send('history/history_during_period', { start_time: future, entity_ids: ['light.kitchen'] })).toEqual(
      {},
    );
  });

  it('history/stream sends the past with start_time/end_time, then live rows, until unsubscribed', async () => {
    const events: any[] = [];
    const unsub = await conn.subscribeMessage((e: any) => events.push(e), {
      type: 'history/stream',
      start_time: t0,
      entity_ids: ['light.kitchen'],
      minimal_response: true,
    });
    await waitFor(() => events.length === 1);
    expect(events[0].states['light.kitchen'].map((x: any) => x.s)).toEqual(['off', 'on', 'off']);
    expect(events[0].start_time).toBeCloseTo(Date.parse(t0) / 1000, 3);
    expect(events[0].end_time).toBeGreaterThan(events[0].start_time);

    await callService(conn, 'light', 'turn_on', {}, { entity_id: 'light.kitchen' });
    await callService(conn, 'light', 'turn_on', {}, { entity_id: 'light.hall' });
    await waitFor(() => events.length === 2);
    // minimal_response: after the first row of an entity, live rows are {s, lu} too.
    expect(events[1]).toEqual({ states: { 'light.kitchen': [{ s: 'on', lu: expect.any(Number) }] } });
    expect(events[1].states['light.kitchen'][0].lu).toBeGreaterThan(events[0].end_time - 1);
    await unsub();
    await callService(conn, 'light', 'turn_off', {}, { entity_id: 'light.kitchen' });
    await conn.ping();
    expect(events).toHaveLength(2);
  });
});

describe('logbook over the WebSocket', () => {
  it('logbook/get_events: entries with epoch when and the service call that caused them', async () => {
    const entries = await send<any[]>('logbook/get_events', { start_time: t0, entity_ids: ['light.kitchen'] });
    expect(entries.length).toBeGreaterThanOrEqual(3);
    const on = entries.find((e) => e.state === 'on');
    expect(on).toMatchObject({
      entity_id: 'light.kitchen',
      name: 'Kitchen',
      context_event_type: 'call_service',
      context_domain: 'light',
      context_service: 'turn_on',
    });
    expect(typeof on.when).toBe('number');

    const devices = await send<any[]>('config/device_registry/list');
    const hall = devices.find((d) => d.name === 'Hall');
    const byDevice = await send<any[]>('logbook/get_events', { start_time: t0, device_ids: [hall.id] });
    expect(byDevice.map((e) => e.entity_id)).toEqual(['light.hall']);
    await expect(send('logbook/get_events', { start_time: 'nope' })).rejects.toMatchObject({
      code: 'invalid_start_time',
    });
  });

  it('logbook/event_stream: the past, then live entries (continuous sensors left out)', async () => {
    const events: any[] = [];
    const unsub = await conn.subscribeMessage((e: any) => events.push(e), {
      type: 'logbook/event_stream',
      start_time: t0,
    });
    await waitFor(() => events.length === 1);
    expect(events[0].events.some((e: any) => e.entity_id === 'light.kitchen' && e.state === 'on')).toBe(true);
    expect(typeof events[0].start_time).toBe('number');

    await callService(conn, 'switch', 'turn_on', {}, { entity_id: 'switch.coffee_maker' });
    await h.api('POST', '/api/states/sensor.outside_temperature', {
      state: '3',
      attributes: { unit_of_measurement: '°C' },
    });
    await callService(conn, 'logbook', 'log', {
      name: 'Agent',
      message: 'made coffee',
      entity_id: 'switch.coffee_maker',
    });
    await waitFor(() => events.length === 3);
    expect(events[1].events).toEqual([
      {
        when: expect.any(Number),
        state: 'on',
        entity_id: 'switch.coffee_maker',
        name: 'Coffee Maker',
        context_user_id: expect.any(String),
        context_event_type: 'call_service',
        context_domain: 'switch',
        context_service: 'turn_on',
      },
    ]);
    expect(events[2].events[0]).toMatchObject({
      name: 'Agent',
      message: 'made coffee',
      domain: 'switch',
      entity_id: 'switch.coffee_maker',
    });
    await unsub();
  });
});
