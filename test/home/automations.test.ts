// Automations under the injectable clock: webhook, state (with for), numeric_state, event,
// time and time_pattern triggers; state/numeric_state/time conditions; service, delay,
// wait_for_trigger, choose and event actions; old and new key spellings.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { rawSocket, startHome, type HomeTest } from './helpers.js';

// 2026-01-05 is a Monday; 09:00 UTC is 10:00 in Amsterdam.
const clock = new ManualClock('2026-01-05T09:00:00.000Z');
let h: HomeTest;

const house = `
homeassistant: { time_zone: Europe/Amsterdam }
devices:
  - { domain: light, id: hall, name: Hall }
  - { domain: light, id: porch, name: Porch, supported_color_modes: [onoff] }
  - { domain: switch, id: pump, name: Pump }
  - { domain: sensor, id: temp, name: Temp, state: "20" }
  - { domain: binary_sensor, id: motion, name: Motion }
automation:
  # new spelling
  - id: hook
    alias: Hall light on webhook
    triggers: [{ trigger: webhook, webhook_id: hall_hook, allowed_methods: [POST], local_only: true }]
    actions: [{ action: light.turn_on, target: { entity_id: light.hall }, data: { brightness: 200 } }]
  # old spelling
  - id: pattern
    alias: Pump every 5 minutes
    trigger: [{ platform: time_pattern, minutes: "/5" }]
    action: [{ service: switch.toggle, entity_id: switch.pump }]
  - id: morning
    alias: Porch at 10:30
    triggers: { trigger: time, at: "10:30:00" }
    conditions: [{ condition: time, after: "06:00", before: "12:00", weekday: [mon, tue] }]
    actions:
      - action: light.turn_on
        target: { entity_id: light.porch }
      - delay: { minutes: 1 }
      - event: porch_done
        event_data: { ok: true }
  - id: motion_for
    alias: Motion held
    triggers: [{ trigger: state, entity_id: binary_sensor.motion, to: "on", for: "00:00:30" }]
    actions: [{ event: motion_held }]
  - id: hot
    alias: Hot
    mode: queued
    triggers: [{ trigger: numeric_state, entity_id: sensor.temp, above: 25 }]
    conditions: [{ condition: state, entity_id: light.hall, state: "on" }]
    actions:
      - choose:
          - conditions: [{ condition: numeric_state, entity_id: sensor.temp, above: 30 }]
            sequence: [{ event: very_hot }]
        default: [{ event: warm }]
  - id: waiter
    alias: Waiter
    triggers: [{ trigger: event, event_type: start_wait, event_data: { go: true } }]
    actions:
      - wait_for_trigger: [{ trigger: event, event_type: continue }]
        timeout: { minutes: 5 }
      - event: wait_over
        event_data: { done: true }
`;

async function events(types: string[]) {
  const raw = await rawSocket(h.url);
  await raw.next();
  raw.send({ type: 'auth', access_token: h.token });
  await raw.next((m) => m.type === 'auth_ok');
  let id = 1;
  for (const t of types) raw.send({ id: id++, type: 'subscribe_events', event_type: t });
  await raw.next((m) => m.id === id - 1 && m.type === 'result');
  return raw;
}

const state = async (id: string) => (await h.api('GET', `/api/states/${id}`)).body;
const settle = () => new Promise((r) => setTimeout(r, 30));

beforeAll(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'home-auto-'));
  const file = path.join(dir, 'house.yaml');
  writeFileSync(file, house);
  h = await startHome({ clock, env: { HOME_CONFIG: file } });
});
afterAll(async () => {
  await h?.t.destroy();
});

describe('automations', () => {
  it('every automation is an entity', async () => {
    const ids = (await h.api('GET', '/api/states')).body.map((s: any) => s.entity_id).filter((x: string) => x.startsWith('automation.'));
    expect(ids.sort()).toEqual(['automation.hall_light_on_webhook', 'automation.hot', 'automation.motion_held', 'automation.porch_at_10_30', 'automation.pump_every_5_minutes', 'automation.waiter']);
  });

  it('a webhook POST turns on a light, visible over the WebSocket', async () => {
    const raw = await rawSocket(h.url);
    await raw.next();
    raw.send({ type: 'auth', access_token: h.token });
    await raw.next((m) => m.type === 'auth_ok');
    raw.send({ id: 1, type: 'subscribe_entities', entity_ids: ['light.hall'] });
    await raw.next((m) => m.type === 'event' && m.event.a);
    const res = await fetch(`${h.url}/api/webhook/hall_hook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"level": 4}' });
    expect(res.status).toBe(200);
    const change = await raw.next((m) => m.type === 'event' && m.event.c?.['light.hall']);
    expect(change.event.c['light.hall']['+']).toMatchObject({ s: 'on', a: { brightness: 200 } });
    // The change's context is the automation run's, whose parent is unset for a webhook.
    expect((await state('automation.hall_light_on_webhook')).attributes.last_triggered).toMatch(/^2026-01-05T09:00:00/);
    expect((await fetch(`${h.url}/api/webhook/hall_hook`, { method: 'PUT' })).status).toBe(405);
    raw.ws.close();
  });

  it('time_pattern fires under the manual clock', async () => {
    expect((await state('switch.pump')).state).toBe('off');
    clock.advance(4 * 60_000);
    await settle();
    expect((await state('switch.pump')).state).toBe('off');
    clock.advance(60_000); // 09:05:00
    await settle();
    expect((await state('switch.pump')).state).toBe('on');
    clock.advance(5 * 60_000); // 09:10:00
    await settle();
    expect((await state('switch.pump')).state).toBe('off');
  });

  it('time trigger with a time condition, then a delay on the clock, then an event', async () => {
    const raw = await events(['porch_done']);
    clock.set('2026-01-05T09:29:59.000Z');
    await settle();
    expect((await state('light.porch')).state).toBe('off');
    clock.set('2026-01-05T09:30:00.000Z'); // 10:30 in Amsterdam
    await settle();
    expect((await state('light.porch')).state).toBe('on');
    expect(raw.messages.some((m) => m.event?.event_type === 'porch_done')).toBe(false);
    clock.advance(60_000);
    const e = await raw.next((m) => m.event?.event_type === 'porch_done');
    expect(e.event.data).toEqual({ ok: true });
    raw.ws.close();
  });

  it('the time condition blocks the run on a day not listed', async () => {
    await h.api('POST', '/api/services/light/turn_off', { entity_id: 'light.porch' });
    clock.set('2026-01-07T09:30:00.000Z'); // Wednesday 10:30
    await settle();
    expect((await state('light.porch')).state).toBe('off');
  });

  it('state trigger with for: only when the state holds', async () => {
    const raw = await events(['motion_held']);
    await h.api('POST', '/api/states/binary_sensor.motion', { state: 'on' });
    clock.advance(10_000);
    await h.api('POST', '/api/states/binary_sensor.motion', { state: 'off' });
    clock.advance(30_000);
    await settle();
    expect(raw.messages.some((m) => m.event?.event_type === 'motion_held')).toBe(false);
    await h.api('POST', '/api/states/binary_sensor.motion', { state: 'on' });
    clock.advance(30_000);
    const e = await raw.next((m) => m.event?.event_type === 'motion_held');
    expect(e.event.context.parent_id).toMatch(/^[0-9A-Z]{26}$/);
    raw.ws.close();
  });

  it('numeric_state fires on entering the range; conditions and choose pick the branch', async () => {
    const raw = await events(['warm', 'very_hot']);
    await h.api('POST', '/api/services/light/turn_on', { entity_id: 'light.hall' });
    await h.api('POST', '/api/states/sensor.temp', { state: '26' });
    await raw.next((m) => m.event?.event_type === 'warm');
    await h.api('POST', '/api/states/sensor.temp', { state: '27' }); // still in range: no new run
    await h.api('POST', '/api/states/sensor.temp', { state: '20' });
    await h.api('POST', '/api/states/sensor.temp', { state: '31' });
    await raw.next((m) => m.event?.event_type === 'very_hot');
    await settle();
    expect(raw.messages.filter((m) => m.event?.event_type === 'warm')).toHaveLength(1);
    // With the hall light off, the condition blocks the run.
    await h.api('POST', '/api/services/light/turn_off', { entity_id: 'light.hall' });
    await h.api('POST', '/api/states/sensor.temp', { state: '20' });
    await h.api('POST', '/api/states/sensor.temp', { state: '35' });
    await settle();
    expect(raw.messages.filter((m) => m.event?.event_type === 'very_hot')).toHaveLength(1);
    raw.ws.close();
  });

  it('event trigger with event_data; wait_for_trigger waits for its trigger, or its timeout', async () => {
    const raw = await events(['wait_over']);
    await h.api('POST', '/api/events/start_wait', { go: false });
    await h.api('POST', '/api/events/start_wait', { go: true });
    await settle();
    expect(raw.messages.some((m) => m.event?.event_type === 'wait_over')).toBe(false);
    await h.api('POST', '/api/events/continue', {});
    await raw.next((m) => m.event?.event_type === 'wait_over');
    await h.api('POST', '/api/events/start_wait', { go: true });
    clock.advance(5 * 60_000);
    await raw.next((m) => m.event?.event_type === 'wait_over' && raw.messages.filter((x) => x.event?.event_type === 'wait_over').length === 2);
    raw.ws.close();
  });

  it('automation services: turn_off stops triggers, trigger runs the actions', async () => {
    await h.api('POST', '/api/services/automation/turn_off', { entity_id: 'automation.hall_light_on_webhook' });
    await h.api('POST', '/api/services/light/turn_off', { entity_id: 'light.hall' });
    await fetch(`${h.url}/api/webhook/hall_hook`, { method: 'POST' });
    await settle();
    expect((await state('light.hall')).state).toBe('off');
    await h.api('POST', '/api/services/automation/trigger', { entity_id: 'automation.hall_light_on_webhook' });
    await settle();
    expect((await state('light.hall')).state).toBe('on');
    await h.api('POST', '/api/services/automation/turn_on', { entity_id: 'automation.hall_light_on_webhook' });
    expect((await state('automation.hall_light_on_webhook')).state).toBe('on');
  });

  it('WS validate_config and webhook/list', async () => {
    const raw = await rawSocket(h.url);
    await raw.next();
    raw.send({ type: 'auth', access_token: h.token });
    await raw.next((m) => m.type === 'auth_ok');
    raw.send({ id: 1, type: 'validate_config', triggers: [{ trigger: 'state', entity_id: 'light.hall' }], actions: [{ bogus: 1 }] });
    const r = await raw.next((m) => m.id === 1);
    expect(r.result.triggers).toEqual({ valid: true, error: null });
    expect(r.result.actions.valid).toBe(false);
    raw.send({ id: 2, type: 'webhook/list' });
    expect((await raw.next((m) => m.id === 2)).result).toEqual([{ webhook_id: 'hall_hook', domain: 'automation', name: 'hall_hook', local_only: true, allowed_methods: ['POST'] }]);
    raw.ws.close();
  });
});
