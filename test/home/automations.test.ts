// Automations under the injectable clock: webhook, state (with for), numeric_state, event,
// time and time_pattern triggers; state/numeric_state/time conditions; service, delay,
// wait_for_trigger, choose and event actions; old and new key spellings.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { waitFor } from '../helpers/wait.js';
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
/**
 * An automation's last_triggered. Triggers fire synchronously (on the clock's advance, or inside
 * the request that changed a state or fired an event) and a run stamps last_triggered as it
 * starts, so an unchanged value right after is proof that no run started: no sleep needed.
 */
const lastTriggered = async (automation: string) => (await state(automation)).attributes.last_triggered;
const stateIs = (id: string, expected: string) =>
  waitFor(async () => (await state(id)).state === expected, { message: `${id} to be ${expected}` });

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
    const ids = (await h.api('GET', '/api/states')).body
      .map((s: any) => s.entity_id)
      .filter((x: string) => x.startsWith('automation.'));
    expect(ids.sort()).toEqual([
      'automation.hall_light_on_webhook',
      'automation.hot',
      'automation.motion_held',
      'automation.porch_at_10_30',
      'automation.pump_every_5_minutes',
      'automation.waiter',
    ]);
  });

  it('a webhook POST turns on a light, visible over the WebSocket', async () => {
    const raw = await rawSocket(h.url);
    await raw.next();
    raw.send({ type: 'auth', access_token: h.token });
    await raw.next((m) => m.type === 'auth_ok');
    raw.send({ id: 1, type: 'subscribe_entities', entity_ids: ['light.hall'] });
    await raw.next((m) => m.type === 'event' && m.event.a);
    const res = await fetch(`${h.url}/api/webhook/hall_hook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"level": 4}',
    });
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
    expect(await lastTriggered('automation.pump_every_5_minutes')).toBeNull();
    expect((await state('switch.pump')).state).toBe('off');
    clock.advance(60_000); // 09:05:00
    await stateIs('switch.pump', 'on');
    clock.advance(5 * 60_000); // 09:10:00
    await stateIs('switch.pump', 'off');
  });

  it('time trigger with a time condition, then a delay on the clock, then an event', async () => {
    const raw = await events(['porch_done']);
    clock.set('2026-01-05T09:29:59.000Z');
    expect(await lastTriggered('automation.porch_at_10_30')).toBeNull();
    expect((await state('light.porch')).state).toBe('off');
    clock.set('2026-01-05T09:30:00.000Z'); // 10:30 in Amsterdam
    await stateIs('light.porch', 'on');
    expect(raw.messages.some((m) => m.event?.event_type === 'porch_done')).toBe(false);
    clock.advance(60_000);
    const e = await raw.next((m) => m.event?.event_type === 'porch_done');
    expect(e.event.data).toEqual({ ok: true });
    raw.ws.close();
  });

  it('the time condition blocks the run on a day not listed', async () => {
    await h.api('POST', '/api/services/light/turn_off', { entity_id: 'light.porch' });
    const before = await lastTriggered('automation.porch_at_10_30');
    clock.set('2026-01-07T09:30:00.000Z'); // Wednesday 10:30
    expect(await lastTriggered('automation.porch_at_10_30')).toBe(before);
    expect((await state('light.porch')).state).toBe('off');
  });

  it('state trigger with for: only when the state holds', async () => {
    const raw = await events(['motion_held']);
    await h.api('POST', '/api/states/binary_sensor.motion', { state: 'on' });
    clock.advance(10_000);
    await h.api('POST', '/api/states/binary_sensor.motion', { state: 'off' });
    clock.advance(30_000);
    expect(await lastTriggered('automation.motion_held')).toBeNull();
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
    // Runs are queued in order: a run for 27 would have sent its `warm` before this `very_hot`.
    await raw.next((m) => m.event?.event_type === 'very_hot');
    expect(raw.messages.filter((m) => m.event?.event_type === 'warm')).toHaveLength(1);
    // With the hall light off, the condition blocks the run.
    await h.api('POST', '/api/services/light/turn_off', { entity_id: 'light.hall' });
    const before = await lastTriggered('automation.hot');
    await h.api('POST', '/api/states/sensor.temp', { state: '20' });
    await h.api('POST', '/api/states/sensor.temp', { state: '35' });
    expect(await lastTriggered('automation.hot')).toBe(before);
    expect(raw.messages.filter((m) => m.event?.event_type === 'very_hot')).toHaveLength(1);
    raw.ws.close();
  });

  it('event trigger with event_data; wait_for_trigger waits for its trigger, or its timeout', async () => {
    const raw = await events(['wait_over']);
    await h.api('POST', '/api/events/start_wait', { go: false });
    expect(await lastTriggered('automation.waiter')).toBeNull();
    await h.api('POST', '/api/events/start_wait', { go: true });
    // The run started and is waiting (its wait_for_trigger is its first step).
    expect((await state('automation.waiter')).attributes.current).toBe(1);
    expect(raw.messages.some((m) => m.event?.event_type === 'wait_over')).toBe(false);
    await h.api('POST', '/api/events/continue', {});
    await raw.next((m) => m.event?.event_type === 'wait_over');
    await h.api('POST', '/api/events/start_wait', { go: true });
    clock.advance(5 * 60_000);
    await raw.next(
      (m) =>
        m.event?.event_type === 'wait_over' &&
        raw.messages.filter((x) => x.event?.event_type === 'wait_over').length === 2,
    );
    raw.ws.close();
  });

  it('automation services: turn_off stops triggers, trigger runs the actions', async () => {
    await h.api('POST', '/api/services/automation/turn_off', { entity_id: 'automation.hall_light_on_webhook' });
    await h.api('POST', '/api/services/light/turn_off', { entity_id: 'light.hall' });
    const before = await lastTriggered('automation.hall_light_on_webhook');
    await fetch(`${h.url}/api/webhook/hall_hook`, { method: 'POST' });
    expect(await lastTriggered('automation.hall_light_on_webhook')).toBe(before);
    expect((await state('light.hall')).state).toBe('off');
    await h.api('POST', '/api/services/automation/trigger', { entity_id: 'automation.hall_light_on_webhook' });
    await stateIs('light.hall', 'on');
    await h.api('POST', '/api/services/automation/turn_on', { entity_id: 'automation.hall_light_on_webhook' });
    expect((await state('automation.hall_light_on_webhook')).state).toBe('on');
  });

  it('WS validate_config and webhook/list', async () => {
    const raw = await rawSocket(h.url);
    await raw.next();
    raw.send({ type: 'auth', access_token: h.token });
    await raw.next((m) => m.type === 'auth_ok');
    raw.send({
      id: 1,
      type: 'validate_config',
      triggers: [{ trigger: 'state', entity_id: 'light.hall' }],
      actions: [{ bogus: 1 }],
    });
    const r = await raw.next((m) => m.id === 1);
    expect(r.result.triggers).toEqual({ valid: true, error: null });
    expect(r.result.actions.valid).toBe(false);
    raw.send({ id: 2, type: 'webhook/list' });
    expect((await raw.next((m) => m.id === 2)).result).toEqual([
      { webhook_id: 'hall_hook', domain: 'automation', name: 'hall_hook', local_only: true, allowed_methods: ['POST'] },
    ]);
    raw.ws.close();
  });
});
