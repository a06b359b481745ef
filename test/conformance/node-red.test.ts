// Node-RED 4.1 with node-red-contrib-home-assistant-websocket 0.80.3 (the most used way to
// automate Home Assistant from a flow editor) against the home service, as its users run it:
// the real Node-RED process, one server config node, and a flow per node type (committed in
// node-red/flows, written for these tests). Each node's output is checked against what Hamlet
// holds. A recording proxy between the two lists every command and REST call Node-RED made, so
// the last test can insist that Hamlet answered every one of them.
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { demoHouseWith, startHome, type HomeTest } from '../home/helpers.js';
import { waitFor } from '../helpers/wait.js';
import { startRecordingProxy, type RecordingProxy } from './helpers/recording-proxy.js';
import { flowFiles, startNodeRed, type NodeRed } from './node-red/node-red.js';

let h: HomeTest;
let proxy: RecordingProxy;
let nr: NodeRed;

const state = async (id: string) => (await h.api('GET', `/api/states/${id}`)).body;
const call = async (domain: string, service: string, data: Record<string, unknown>) => {
  const r = await h.api('POST', `/api/services/${domain}/${service}`, data);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
};

const ALARM = 'sensor.nr_alarm';

beforeAll(async () => {
  h = await startHome({
    env: {
      HOME_CONFIG: demoHouseWith(['{ domain: tag, id: front_door_tag, name: Front door tag, tag_id: "04A1B2C3D4" }']),
    },
  });
  // What the time and zone flows watch exists before they start (else the nodes report an issue).
  await h.api('POST', `/api/states/${ALARM}`, {
    state: 'unknown',
    attributes: { device_class: 'timestamp', friendly_name: 'Alarm' },
  });
  await h.api('POST', '/api/states/zone.nr_office', {
    state: '0',
    attributes: { latitude: 52.3731, longitude: 4.8922, radius: 100, friendly_name: 'Office' },
  });
  await h.api('POST', '/api/states/person.nr_alice', {
    state: 'not_home',
    attributes: { latitude: 52.3, longitude: 4.7, friendly_name: 'Alice' },
  });
  proxy = await startRecordingProxy(h.url);
  nr = await startNodeRed({ homeUrl: proxy.url, token: h.token, flows: flowFiles() });
  // Connected once the nodes have their states, services and the five registries, and the
  // state_changed subscription the event nodes listen on is in place.
  await waitFor(
    () =>
      nr.log().includes('Registries Loaded') &&
      proxy.commands.some(
        (c) => c.type === 'subscribe_events' && c.message.event_type === 'state_changed' && c.success,
      ),
    {
      timeoutMs: 30_000,
      message: () =>
        `Node-RED to connect; commands so far: ${JSON.stringify(proxy.commands.map((c) => [c.type, c.error?.code]))}\n${nr.log().slice(-3000)}`,
    },
  );
});

afterAll(async () => {
  await nr?.stop();
  await proxy?.close();
  await h?.t.destroy();
});

describe('Node-RED Home Assistant nodes against the home', () => {
  test('events: all passes on an event of its type', async () => {
    const r = await h.api('POST', '/api/events/nr_ping', { n: 1 });
    expect(r.status).toBe(200);
    const msg = await nr.next('events-all/event');
    expect(msg.topic).toBe('nr_ping');
    // The nodes hand an event's data on as `event`.
    expect(msg.payload).toMatchObject({ event_type: 'nr_ping', event: { n: 1 }, origin: 'REMOTE' });
    expect(msg.payload.context.id).toMatch(/^[0-9A-Z]{26}$/);
  });

  test('events: state sends a change on the output its "if state" picks', async () => {
    await call('input_boolean', 'turn_on', { entity_id: 'input_boolean.guest_mode' });
    const on = await nr.next('events-state/on');
    expect(on.payload).toBe('on');
    expect(on.topic).toBe('input_boolean.guest_mode');
    expect(on.data.old_state.state).toBe('off');
    expect(on.data.new_state).toMatchObject({
      entity_id: 'input_boolean.guest_mode',
      state: 'on',
      attributes: { friendly_name: 'Guest Mode' },
    });
    await call('input_boolean', 'turn_off', { entity_id: 'input_boolean.guest_mode' });
    expect((await nr.next('events-state/not-on')).payload).toBe('off');
  });

  test('trigger: state checks its constraint and sends on the allowed or blocked output', async () => {
    await call('light', 'turn_on', { entity_id: 'light.hall', brightness: 90 });
    const allowed = await nr.next('trigger-state/allowed');
    expect(allowed).toMatchObject({ topic: 'light.hall', payload: 'on' });
    expect(allowed.data.event.new_state.attributes.brightness).toBe(90);
    await call('light', 'turn_off', { entity_id: 'light.hall' });
    const blocked = await nr.next('trigger-state/blocked');
    expect(blocked.payload).toBe('off');
    expect(blocked.failedComparators[0].actualValue).toBe('off');
  });

  test('action calls a service on an entity and on a label', async () => {
    await nr.inject('action-inject');
    const msg = await nr.next('action/called');
    expect(msg.payload).toEqual({
      domain: 'light',
      service: 'turn_on',
      data: { brightness: 128 },
      target: { entity_id: 'light.kitchen' },
    });
    expect(await state('light.kitchen')).toMatchObject({ state: 'on', attributes: { brightness: 128 } });

    await call('light', 'turn_on', { entity_id: 'light.porch' });
    await nr.inject('action-area-inject');
    expect((await nr.next('action/called-label')).payload).toMatchObject({
      service: 'turn_off',
      target: { label_id: 'security' },
    });
    expect((await state('light.porch')).state).toBe('off');
  });

  test('current state reads a state and halts on its condition', async () => {
    await nr.inject('current-state-inject');
    const warm = await nr.next('current-state/warm');
    expect(warm.payload).toBe('11.5');
    expect(warm.data).toMatchObject({
      entity_id: 'sensor.outside_temperature',
      state: '11.5',
      attributes: { unit_of_measurement: '°C' },
    });
    await h.api('POST', '/api/states/sensor.outside_temperature', {
      state: '4.5',
      attributes: { unit_of_measurement: '°C', friendly_name: 'Outside Temperature', device_class: 'temperature' },
    });
    await waitFor(async () => {
      await nr.inject('current-state-inject');
      return (await nr.next('current-state/cold', 2_000).catch(() => undefined))?.payload === '4.5';
    });
    await h.api('POST', '/api/states/sensor.outside_temperature', {
      state: '11.5',
      attributes: { unit_of_measurement: '°C', friendly_name: 'Outside Temperature', device_class: 'temperature' },
    });
  });

  test('get entities filters by state and by floor, area and label from the registries', async () => {
    await call('light', 'turn_on', { entity_id: 'light.kitchen' });
    await call('light', 'turn_off', { entity_id: ['light.hall', 'light.porch', 'light.living_room'] });
    await waitFor(async () => {
      await nr.inject('get-entities-inject');
      const msg = await nr.next('get-entities/lights-on', 2_000);
      return msg.payload.length === 1 && msg.payload[0].entity_id === 'light.kitchen';
    });
    await nr.inject('get-entities-area-inject');
    const registry = await nr.next('get-entities/registry');
    expect(registry.payload.map((e: any) => e.entity_id)).toEqual(['light.kitchen']);
  });

  test('render template renders with the home template language (REST /api/template)', async () => {
    await nr.inject('render-template-inject');
    const msg = await nr.next('render-template/rendered');
    expect(msg.payload).toBe('11.5 °C in Outside');
    expect(msg.template).toContain("states('sensor.outside_temperature')");
  });

  test('get history reads the last hour of an entity (REST /api/history/period)', async () => {
    await call('light', 'turn_on', { entity_id: 'light.porch' });
    await call('light', 'turn_off', { entity_id: 'light.porch' });
    await nr.inject('get-history-inject');
    const msg = await nr.next('get-history/history');
    const rows = msg.payload as Array<Record<string, any>>;
    expect(rows.every((r) => r.entity_id === 'light.porch')).toBe(true);
    expect(rows.map((r) => r.state).slice(-2)).toEqual(['on', 'off']);
    expect(Object.keys(rows[0]).sort()).toEqual(['attributes', 'entity_id', 'last_changed', 'last_updated', 'state']);
  });

  test('API sends a WebSocket command and REST GET, POST and text requests', async () => {
    await nr.inject('api-ws-inject');
    const ws = await nr.next('api/websocket');
    expect(ws.payload).toMatchObject({ version: '2026.1.0', location_name: 'Home', state: 'RUNNING' });

    await nr.inject('api-get-inject');
    expect((await nr.next('api/http-get')).payload).toMatchObject({
      entity_id: 'switch.coffee_maker',
      state: (await state('switch.coffee_maker')).state,
    });

    await nr.inject('api-post-inject');
    expect((await nr.next('api/http-post')).payload).toMatchObject({
      entity_id: 'sensor.node_red',
      state: '42',
      attributes: { unit_of_measurement: 'W' },
    });
    expect((await state('sensor.node_red')).state).toBe('42');

    await nr.inject('api-text-inject');
    expect((await nr.next('api/http-text')).payload).toBe((await state('switch.coffee_maker')).state);
  });

  test('poll state reports the state on an interval, on the output its "if state" picks', async () => {
    await call('switch', 'turn_off', { entity_id: 'switch.coffee_maker' });
    await waitFor(async () => (await nr.next('poll-state/not-on', 5_000)).payload === 'off');
    await call('switch', 'turn_on', { entity_id: 'switch.coffee_maker' });
    const on = await nr.next('poll-state/on', 10_000);
    expect(on).toMatchObject({
      payload: 'on',
      topic: 'switch.coffee_maker',
      data: { entity_id: 'switch.coffee_maker', state: 'on' },
    });
  });

  test('wait until holds a message until an entity reaches a state', async () => {
    await call('input_select', 'select_option', { entity_id: 'input_select.house_mode', option: 'Home' });
    await nr.inject('wait-until-inject');
    // Its status (seen by a status node in the flow) says when it holds the message.
    expect((await nr.next('wait-until/status')).status.text).toMatch(/waiting/i);
    expect(nr.collected.some((c) => c.tag === 'wait-until/reached')).toBe(false);
    await call('input_select', 'select_option', { entity_id: 'input_select.house_mode', option: 'Away' });
    const msg = await nr.next('wait-until/reached');
    expect(msg.topic).toBe('house');
    expect(msg.data).toMatchObject({ entity_id: 'input_select.house_mode', state: 'Away' });
    expect(nr.collected.some((c) => c.tag === 'wait-until/timed-out')).toBe(false);
  });

  test('fire event fires an event on the home bus', async () => {
    const ws = new WebSocket(h.url.replace(/^http/, 'ws') + '/api/websocket');
    const events: any[] = [];
    let subscribed = false;
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString());
      if (m.type === 'auth_required') ws.send(JSON.stringify({ type: 'auth', access_token: h.token }));
      if (m.type === 'auth_ok') ws.send(JSON.stringify({ id: 1, type: 'subscribe_events', event_type: 'nr_fired' }));
      if (m.type === 'result' && m.id === 1) subscribed = m.success;
      if (m.type === 'event') events.push(m.event);
    });
    try {
      await waitFor(() => subscribed);
      await nr.inject('fire-event-inject');
      // The node passes its message on once Hamlet has answered the fire_event.
      await nr.next('fire-event/fired');
      await waitFor(() => events.length > 0);
      expect(events[0]).toMatchObject({ event_type: 'nr_fired', data: { from: 'node-red', n: 1 }, origin: 'LOCAL' });
    } finally {
      ws.close();
    }
  });

  test('tag passes on a scan of its tag (tag_scanned), with the name from the tag list', async () => {
    await h.api('POST', '/api/events/tag_scanned', { tag_id: '04A1B2C3D4', device_id: 'phone1' });
    const msg = await nr.next('tag/scanned');
    expect(msg.topic).toBe('04A1B2C3D4');
    expect(msg.payload).toMatchObject({
      tag_id: '04A1B2C3D4',
      device_id: 'phone1',
      user_id: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(proxy.commands.some((c) => c.type === 'tag/list' && c.success)).toBe(true);
  });

  test('time fires at the time an entity holds', async () => {
    // Two seconds ahead, whole seconds (its schedule is a cron line with seconds).
    const at = new Date(Math.ceil((Date.now() + 2_000) / 1000) * 1000).toISOString();
    await h.api('POST', `/api/states/${ALARM}`, {
      state: at,
      attributes: { device_class: 'timestamp', friendly_name: 'Alarm' },
    });
    const msg = await nr.next('time/alarm', 15_000);
    expect(msg).toMatchObject({ payload: at, topic: ALARM, data: { entity_id: ALARM, state: at } });
  });

  test('zone passes on a person entering a zone', async () => {
    await h.api('POST', '/api/states/person.nr_alice', {
      state: 'Office',
      attributes: { latitude: 52.3732, longitude: 4.8921, friendly_name: 'Alice' },
    });
    const msg = await nr.next('zone/entered');
    expect(msg).toMatchObject({ topic: 'person.nr_alice', payload: 'Office' });
    expect(msg.zones.map((z: any) => z.entity_id)).toEqual(['zone.nr_office']);
  });

  test('the server node keeps its connection alive with pings that Hamlet answers', async () => {
    await waitFor(() => proxy.commands.some((c) => c.type === 'ping' && c.success), {
      timeoutMs: 20_000,
      message: 'a ping answered with a pong',
    });
    expect(nr.log()).not.toContain('attempting to reconnect');
  });

  test('Hamlet answered every command and request Node-RED sent; the nodes found no issue', () => {
    // The nodes check their configuration against what the server reports (entity ids that
    // do not exist, for one) and log what they find.
    expect(nr.log()).not.toContain('Issue added');
    const refused = proxy.commands.filter((c) => c.success === false);
    expect(refused.map((c) => ({ type: c.type, error: c.error }))).toEqual([]);
    const failedRequests = proxy.requests.filter((r) => r.status >= 400);
    expect(failedRequests).toEqual([]);
    console.log(
      `Node-RED sent ${proxy.commands.length} WebSocket commands (${[...new Set(proxy.commands.map((c) => c.type))].sort().join(', ')}) and ${proxy.requests.length} REST requests (${[
        ...new Set(
          proxy.requests.map(
            (r) =>
              `${r.method} ${r.path
                .split('?')[0]
                .replace(/\/(light|sensor|switch)\.[a-z_]+$/, '/<id>')
                .replace(/period\/.*/, 'period/<start>')}`,
          ),
        ),
      ]
        .sort()
        .join(', ')})`,
    );
  });
});
