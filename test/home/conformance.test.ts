// Conformance: the official home-assistant-js-websocket 9.7.0 client (with `ws` as Node 20's
// WebSocket) against a running Hamlet, through the checklist of reference/home.md §12.
import WebSocket from 'ws';
(globalThis as unknown as { WebSocket: unknown }).WebSocket = WebSocket;

import {
  callService,
  createConnection,
  createLongLivedTokenAuth,
  ERR_INVALID_AUTH,
  getConfig,
  getServices,
  getStates,
  subscribeConfig,
  subscribeEntities,
  subscribeServices,
  type Connection,
  type HassEntities,
} from 'home-assistant-js-websocket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { waitFor } from '../helpers/wait.js';
import { ISO_US, rawSocket, startHome, withToken, ULID, type HomeTest } from './helpers.js';

let h: HomeTest;
let conn: Connection;
let entities: HassEntities = {};
let entityUpdates = 0;
// A manual clock from the real time of day: the cover moves when the test moves the clock.
const clock = new ManualClock(Date.now());
const t0 = new Date(clock.ms() - 60_000).toISOString();

const connect = (url: string, token: string) => createConnection({ auth: createLongLivedTokenAuth(url, token) });

/** Waits until the subscribeEntities view satisfies a predicate. */
const until = (pred: () => boolean, timeoutMs = 6000) =>
  waitFor(pred, { timeoutMs, message: `the entities view to satisfy ${pred.toString()}` });

async function rejects(p: Promise<unknown>): Promise<{ code: string | number; message: string }> {
  try {
    await p;
  } catch (e) {
    return e as { code: string; message: string };
  }
  throw new Error('expected a rejection');
}

beforeAll(async () => {
  h = await startHome({ clock });
  conn = await connect(h.url, h.token);
  subscribeEntities(conn, (e) => {
    entities = e;
    entityUpdates++;
  });
  await until(() => Object.keys(entities).length > 0);
});

afterAll(async () => {
  conn?.close();
  await h?.t.destroy();
});

describe('home-assistant-js-websocket 9.7.0 against Hamlet', () => {
  it('1-3: connects, reports an HA version, rejects a bad token, and starts with auth_required', async () => {
    expect(conn.haVersion).toMatch(/^\d{4}\.\d{1,2}\.\d+/);
    expect(await rejects(connect(h.url, 'hamlet_home_nope'))).toBe(ERR_INVALID_AUTH);

    const raw = await rawSocket(h.url);
    const first = await raw.next();
    expect(first).toEqual({ type: 'auth_required', ha_version: conn.haVersion });
    raw.send({ type: 'auth', access_token: 'wrong' });
    expect(await raw.next((m) => m.type === 'auth_invalid')).toEqual({
      type: 'auth_invalid',
      message: 'Invalid access token or password',
    });
    await raw.closed;
  });

  it('a base URL with a trailing slash works too', async () => {
    const c = await connect(h.url + '/', h.token);
    await c.ping();
    c.close();
  });

  it('3: without auth the socket closes after 10 s; a binary or non-JSON frame closes it at once', async () => {
    // Two sockets opened at the same clock time: one proves the server still takes an auth just
    // before the 10 s, the other that it closes at 10 s. The auth timeout runs on the home's clock.
    const late = await rawSocket(h.url);
    await late.next();
    const idle = await rawSocket(h.url);
    await idle.next();
    clock.advance(9_999);
    late.send({ type: 'auth', access_token: h.token });
    await late.next((m) => m.type === 'auth_ok');
    late.ws.close();
    clock.advance(1);
    await idle.closed;

    const binary = await rawSocket(h.url);
    await binary.next();
    binary.send({ type: 'auth', access_token: h.token });
    await binary.next((m) => m.type === 'auth_ok');
    binary.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    await binary.closed;

    const text = await rawSocket(h.url);
    await text.next();
    text.send('{"type": "auth", "access_token"');
    await text.closed;
  });

  it('4: ping', async () => {
    await conn.ping();
  });

  it('5: getStates items have the state keys, µs timestamps and ULID contexts', async () => {
    const states = await getStates(conn);
    expect(states.length).toBeGreaterThan(5);
    for (const s of states) {
      expect(Object.keys(s)).toEqual([
        'entity_id',
        'state',
        'attributes',
        'last_changed',
        'last_reported',
        'last_updated',
        'context',
      ]);
      expect(s.entity_id).toMatch(/^[a-z0-9_]+\.[a-z0-9_]+$/);
      expect(s.last_changed).toMatch(ISO_US);
      expect(s.last_updated).toMatch(ISO_US);
      expect(s.context.id).toMatch(ULID);
    }
  });

  it('6: getConfig', async () => {
    const c = await getConfig(conn);
    expect(c.version).toBe(conn.haVersion);
    expect(c.location_name).toBe('Home');
    expect(c.time_zone).toBe('Europe/Amsterdam');
    expect(c.unit_system.temperature).toBe('°C');
    expect(c.components).toContain('light');
    expect(c.state).toBe('RUNNING');
  });

  it('7: getServices has every contract service with fields', async () => {
    const s = await getServices(conn);
    for (const [d, names] of Object.entries({
      light: ['turn_on', 'turn_off', 'toggle'],
      climate: ['set_temperature', 'set_hvac_mode', 'set_preset_mode'],
      media_player: ['media_play_pause', 'volume_set', 'play_media', 'select_source', 'volume_mute'],
      cover: ['open_cover', 'close_cover', 'set_cover_position', 'stop_cover'],
      notify: ['mobile_app_phone', 'send_message'],
      automation: ['trigger', 'turn_on', 'turn_off', 'toggle', 'reload'],
    })) {
      for (const n of names) expect(s[d]?.[n]?.fields, `${d}.${n}`).toBeTypeOf('object');
    }
    expect(s.notify.mobile_app_phone.fields.message).toMatchObject({ required: true });
  });

  it('8: the first subscribeEntities snapshot equals getStates', async () => {
    const states = await getStates(conn);
    expect(Object.keys(entities).sort()).toEqual(states.map((s) => s.entity_id).sort());
    for (const s of states) {
      expect(entities[s.entity_id].state).toBe(s.state);
      expect(entities[s.entity_id].attributes).toEqual(s.attributes);
      // hajs turns the compressed epoch seconds back into ISO strings with milliseconds.
      expect(new Date(entities[s.entity_id].last_changed).getTime()).toBe(
        Math.floor(new Date(s.last_changed).getTime()),
      );
    }
  });

  it('9-10: callService with a target or with entity_id in the data', async () => {
    const before = entities['light.kitchen'];
    clock.advance(1000); // so that last_changed can move on
    const r = (await callService(conn, 'light', 'turn_on', { brightness: 128 }, { entity_id: 'light.kitchen' })) as {
      context: { id: string; parent_id: null; user_id: string };
    };
    expect(r.context.id).toMatch(ULID);
    expect(r.context.parent_id).toBeNull();
    expect(r.context.user_id).toMatch(/^[0-9a-f]{32}$/);
    await until(() => entities['light.kitchen'].context.id === r.context.id);
    const after = entities['light.kitchen'];
    expect(after.state).toBe('on');
    expect(after.attributes.brightness).toBe(128);
    expect(after.last_changed > before.last_changed).toBe(true);

    await callService(conn, 'light', 'turn_on', { entity_id: 'light.kitchen', brightness: 64 });
    await until(() => entities['light.kitchen'].attributes.brightness === 64);
  });

  it('11: an out-of-range brightness is rejected, not clamped, over WS and REST', async () => {
    const e = await rejects(callService(conn, 'light', 'turn_on', { brightness: 300 }, { entity_id: 'light.kitchen' }));
    expect(e.code).toBe('invalid_format');
    const rest = await h.api('POST', '/api/services/light/turn_on', { entity_id: 'light.kitchen', brightness: 300 });
    expect(rest.status).toBe(400);
    expect(rest.body.message).toMatch(/^brightness: /);
    expect(entities['light.kitchen'].attributes.brightness).toBe(64);
  });

  it('12: colours: rgb_color validation; color_temp mireds <-> kelvin', async () => {
    expect(
      (
        await rejects(
          callService(conn, 'light', 'turn_on', { rgb_color: [300, 0, 0] }, { entity_id: 'light.living_room' }),
        )
      ).code,
    ).toBe('invalid_format');
    expect(
      (
        await rejects(
          callService(conn, 'light', 'turn_on', { rgb_color: [255, 0] }, { entity_id: 'light.living_room' }),
        )
      ).code,
    ).toBe('invalid_format');
    expect(
      (
        await rejects(
          callService(
            conn,
            'light',
            'turn_on',
            { rgb_color: [255, 0, 0], hs_color: [10, 10] },
            { entity_id: 'light.living_room' },
          ),
        )
      ).code,
    ).toBe('invalid_format');
    await callService(conn, 'light', 'turn_on', { color_temp: 250 }, { entity_id: 'light.living_room' });
    await until(() => entities['light.living_room'].attributes.color_temp_kelvin === 4000);
    expect(entities['light.living_room'].attributes.color_temp).toBe(250);
    expect(entities['light.living_room'].attributes.color_mode).toBe('color_temp');
    await callService(conn, 'light', 'turn_on', { color_temp_kelvin: 2700 }, { entity_id: 'light.living_room' });
    await until(() => entities['light.living_room'].attributes.color_temp === 370);
    await callService(conn, 'light', 'turn_on', { hs_color: [240, 100] }, { entity_id: 'light.living_room' });
    await until(() => entities['light.living_room'].attributes.color_mode === 'hs');
    expect(entities['light.living_room'].attributes.rgb_color).toEqual([0, 0, 255]);
    expect(entities['light.living_room'].attributes.color_temp_kelvin).toBeNull();
    expect(
      (
        await rejects(
          callService(conn, 'light', 'turn_on', { color_temp_kelvin: 1000 }, { entity_id: 'light.living_room' }),
        )
      ).code,
    ).toBe('invalid_format');
  });

  it('13: climate', async () => {
    await callService(
      conn,
      'climate',
      'set_temperature',
      { temperature: 21.5, hvac_mode: 'heat' },
      { entity_id: 'climate.hvac' },
    );
    await until(() => entities['climate.hvac'].attributes.temperature === 21.5);
    expect(entities['climate.hvac'].state).toBe('heat');
    expect(
      (
        await rejects(
          callService(conn, 'climate', 'set_temperature', { temperature: 40 }, { entity_id: 'climate.hvac' }),
        )
      ).code,
    ).toBe('service_validation_error');
    expect(
      (await h.api('POST', '/api/services/climate/set_temperature', { entity_id: 'climate.hvac', temperature: 40 }))
        .status,
    ).toBe(400);
    expect(
      (
        await rejects(
          callService(
            conn,
            'climate',
            'set_temperature',
            { temperature: 20, hvac_mode: 'boil' },
            { entity_id: 'climate.hvac' },
          ),
        )
      ).code,
    ).toBe('invalid_format');
    await callService(conn, 'climate', 'set_preset_mode', { preset_mode: 'eco' }, { entity_id: 'climate.hvac' });
    await until(() => entities['climate.hvac'].attributes.preset_mode === 'eco');
    expect(
      (
        await rejects(
          callService(conn, 'climate', 'set_preset_mode', { preset_mode: 'foo' }, { entity_id: 'climate.hvac' }),
        )
      ).code,
    ).toBe('service_validation_error');
    await callService(conn, 'climate', 'set_hvac_mode', { hvac_mode: 'cool' }, { entity_id: 'climate.hvac' });
    await until(() => entities['climate.hvac'].state === 'cool');
  });

  it('14: media player', async () => {
    const mp = { entity_id: 'media_player.living_room' };
    await callService(conn, 'media_player', 'volume_set', { volume_level: 0.4 }, mp);
    await until(() => entities[mp.entity_id].attributes.volume_level === 0.4);
    expect((await rejects(callService(conn, 'media_player', 'volume_set', { volume_level: 1.5 }, mp))).code).toBe(
      'invalid_format',
    );
    expect((await h.api('POST', '/api/services/media_player/volume_set', { ...mp, volume_level: 1.5 })).status).toBe(
      400,
    );
    await callService(conn, 'media_player', 'media_play_pause', undefined, mp);
    await until(() => entities[mp.entity_id].state === 'playing');
    await callService(conn, 'media_player', 'media_play_pause', undefined, mp);
    await until(() => entities[mp.entity_id].state === 'paused');
    await callService(conn, 'media_player', 'play_media', { media_content_type: 'music', media_content_id: 'x' }, mp);
    await until(
      () => entities[mp.entity_id].state === 'playing' && entities[mp.entity_id].attributes.media_content_id === 'x',
    );
    await callService(conn, 'media_player', 'select_source', { source: 'Spotify' }, mp);
    await until(() => entities[mp.entity_id].attributes.source === 'Spotify');
    await callService(conn, 'media_player', 'volume_mute', { is_volume_muted: true }, mp);
    await until(() => entities[mp.entity_id].attributes.is_volume_muted === true);
  });

  it('15: cover moves over time and ends at the target', async () => {
    const c = { entity_id: 'cover.garage_door' };
    expect((await rejects(callService(conn, 'cover', 'set_cover_position', { position: 150 }, c))).code).toBe(
      'invalid_format',
    );
    expect((await h.api('POST', '/api/services/cover/set_cover_position', { ...c, position: 150 })).status).toBe(400);
    const position = () => entities[c.entity_id].attributes.current_position;
    /** One second of clock time: the cover takes its next step (10 % at the demo's speed). */
    const step = async () => {
      const before = position();
      clock.advance(1000);
      await until(() => position() !== before);
    };
    await callService(conn, 'cover', 'set_cover_position', { position: 30 }, c);
    await step();
    expect(entities[c.entity_id].state).toBe('opening');
    expect(position()).toBe(10);
    await step();
    await step();
    expect(position()).toBe(30);
    expect(entities[c.entity_id].state).toBe('open');
    await callService(conn, 'cover', 'close_cover', undefined, c);
    for (const expected of [20, 10, 0]) {
      await step();
      expect(position()).toBe(expected);
    }
    expect(entities[c.entity_id].state).toBe('closed');
  });

  it('16: notify', async () => {
    const r = await callService(conn, 'notify', 'mobile_app_phone', {
      message: 'hi',
      title: 't',
      data: { image: '/media/local/a.jpg' },
    });
    expect(r).toHaveProperty('context');
    const rest = await h.api('POST', '/api/services/notify/mobile_app_phone', { message: 'hi' });
    expect(rest).toMatchObject({ status: 200, body: [] });
    expect((await rejects(callService(conn, 'notify', 'mobile_app_phone', { title: 't' }))).code).toBe(
      'invalid_format',
    );
    expect((await h.api('POST', '/api/services/notify/mobile_app_phone', { title: 't' })).body).toEqual({
      message: 'message: required key not provided',
    });
  });

  it('17: unknown service and unknown entity are not_found / 404 and change nothing', async () => {
    const e = await rejects(callService(conn, 'light', 'explode', undefined, { entity_id: 'light.kitchen' }));
    expect(e).toMatchObject({ code: 'not_found', message: 'Service light.explode not found.' });
    expect(await h.api('POST', '/api/services/light/explode', {})).toMatchObject({
      status: 404,
      body: { message: 'Service light.explode not found.' },
    });
    const before = entities['light.hall'].state;
    const e2 = await rejects(
      callService(conn, 'light', 'turn_on', undefined, { entity_id: ['light.hall', 'light.nope'] }),
    );
    expect(e2).toMatchObject({ code: 'not_found', message: 'Entity light.nope not found.' });
    expect(await h.api('POST', '/api/services/light/turn_on', { entity_id: 'light.nope' })).toMatchObject({
      status: 404,
      body: { message: 'Entity light.nope not found.' },
    });
    expect(entities['light.hall'].state).toBe(before);
  });

  it('18: return_response on a service without responses', async () => {
    expect(
      (await rejects(callService(conn, 'light', 'turn_on', undefined, { entity_id: 'light.kitchen' }, true))).code,
    ).toBe('service_validation_error');
    expect(
      (await h.api('POST', '/api/services/light/turn_on?return_response', { entity_id: 'light.kitchen' })).status,
    ).toBe(400);
  });

  it('19: subscribeEvents(state_changed) delivers full events; nothing after unsubscribe', async () => {
    const got: any[] = [];
    const unsub = await conn.subscribeEvents((e) => got.push(e), 'state_changed');
    await callService(conn, 'light', 'toggle', undefined, { entity_id: 'light.hall' });
    await until(() => got.length > 0);
    const e = got[0];
    expect(e.event_type).toBe('state_changed');
    expect(e.data.entity_id).toBe('light.hall');
    expect(e.data.old_state.entity_id).toBe('light.hall');
    expect(e.data.new_state.state).not.toBe(e.data.old_state.state);
    expect(e.origin).toBe('LOCAL');
    expect(e.time_fired).toBe(e.data.new_state.last_updated);
    expect(e.context.id).toMatch(ULID);
    await unsub();
    const n = got.length;
    // A second subscription on the same connection is the marker: events reach subscriptions
    // in order, so once it has the toggle's event, the unsubscribed one would have had it too.
    const marker: any[] = [];
    const unsubMarker = await conn.subscribeEvents((m) => marker.push(m), 'state_changed');
    await callService(conn, 'light', 'toggle', undefined, { entity_id: 'light.hall' });
    await waitFor(() => marker.some((m) => m.data.entity_id === 'light.hall'), {
      message: 'the toggle event at the marker subscription',
    });
    expect(got.length).toBe(n);
    await unsubMarker();
  });

  it('20: fire_event reaches subscribeEvents with origin LOCAL', async () => {
    const got: any[] = [];
    const unsub = await conn.subscribeEvents((e) => got.push(e));
    const r = await conn.sendMessagePromise<{ context: { id: string } }>({
      type: 'fire_event',
      event_type: 'agent_test',
      event_data: { a: 1 },
    });
    expect(r.context.id).toMatch(ULID);
    await until(() => got.some((e) => e.event_type === 'agent_test'));
    const e = got.find((x) => x.event_type === 'agent_test');
    expect(e).toMatchObject({ data: { a: 1 }, origin: 'LOCAL', context: { id: r.context.id } });
    await unsub();
  });

  it('21: REST state writes appear in subscribeEntities; identical writes fire nothing; DELETE removes; REST events are REMOTE', async () => {
    const events: any[] = [];
    const unsub = await conn.subscribeEvents((e) => events.push(e));
    const created = await h.api('POST', '/api/states/sensor.x', {
      state: '1',
      attributes: { unit_of_measurement: 'W' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/api/states/sensor.x');
    await until(() => entities['sensor.x']?.state === '1');
    const again = await h.api('POST', '/api/states/sensor.x', { state: '1', attributes: { unit_of_measurement: 'W' } });
    expect(again.status).toBe(200);
    expect(again.body.last_updated).toBe(created.body.last_updated);
    expect(again.body.last_reported >= created.body.last_reported).toBe(true);
    await h.api('POST', '/api/events/agent_test', { b: 2 });
    await until(() => events.some((e) => e.event_type === 'agent_test'));
    expect(events.filter((e) => e.event_type === 'state_changed' && e.data.entity_id === 'sensor.x')).toHaveLength(1);
    expect(events.find((e) => e.event_type === 'agent_test')).toMatchObject({ origin: 'REMOTE', data: { b: 2 } });
    expect((await h.api('DELETE', '/api/states/sensor.x')).body).toEqual({ message: 'Entity removed.' });
    await until(() => !('sensor.x' in entities));
    await unsub();
  });

  it('22: a webhook automation turns a switch on, visible over WS; disallowed method 405; unknown id 200', async () => {
    const res = await fetch(`${h.url}/api/webhook/make_coffee`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"cups":2}',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    await until(() => entities['switch.coffee_maker'].state === 'on');
    const get = await fetch(`${h.url}/api/webhook/make_coffee`);
    expect(get.status).toBe(405);
    expect(await get.json()).toEqual({ message: 'Method not allowed' });
    expect((await fetch(`${h.url}/api/webhook/unknown_hook`, { method: 'POST' })).status).toBe(200);
  });

  it('23: subscribe_trigger', async () => {
    await callService(conn, 'light', 'turn_off', undefined, { entity_id: 'light.kitchen' });
    const got: any[] = [];
    const unsub = await conn.subscribeMessage((e) => got.push(e), {
      type: 'subscribe_trigger',
      trigger: { platform: 'state', entity_id: 'light.kitchen', to: 'on' },
    });
    await callService(conn, 'light', 'turn_on', undefined, { entity_id: 'light.kitchen' });
    await until(() => got.length > 0);
    expect(got[0].variables.trigger.to_state.state).toBe('on');
    expect(got[0].variables.trigger).toMatchObject({
      platform: 'state',
      entity_id: 'light.kitchen',
      id: '0',
      idx: '0',
    });
    await unsub();
  });

  it('24: unknown command', async () => {
    expect(await rejects(conn.sendMessagePromise({ type: 'nope' }))).toEqual({
      code: 'unknown_command',
      message: 'Unknown command.',
    });
  });

  it('25: raw socket framing: id reuse, ping without id, a batch of two', async () => {
    const raw = await rawSocket(h.url);
    await raw.next();
    raw.send({ type: 'auth', access_token: h.token });
    await raw.next((m) => m.type === 'auth_ok');
    raw.send({ id: 5, type: 'ping' });
    await raw.next((m) => m.id === 5 && m.type === 'pong');
    raw.send({ id: 5, type: 'ping' });
    expect(await raw.next((m) => m.type === 'result')).toMatchObject({
      id: 5,
      success: false,
      error: { code: 'id_reuse' },
    });
    raw.send({ type: 'ping' });
    expect(await raw.next((m) => m.type === 'result')).toMatchObject({
      success: false,
      error: { code: 'invalid_format' },
    });
    raw.send([
      { id: 6, type: 'ping' },
      { id: 7, type: 'get_config' },
    ]);
    await raw.next((m) => m.id === 6 && m.type === 'pong');
    expect(await raw.next((m) => m.id === 7)).toMatchObject({ type: 'result', success: true });
    raw.send({ id: 8, type: 'subscribe_events', event_type: 100 });
    expect(await raw.next((m) => m.id === 8)).toMatchObject({ success: false, error: { code: 'invalid_format' } });
    raw.send({ id: 9, type: 'unsubscribe_events', subscription: 1234 });
    expect(await raw.next((m) => m.id === 9)).toMatchObject({
      success: false,
      error: { code: 'not_found', message: 'Subscription not found.' },
    });
    raw.ws.close();
  });

  it('26: subscribeConfig and subscribeServices fire with full objects', async () => {
    const configs: any[] = [];
    const services: any[] = [];
    const u1 = subscribeConfig(conn, (c) => configs.push(c));
    const u2 = subscribeServices(conn, (s) => services.push(s));
    await until(() => configs.length > 0 && services.length > 0);
    expect(configs[0].version).toBe(conn.haVersion);
    expect(services[0].light.turn_on.fields).toBeTypeOf('object');
    u1();
    u2();
  });

  it('28: history and logbook after the calls above', async () => {
    const hist = await h.api('GET', `/api/history/period/${encodeURIComponent(t0)}?filter_entity_id=light.kitchen`);
    expect(hist.status).toBe(200);
    expect(hist.body).toHaveLength(1);
    expect(hist.body[0].length).toBeGreaterThanOrEqual(2);
    expect(Object.keys(hist.body[0][0])).toEqual(['entity_id', 'state', 'attributes', 'last_changed', 'last_updated']);
    const minimal = await h.api(
      'GET',
      `/api/history/period/${encodeURIComponent(t0)}?filter_entity_id=light.kitchen&minimal_response`,
    );
    expect(Object.keys(minimal.body[0][1])).toEqual(['state', 'last_changed']);
    expect((await h.api('GET', `/api/history/period/${encodeURIComponent(t0)}`)).body).toEqual({
      message: 'filter_entity_id is missing',
    });
    const lb = await h.api('GET', `/api/logbook/${encodeURIComponent(t0)}?entity=light.kitchen`);
    expect(
      lb.body.some(
        (e: any) => e.context_domain === 'light' && e.context_service === 'turn_on' && e.entity_id === 'light.kitchen',
      ),
    ).toBe(true);
  });

  it('27: after a restart on the same port the client reconnects and gets a fresh snapshot', async () => {
    const port = new URL(h.url).port;
    await callService(conn, 'light', 'turn_on', { brightness: 99 }, { entity_id: 'light.kitchen' });
    await until(() => entities['light.kitchen'].attributes.brightness === 99);
    const updatesBefore = entityUpdates;
    const reconnected = new Promise<void>((r) => conn.addEventListener('ready', () => r()));
    const t2 = await h.t.restart({ HOME_PORT: port });
    h = withToken(t2, h.token);
    // A change made after the restart, by someone else, shows in the client's fresh view.
    await h.api('POST', '/api/states/sensor.after_restart', { state: 'yes' });
    await reconnected;
    await until(() => entities['sensor.after_restart']?.state === 'yes', 10_000);
    expect(entityUpdates).toBeGreaterThan(updatesBefore);
    expect(entities['light.kitchen'].attributes.brightness).toBe(99);
  }, 20_000);
});
