// Templates in automations: template triggers and conditions (also the shorthand string),
// value_template in numeric_state, templated service data (data and the old data_template),
// target and event_data, the trigger variables they read, and config errors for bad templates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { rawSocket, startHome, type HomeTest } from './helpers.js';

let h: HomeTest;
const state = async (id: string) => (await h.api('GET', `/api/states/${id}`)).body;
const save = (id: string, config: unknown) => h.api('POST', `/api/config/automation/config/${id}`, config);
const setPower = (w: number) =>
  h.api('POST', '/api/states/sensor.power', { state: String(w), attributes: { unit_of_measurement: 'W' } });

beforeAll(async () => {
  h = await startHome();
  await setPower(10);
});
afterAll(async () => {
  await h?.t.destroy();
});

describe('templates in automations', () => {
  it('a template trigger fires when its result turns true; templated data and a template condition', async () => {
    expect(
      await save('power_high', {
        alias: 'Hall shows power',
        triggers: [{ trigger: 'template', value_template: "{{ states('sensor.power') | float > 100 }}" }],
        conditions: [
          { condition: 'template', value_template: '{{ trigger.to_state.state | int < 1000 }}' },
          "{{ is_state('light.kitchen', 'off') }}",
        ],
        actions: [
          {
            action: 'light.turn_on',
            target: { entity_id: "{{ 'light.' ~ 'hall' }}" },
            data: { brightness: '{{ (trigger.to_state.state | int / 4) | int }}' },
          },
        ],
      }),
    ).toMatchObject({ status: 200, body: { result: 'ok' } });
    await h.api('POST', '/api/services/light/turn_off', { entity_id: 'light.hall' });
    await setPower(50);
    await setPower(400);
    await waitFor(async () => (await state('light.hall')).state === 'on');
    expect((await state('light.hall')).attributes.brightness).toBe(100);

    // Still true: no new trigger. False, then true again with the condition failing (1200 ≥ 1000): nothing.
    await h.api('POST', '/api/services/light/turn_off', { entity_id: 'light.hall' });
    const ranBefore = (await state('automation.hall_shows_power')).attributes.last_triggered;
    expect(ranBefore).toBeTruthy();
    await setPower(500);
    await setPower(20);
    await setPower(1200);
    // A run starts in the state change's own turn (the trigger re-renders in a microtask, the
    // conditions are checked at once) and stamps last_triggered as it starts: unchanged after
    // the requests answered means no run started, with no time to wait out.
    expect((await state('automation.hall_shows_power')).attributes.last_triggered).toBe(ranBefore);
    expect((await state('light.hall')).state).toBe('off');
    await h.api('DELETE', '/api/config/automation/config/power_high');
  });

  it('numeric_state with value_template; old data_template; event_data templates with trigger variables', async () => {
    const ws = await rawSocket(h.url);
    ws.send({ type: 'auth', access_token: h.token });
    await ws.next((m) => m.type === 'auth_ok');
    ws.send({ id: 1, type: 'subscribe_events', event_type: 'power_report' });
    await ws.next((m) => m.id === 1);
    expect(
      await save('kw', {
        alias: 'kW over 2',
        trigger: [
          {
            platform: 'numeric_state',
            entity_id: 'sensor.power',
            value_template: '{{ state.state | float / 1000 }}',
            above: 2,
          },
        ],
        action: [
          {
            service: 'light.turn_on',
            entity_id: 'light.porch',
            data_template: { flash: "{{ 'short' if trigger.to_state.state | int > 2500 else 'long' }}" },
          },
          {
            event: 'power_report',
            event_data: {
              kw: '{{ trigger.to_state.state | float / 1000 }}',
              from: '{{ trigger.from_state.state }}',
              entity: '{{ trigger.entity_id }}',
              text: 'no template',
            },
          },
        ],
      }),
    ).toMatchObject({ status: 200 });
    await setPower(1500);
    await setPower(3000);
    const e = await ws.next((m) => m.type === 'event' && m.event.event_type === 'power_report');
    // Rendered values are read back as HA does: a number stays a number.
    expect(e.event.data).toEqual({ kw: 3.0, from: 1500, entity: 'sensor.power', text: 'no template' });
    await waitFor(async () => (await state('light.porch')).state === 'on');
    ws.ws.close();
  });

  it('a template that does not compile is a config error; a render error stops only that run', async () => {
    const bad = await save('bad', {
      alias: 'Bad',
      triggers: [{ trigger: 'template', value_template: '{{ states( }}' }],
      actions: [],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(
      /^Message malformed: invalid template \(TemplateSyntaxError: .*\) for dictionary value @ data\['value_template'\]/,
    );
    const badData = await save('bad2', {
      alias: 'Bad data',
      triggers: [{ trigger: 'event', event_type: 'x' }],
      actions: [{ action: 'light.turn_on', target: { entity_id: 'light.hall' }, data: { brightness: '{% if %}' } }],
    });
    expect(badData.status).toBe(400);

    const v = await h.api('POST', '/api/config/automation/config/boom', {
      alias: 'Boom',
      triggers: [{ trigger: 'event', event_type: 'boom' }],
      actions: [
        { action: 'light.turn_on', target: { entity_id: 'light.hall' }, data: { brightness: "{{ 'x' | int }}" } },
      ],
    });
    expect(v.status).toBe(200);
    await h.api('POST', '/api/events/boom', {});
    await waitFor(async () => /got invalid input 'x'/.test((await h.api('GET', '/api/error_log')).text));
  });
});
