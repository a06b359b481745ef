// Generic and helper services on the demo house: homeassistant.*, persistent_notification.*
// (with its WebSocket subscription), scripts, scenes, input_*, counter and timer (on a
// manual clock), through REST and the official WebSocket client.
import WebSocket from 'ws';
(globalThis as unknown as { WebSocket: unknown }).WebSocket = WebSocket;

import { callService, createConnection, createLongLivedTokenAuth, type Connection } from 'home-assistant-js-websocket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { waitFor } from '../helpers/wait.js';
import { startHome, type HomeTest } from './helpers.js';

let h: HomeTest;
let conn: Connection;
const clock = new ManualClock(Date.now());

beforeAll(async () => {
  h = await startHome({ clock });
  conn = await createConnection({ auth: createLongLivedTokenAuth(h.url, h.token) });
});

afterAll(async () => {
  conn?.close();
  await h?.t.destroy();
});

const state = async (id: string) => (await h.api('GET', `/api/states/${id}`)).body;
const call = (domain: string, service: string, body: unknown = {}) =>
  h.api('POST', `/api/services/${domain}/${service}`, body);

describe('homeassistant.*', () => {
  it('turn_on/turn_off/toggle reach every domain of the targets, covers through open/close', async () => {
    const on = await call('homeassistant', 'turn_on', {
      entity_id: [
        'light.kitchen',
        'switch.coffee_maker',
        'cover.garage_door',
        'input_boolean.guest_mode',
        'sensor.outside_temperature',
      ],
    });
    expect(on.status).toBe(200);
    expect(on.body.map((s: any) => s.entity_id)).toEqual(
      expect.arrayContaining(['light.kitchen', 'switch.coffee_maker', 'input_boolean.guest_mode']),
    );
    expect((await state('light.kitchen')).state).toBe('on');
    expect((await state('switch.coffee_maker')).state).toBe('on');
    expect(['opening', 'open']).toContain((await state('cover.garage_door')).state);
    expect((await state('sensor.outside_temperature')).state).toBe('11.5');

    await callService(conn, 'homeassistant', 'turn_off', {}, { area_id: 'kitchen' });
    expect((await state('light.kitchen')).state).toBe('off');
    expect((await state('switch.coffee_maker')).state).toBe('off');
    await call('homeassistant', 'toggle', { entity_id: 'input_boolean.guest_mode' });
    expect((await state('input_boolean.guest_mode')).state).toBe('off');
    expect((await call('homeassistant', 'turn_on', { entity_id: 'light.nope' })).status).toBe(404);
  });

  it('reload_core_config and reload_all fire what HA fires; the services are listed with a target', async () => {
    const events: string[] = [];
    const unsub = await conn.subscribeEvents((e: any) => events.push(e.event_type));
    expect((await call('homeassistant', 'reload_core_config')).status).toBe(200);
    expect((await call('homeassistant', 'reload_all')).status).toBe(200);
    await waitFor(
      () => events.filter((e) => e === 'core_config_updated').length === 2 && events.includes('automation_reloaded'),
    );
    await unsub();
    const services = (await h.api('GET', '/api/services')).body.find((d: any) => d.domain === 'homeassistant').services;
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['turn_on', 'turn_off', 'toggle', 'reload_core_config', 'reload_all', 'update_entity']),
    );
    expect(services.turn_on.target).toEqual({ entity: [{}] });
  });
});

describe('persistent_notification', () => {
  it('create, update, dismiss, seen by persistent_notification/subscribe', async () => {
    const seen: any[] = [];
    const unsub = await conn.subscribeMessage((m: any) => seen.push(m), { type: 'persistent_notification/subscribe' });
    await waitFor(() => seen.length === 1);
    expect(seen[0]).toEqual({ type: 'current', notifications: {} });
    expect(
      (
        await call('persistent_notification', 'create', {
          message: 'Door open',
          title: 'Alert',
          notification_id: 'door',
        })
      ).body,
    ).toEqual([]);
    await callService(conn, 'persistent_notification', 'create', { message: 'Auto id' });
    await waitFor(() => seen.length === 3);
    expect(seen[1]).toEqual({
      type: 'added',
      notifications: {
        door: {
          notification_id: 'door',
          title: 'Alert',
          message: 'Door open',
          created_at: expect.stringMatching(/\+00:00$/),
        },
      },
    });
    const list = await conn.sendMessagePromise<any[]>({ type: 'persistent_notification/get' });
    expect(list.map((n) => n.message).sort()).toEqual(['Auto id', 'Door open']);
    expect(list.find((n) => n.message === 'Auto id').notification_id).toMatch(/^[0-9a-f]{32}$/);
    await call('persistent_notification', 'dismiss', { notification_id: 'door' });
    await waitFor(() => seen.length === 4);
    expect(seen[3]).toMatchObject({ type: 'removed', notifications: { door: { message: 'Door open' } } });
    expect((await call('persistent_notification', 'create', {})).status).toBe(400);
    await unsub();
  });
});

describe('scripts and scenes from the house file', () => {
  it('script.<id> runs the sequence and answers with the states it changed; script.turn_on too', async () => {
    await call('light', 'turn_off', { entity_id: 'light.living_room' });
    const r = await call('script', 'movie_time');
    expect(r.status).toBe(200);
    const ids = r.body.map((s: any) => s.entity_id);
    expect(ids).toEqual(expect.arrayContaining(['script.movie_time', 'light.living_room', 'cover.living_room_blinds']));
    expect((await state('light.living_room')).attributes.brightness).toBe(60);
    const script = await state('script.movie_time');
    expect(script).toMatchObject({
      state: 'off',
      attributes: { mode: 'single', current: 0, friendly_name: 'Movie Time' },
    });
    expect(script.attributes.last_triggered).toMatch(/\+00:00$/);

    await call('light', 'turn_off', { entity_id: 'light.living_room' });
    await callService(conn, 'script', 'turn_on', {}, { entity_id: 'script.movie_time' });
    await waitFor(async () => (await state('light.living_room')).state === 'on');
  });

  it('scene.turn_on sets every entity of the scene; scene.apply sets given states', async () => {
    await call('light', 'turn_on', { entity_id: ['light.kitchen', 'light.living_room'] });
    const r = await call('scene', 'turn_on', { entity_id: 'scene.good_night' });
    expect(r.status).toBe(200);
    expect((await state('light.kitchen')).state).toBe('off');
    expect((await state('light.living_room')).state).toBe('off');
    expect((await state('light.hall')).attributes.brightness).toBe(20);
    expect((await state('scene.good_night')).state).toMatch(/\+00:00$/);

    await callService(conn, 'scene', 'apply', {
      entities: { 'light.kitchen': { state: 'on', brightness: 77 }, 'input_select.house_mode': 'Night' },
    });
    expect((await state('light.kitchen')).attributes.brightness).toBe(77);
    expect((await state('input_select.house_mode')).state).toBe('Night');
    expect((await call('scene', 'apply', { entities: { 'light.nope': 'on' } })).status).toBe(404);
    expect((await call('scene', 'turn_on', { entity_id: 'light.kitchen' })).status).toBe(404);
  });
});

describe('helpers', () => {
  it('input_boolean, input_number, input_select, input_text', async () => {
    await call('input_boolean', 'turn_on', { entity_id: 'input_boolean.guest_mode' });
    expect(await state('input_boolean.guest_mode')).toMatchObject({
      state: 'on',
      attributes: { editable: false, friendly_name: 'Guest Mode', icon: 'mdi:account-multiple' },
    });

    expect(await state('input_number.alarm_volume')).toMatchObject({
      state: '40.0',
      attributes: { min: 0, max: 100, step: 5, mode: 'slider', unit_of_measurement: '%' },
    });
    await call('input_number', 'set_value', { entity_id: 'input_number.alarm_volume', value: 55 });
    await call('input_number', 'increment', { entity_id: 'input_number.alarm_volume' });
    expect((await state('input_number.alarm_volume')).state).toBe('60.0');
    const out = await call('input_number', 'set_value', { entity_id: 'input_number.alarm_volume', value: 150 });
    expect(out).toMatchObject({
      status: 400,
      body: { message: 'Invalid value for input_number.alarm_volume: 150.0 (range 0.0 - 100.0)' },
    });

    await call('input_select', 'select_option', { entity_id: 'input_select.house_mode', option: 'Away' });
    expect((await state('input_select.house_mode')).state).toBe('Away');
    await call('input_select', 'select_next', { entity_id: 'input_select.house_mode' });
    await call('input_select', 'select_next', { entity_id: 'input_select.house_mode' });
    expect((await state('input_select.house_mode')).state).toBe('Home');
    expect(
      (await call('input_select', 'select_option', { entity_id: 'input_select.house_mode', option: 'Party' })).status,
    ).toBe(400);

    await callService(conn, 'input_text', 'set_value', { value: 'Hello' }, { entity_id: 'input_text.welcome_message' });
    expect((await state('input_text.welcome_message')).state).toBe('Hello');
    expect(
      (await call('input_text', 'set_value', { entity_id: 'input_text.welcome_message', value: 'x'.repeat(101) }))
        .status,
    ).toBe(400);
  });

  it('counter steps within its bounds', async () => {
    const id = { entity_id: 'counter.coffees_today' };
    await call('counter', 'increment', id);
    await call('counter', 'increment', id);
    expect((await state('counter.coffees_today')).state).toBe('2');
    await call('counter', 'decrement', id);
    await call('counter', 'decrement', id);
    await call('counter', 'decrement', id);
    expect((await state('counter.coffees_today')).state).toBe('0');
    await call('counter', 'set_value', { ...id, value: 7 });
    expect((await state('counter.coffees_today')).state).toBe('7');
    expect((await call('counter', 'set_value', { ...id, value: -1 })).status).toBe(400);
    await call('counter', 'reset', id);
    expect(await state('counter.coffees_today')).toMatchObject({
      state: '0',
      attributes: { initial: 0, step: 1, minimum: 0 },
    });
  });

  it('timer runs on the clock: start, pause, resume, finish event', async () => {
    const events: any[] = [];
    const unsub = await conn.subscribeEvents((e: any) => events.push(e), 'timer.finished');
    await call('timer', 'start', { entity_id: 'timer.laundry', duration: '00:00:30' });
    let t = await state('timer.laundry');
    expect(t).toMatchObject({ state: 'active', attributes: { duration: '0:00:30', remaining: '0:00:30' } });
    expect(t.attributes.finishes_at).toMatch(/\+00:00$/);
    clock.advance(10_000);
    await call('timer', 'pause', { entity_id: 'timer.laundry' });
    t = await state('timer.laundry');
    expect(t).toMatchObject({ state: 'paused', attributes: { remaining: '0:00:20' } });
    expect(t.attributes.finishes_at).toBeUndefined();
    clock.advance(60_000);
    expect((await state('timer.laundry')).state).toBe('paused');
    await call('timer', 'start', { entity_id: 'timer.laundry' });
    clock.advance(19_000);
    expect((await state('timer.laundry')).state).toBe('active');
    clock.advance(1_000);
    await waitFor(async () => (await state('timer.laundry')).state === 'idle');
    await waitFor(() => events.length === 1);
    expect(events[0].data).toMatchObject({ entity_id: 'timer.laundry' });
    await call('timer', 'start', { entity_id: 'timer.laundry' });
    await call('timer', 'cancel', { entity_id: 'timer.laundry' });
    expect((await state('timer.laundry')).state).toBe('idle');
    expect((await call('timer', 'start', { entity_id: 'timer.laundry', duration: 'soon' })).status).toBe(400);
    await unsub();
  });
});

describe('after a restart', () => {
  it('a running timer without restore is idle again (as HA), a running script is off', async () => {
    await call('timer', 'start', { entity_id: 'timer.laundry', duration: 600 });
    expect((await state('timer.laundry')).state).toBe('active');
    await call('input_select', 'select_option', { entity_id: 'input_select.house_mode', option: 'Away' });
    conn.close();
    const t2 = await h.t.restart();
    h = { ...h, t: t2, url: t2.url('home'), api: (await import('./helpers.js')).withToken(t2, h.token).api };
    conn = await createConnection({ auth: createLongLivedTokenAuth(h.url, h.token) });
    const t = await state('timer.laundry');
    expect(t.state).toBe('idle');
    expect(t.attributes.finishes_at).toBeUndefined();
    expect((await state('script.movie_time')).state).toBe('off');
    // The helpers keep their values across the restart.
    expect((await state('input_select.house_mode')).state).toBe('Away');
  });
});
