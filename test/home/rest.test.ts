// REST: every endpoint of the contract and reference §5, its success shapes and its error paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { ISO_US, startHome, type HomeTest } from './helpers.js';

let h: HomeTest;
// A manual clock from the real time of day: t1 is moved to, not slept to.
const clock = new ManualClock(Date.now());
const t0 = new Date(clock.ms() - 60_000).toISOString();
/** A moment after the demo house was created. */
let t1: string;

beforeAll(async () => {
  h = await startHome({ clock });
  clock.advance(5);
  t1 = clock.now().toISOString();
  clock.advance(5);
});
afterAll(async () => {
  await h?.t.destroy();
});

describe('auth and routing', () => {
  it('401 JSON without or with a wrong token, on every endpoint', async () => {
    for (const [method, path] of [
      ['GET', '/api/'],
      ['GET', '/api/states'],
      ['POST', '/api/services/light/turn_on'],
      ['GET', '/api/history/period'],
      ['GET', '/api/logbook'],
    ]) {
      const res = await fetch(h.url + path, { method });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Unauthorized' });
      const wrong = await fetch(h.url + path, { method, headers: { authorization: 'Bearer hamlet_home_wrong' } });
      expect(wrong.status).toBe(401);
    }
  });

  it('405 for a wrong method on a known path, 404 JSON for an unknown path', async () => {
    expect(await h.api('PATCH', '/api/states/light.kitchen', {})).toMatchObject({
      status: 405,
      body: { message: 'Method not allowed' },
    });
    expect(await h.api('GET', '/api/services/light/turn_on')).toMatchObject({ status: 405 });
    expect(await h.api('DELETE', '/api/events/foo')).toMatchObject({ status: 405 });
    const nf = await h.api('GET', '/api/nothing');
    expect(nf.status).toBe(404);
    expect(nf.body.message).toBeTypeOf('string');
  });

  it('OpenAPI at /docs/json describes the routes', async () => {
    const spec = (await (await fetch(`${h.url}/docs/json`)).json()) as {
      paths: Record<string, Record<string, { summary?: string }>>;
    };
    expect(spec.paths['/api/states/{entity_id}'].post.summary).toMatch(/Set what an entity reports/);
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining([
        '/api/services/{domain}/{service}',
        '/api/history/period/{timestamp}',
        '/api/webhook/{webhook_id}',
      ]),
    );
  });

  it('GET /api/ and /api/config', async () => {
    expect(await h.api('GET', '/api/')).toMatchObject({ status: 200, body: { message: 'API running.' } });
    const c = (await h.api('GET', '/api/config')).body;
    expect(c).toMatchObject({
      location_name: 'Home',
      time_zone: 'Europe/Amsterdam',
      state: 'RUNNING',
      version: '2026.1.0',
      unit_system: { temperature: '°C' },
    });
    expect(c.components).toEqual(
      expect.arrayContaining(['api', 'light', 'climate', 'cover', 'media_player', 'notify', 'automation']),
    );
  });
});

describe('states', () => {
  it('lists and reads states; unknown entity is 404', async () => {
    const all = await h.api('GET', '/api/states');
    expect(all.status).toBe(200);
    expect(all.body.map((s: any) => s.entity_id)).toEqual(
      expect.arrayContaining([
        'light.kitchen',
        'light.living_room',
        'climate.hvac',
        'climate.bedroom',
        'media_player.living_room',
        'cover.garage_door',
        'notify.phone',
      ]),
    );
    const one = await h.api('GET', '/api/states/LIGHT.Kitchen');
    expect(one.body.entity_id).toBe('light.kitchen');
    expect(one.body.attributes).toMatchObject({
      friendly_name: 'Kitchen',
      supported_features: 32,
      supported_color_modes: ['brightness'],
    });
    expect(await h.api('GET', '/api/states/light.nope')).toMatchObject({
      status: 404,
      body: { message: 'Entity not found.' },
    });
  });

  it('POST validates and answers with HA messages, changing nothing on error', async () => {
    expect(await h.api('POST', '/api/states/sensor.t', '{bad')).toMatchObject({
      status: 400,
      body: { message: 'Invalid JSON specified.' },
    });
    expect(await h.api('POST', '/api/states/sensor.t', [1])).toMatchObject({
      status: 400,
      body: { message: 'State data should be a JSON object' },
    });
    expect(await h.api('POST', '/api/states/sensor.t', { attributes: {} })).toMatchObject({
      status: 400,
      body: { message: 'No state attribute specified.' },
    });
    expect(await h.api('POST', '/api/states/sensor__bad', { state: '1' })).toMatchObject({
      status: 400,
      body: { message: 'Invalid entity ID specified.' },
    });
    expect(await h.api('POST', '/api/states/sensor.t', { state: 'x'.repeat(256) })).toMatchObject({
      status: 400,
      body: { message: 'Invalid state specified.' },
    });
    expect((await h.api('GET', '/api/states/sensor.t')).status).toBe(404);
  });

  it('POST creates (201), updates (200), keeps timestamps on identical writes, force_update counts as a change', async () => {
    const a = await h.api('POST', '/api/states/sensor.power', {
      state: '10',
      attributes: { unit_of_measurement: 'W' },
    });
    expect(a.status).toBe(201);
    expect(a.body.last_changed).toMatch(ISO_US);
    const b = await h.api('POST', '/api/states/sensor.power', {
      state: '10',
      attributes: { unit_of_measurement: 'W', friendly_name: 'Power' },
    });
    expect(b.status).toBe(200);
    expect(b.body.last_changed).toBe(a.body.last_changed); // attribute-only change
    expect(b.body.last_updated > a.body.last_updated).toBe(true);
    const c = await h.api('POST', '/api/states/sensor.power', {
      state: '10',
      attributes: { unit_of_measurement: 'W', friendly_name: 'Power' },
    });
    expect(c.body.last_updated).toBe(b.body.last_updated);
    expect(c.body.context).toEqual(b.body.context);
    const d = await h.api('POST', '/api/states/sensor.power', {
      state: '10',
      attributes: { unit_of_measurement: 'W', friendly_name: 'Power' },
      force_update: true,
    });
    expect(d.body.last_changed > b.body.last_changed).toBe(true);
    // A write replaces the whole attribute set.
    const e = await h.api('POST', '/api/states/sensor.power', { state: '11' });
    expect(e.body.attributes).toEqual({});
  });

  it('DELETE removes, then 404', async () => {
    await h.api('POST', '/api/states/sensor.gone', { state: 'x' });
    expect(await h.api('DELETE', '/api/states/sensor.gone')).toMatchObject({
      status: 200,
      body: { message: 'Entity removed.' },
    });
    expect(await h.api('DELETE', '/api/states/sensor.gone')).toMatchObject({
      status: 404,
      body: { message: 'Entity not found.' },
    });
  });
});

describe('services', () => {
  it('GET /api/services: a list of {domain, services} with services keyed by name', async () => {
    const res = await h.api('GET', '/api/services');
    const light = res.body.find((d: any) => d.domain === 'light');
    expect(light.services.turn_on.fields.brightness.selector.number).toMatchObject({ min: 0, max: 255 });
    expect(light.services.turn_on.target).toEqual({ entity: [{ domain: ['light'] }] });
    const notify = res.body.find((d: any) => d.domain === 'notify');
    expect(notify.services.mobile_app_phone.fields.message.required).toBe(true);
  });

  it('a call returns the states it changed, [] when nothing changed', async () => {
    const on = await h.api('POST', '/api/services/light/turn_on', { entity_id: 'light.hall', brightness_pct: 50 });
    expect(on.status).toBe(200);
    expect(on.body).toHaveLength(1);
    expect(on.body[0]).toMatchObject({
      entity_id: 'light.hall',
      state: 'on',
      attributes: { brightness: 128, color_mode: 'brightness' },
    });
    expect(
      await h.api('POST', '/api/services/light/turn_on', { entity_id: 'light.hall', brightness_pct: 50 }),
    ).toMatchObject({ status: 200, body: [] });
    const all = await h.api('POST', '/api/services/light/turn_off', { entity_id: 'all' });
    expect(all.body.every((s: any) => s.entity_id.startsWith('light.') && s.state === 'off')).toBe(true);
    // No target: nothing to do (HA).
    expect(await h.api('POST', '/api/services/light/turn_on', {})).toMatchObject({ status: 200, body: [] });
  });

  it('bad bodies and fields are 400 with the field named; nothing changes', async () => {
    expect(await h.api('POST', '/api/services/light/turn_on', '{oops')).toMatchObject({
      status: 400,
      body: { message: 'Data should be valid JSON.' },
    });
    expect(await h.api('POST', '/api/services/light/turn_on', [1, 2])).toMatchObject({
      status: 400,
      body: { message: 'Data should be valid JSON.' },
    });
    expect(
      await h.api('POST', '/api/services/light/turn_on', { entity_id: 'light.kitchen', brightness: 'lots' }),
    ).toMatchObject({ status: 400, body: { message: 'brightness: expected int' } });
    expect(await h.api('POST', '/api/services/light/turn_on', { entity_id: 'light.kitchen', glow: 1 })).toMatchObject({
      status: 400,
      body: { message: 'glow: extra keys not allowed' },
    });
    expect(
      await h.api('POST', '/api/services/light/turn_on', { entity_id: 'light.kitchen', brightness: -1 }),
    ).toMatchObject({ status: 400, body: { message: 'brightness: value must be at least 0' } });
    expect(
      await h.api('POST', '/api/services/cover/set_cover_position', { entity_id: 'cover.garage_door' }),
    ).toMatchObject({ status: 400, body: { message: 'position: required key not provided' } });
    expect(await h.api('POST', '/api/services/light/turn_on', { entity_id: 'cover.garage_door' })).toMatchObject({
      status: 404,
      body: { message: 'Entity cover.garage_door not found.' },
    });
    expect(
      await h.api('POST', '/api/services/media_player/select_source', {
        entity_id: 'media_player.living_room',
        source: 'Vinyl',
      }),
    ).toMatchObject({ status: 400 });
    expect((await h.api('GET', '/api/states/light.kitchen')).body.state).toBe('off');
  });

  it('every target is checked before any changes: one bad target leaves the others as they were', async () => {
    const before = (await h.api('GET', '/api/states/climate.hvac')).body.state;
    const r = await h.api('POST', '/api/services/climate/set_hvac_mode', {
      entity_id: ['climate.hvac', 'climate.bedroom'],
      hvac_mode: before === 'cool' ? 'auto' : 'cool',
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^HVAC mode \w+ is not valid/);
    expect((await h.api('GET', '/api/states/climate.hvac')).body.state).toBe(before);
  });

  it('?return_response: {changed_states, service_response} for a service with a response', async () => {
    const r = await h.api('POST', '/api/services/recorder/purge?return_response', { keep_days: 10 });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ changed_states: [], service_response: { removed: 0 } });
  });

  it('notify.send_message updates the notify entity and records the notification', async () => {
    const r = await h.api('POST', '/api/services/notify/send_message', {
      entity_id: 'notify.phone',
      message: 'Door open',
      title: 'Alert',
    });
    expect(r.body[0]).toMatchObject({ entity_id: 'notify.phone' });
    expect(r.body[0].state).toMatch(ISO_US);
    const lb = await h.api('GET', `/api/logbook/${encodeURIComponent(t0)}?entity=notify.phone`);
    expect(
      lb.body.some(
        (e: any) => e.domain === 'notify' && e.message === 'sent notification "Alert: Door open"' && e.name === 'Phone',
      ),
    ).toBe(true);
  });
});

describe('events', () => {
  it('lists event types with listener counts; fires with HA messages', async () => {
    const list = await h.api('GET', '/api/events');
    expect(list.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ event: 'state_changed', listener_count: expect.any(Number) })]),
    );
    expect(await h.api('POST', '/api/events/my_event', { a: 1 })).toMatchObject({
      status: 200,
      body: { message: 'Event my_event fired.' },
    });
    expect(await h.api('POST', '/api/events/my_event')).toMatchObject({ status: 200 });
    expect(await h.api('POST', '/api/events/my_event', '{x')).toMatchObject({
      status: 400,
      body: { message: 'Event data should be valid JSON.' },
    });
    expect(await h.api('POST', '/api/events/my_event', '[1]')).toMatchObject({
      status: 400,
      body: { message: 'Event data should be a JSON object' },
    });
  });
});

describe('history', () => {
  it('shapes: initial row at start, rows ascending, minimal_response, no_attributes, significant changes', async () => {
    await h.api('POST', '/api/services/climate/set_temperature', { entity_id: 'climate.bedroom', temperature: 19 });
    await h.api('POST', '/api/services/climate/set_temperature', { entity_id: 'climate.bedroom', temperature: 20 });
    const hist = await h.api(
      'GET',
      `/api/history/period/${encodeURIComponent(t1)}?filter_entity_id=climate.bedroom,light.nothing_here`,
    );
    expect(hist.body).toHaveLength(1); // entities without rows are left out
    const rows = hist.body[0];
    // The state in force at start, stamped with the start time.
    expect(rows[0].last_changed).toBe(t1.replace('Z', '000+00:00'));
    expect(rows[0].last_updated).toBe(t1.replace('Z', '000+00:00'));
    // climate keeps attribute-only changes, with full rows
    expect(rows.map((r: any) => r.attributes.temperature)).toEqual([18, 19, 20]);
    for (const r of rows)
      expect(Object.keys(r)).toEqual(['entity_id', 'state', 'attributes', 'last_changed', 'last_updated']);

    await h.api('POST', '/api/states/sensor.h', { state: 'a' });
    await h.api('POST', '/api/states/sensor.h', { state: 'a', attributes: { x: 1 } });
    await h.api('POST', '/api/states/sensor.h', { state: 'b' });
    const sig = (await h.api('GET', `/api/history/period/${encodeURIComponent(t0)}?filter_entity_id=sensor.h`)).body[0];
    expect(sig.map((r: any) => r.state)).toEqual(['a', 'b']);
    const all = (
      await h.api(
        'GET',
        `/api/history/period/${encodeURIComponent(t0)}?filter_entity_id=sensor.h&significant_changes_only=0`,
      )
    ).body[0];
    expect(all.map((r: any) => r.state)).toEqual(['a', 'a', 'b']);
    const min = (
      await h.api(
        'GET',
        `/api/history/period/${encodeURIComponent(t0)}?filter_entity_id=sensor.h&minimal_response&no_attributes`,
      )
    ).body[0];
    expect(min[0]).toMatchObject({ entity_id: 'sensor.h', state: 'a', attributes: {} });
    expect(min[1]).toEqual({ state: 'b', last_changed: expect.stringMatching(ISO_US) });
    const skip = (
      await h.api(
        'GET',
        `/api/history/period/${encodeURIComponent(new Date().toISOString())}?filter_entity_id=sensor.h&skip_initial_state`,
      )
    ).body;
    expect(skip).toEqual([]);
  });

  it('errors and edge cases', async () => {
    expect(await h.api('GET', '/api/history/period/not-a-date?filter_entity_id=light.kitchen')).toMatchObject({
      status: 400,
      body: { message: 'Invalid datetime' },
    });
    expect(
      await h.api('GET', `/api/history/period/${encodeURIComponent(t0)}?filter_entity_id=light.kitchen&end_time=nope`),
    ).toMatchObject({ status: 400, body: { message: 'Invalid end_time' } });
    expect(
      await h.api('GET', `/api/history/period/${encodeURIComponent(t0)}?filter_entity_id=Not_valid`),
    ).toMatchObject({ status: 400, body: { message: 'Invalid filter_entity_id' } });
    expect(await h.api('GET', '/api/history/period?')).toMatchObject({
      status: 400,
      body: { message: 'filter_entity_id is missing' },
    });
    expect(await h.api('GET', '/api/history/period/2099-01-01T00:00:00?filter_entity_id=light.kitchen')).toMatchObject({
      status: 200,
      body: [],
    });
    // A space where the URL turned + into one, and a Z, are accepted.
    const spaced = t0.replace('Z', ' 00:00');
    expect((await h.api('GET', `/api/history/period/${spaced}?filter_entity_id=light.kitchen`)).status).toBe(200);
  });
});

describe('logbook', () => {
  it('entries with their cause, field by field', async () => {
    await h.api('POST', '/api/services/switch/toggle', { entity_id: 'switch.coffee_maker' });
    const lb = await h.api('GET', `/api/logbook/${encodeURIComponent(t0)}?entity=switch.coffee_maker`);
    expect(lb.status).toBe(200);
    const e = lb.body.at(-1);
    expect(e).toEqual({
      when: expect.stringMatching(ISO_US),
      state: 'on',
      entity_id: 'switch.coffee_maker',
      name: 'Coffee Maker',
      context_user_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      context_event_type: 'call_service',
      context_domain: 'switch',
      context_service: 'toggle',
    });
    // continuous sensors (with a unit) are left out: only the write without a unit shows
    const sensors = await h.api('GET', `/api/logbook/${encodeURIComponent(t0)}?entity=sensor.power`);
    expect(sensors.body.map((e: any) => e.state)).toEqual(['11']);
  });

  it('logbook.log adds a custom entry, found by its entity and by its context', async () => {
    expect(
      await h.api('POST', '/api/services/logbook/log', {
        name: 'Agent',
        message: 'checked the doors',
        entity_id: 'cover.garage_door',
      }),
    ).toMatchObject({ status: 200, body: [] });
    expect(await h.api('POST', '/api/services/logbook/log', { name: 'Agent' })).toMatchObject({
      status: 400,
      body: { message: 'message: required key not provided' },
    });
    const lb = (await h.api('GET', `/api/logbook/${encodeURIComponent(t0)}?entity=cover.garage_door`)).body;
    const e = lb.find((x: any) => x.message === 'checked the doors');
    expect(e).toMatchObject({
      when: expect.stringMatching(ISO_US),
      name: 'Agent',
      domain: 'cover',
      entity_id: 'cover.garage_door',
      context_event_type: 'call_service',
      context_domain: 'logbook',
      context_service: 'log',
    });
  });

  it('errors', async () => {
    expect(
      await h.api('GET', `/api/logbook/${encodeURIComponent(t0)}?entity=light.kitchen&context_id=01ABC`),
    ).toMatchObject({ status: 400, body: { message: "Can't combine entity with context_id" } });
    expect(await h.api('GET', '/api/logbook/yesterday')).toMatchObject({
      status: 400,
      body: { message: 'Invalid datetime' },
    });
    expect(await h.api('GET', `/api/logbook/${encodeURIComponent(t0)}?end_time=x`)).toMatchObject({
      status: 400,
      body: { message: 'Invalid end_time' },
    });
    expect((await h.api('GET', '/api/logbook')).status).toBe(200);
  });
});

describe('automation config API', () => {
  it('create, read, run, delete; malformed configs are 400', async () => {
    const bad = await h.api('POST', '/api/config/automation/config/x1', {
      alias: 'Broken',
      triggers: [{ trigger: 'nope' }],
      actions: [],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^Message malformed: /);
    expect(
      await h.api('POST', '/api/config/automation/config/x1', {
        alias: 'No actions',
        triggers: [{ trigger: 'event', event_type: 'e' }],
      }),
    ).toMatchObject({ status: 400 });

    const config = {
      alias: 'Event turns porch on',
      triggers: [{ platform: 'event', event_type: 'porch_please' }],
      action: [{ service: 'light.turn_on', target: { entity_id: 'light.porch' } }],
    };
    expect(await h.api('POST', '/api/config/automation/config/x1', config)).toMatchObject({
      status: 200,
      body: { result: 'ok' },
    });
    expect((await h.api('GET', '/api/config/automation/config/x1')).body).toMatchObject({
      id: 'x1',
      alias: 'Event turns porch on',
    });
    const entity = (await h.api('GET', '/api/states/automation.event_turns_porch_on')).body;
    expect(entity).toMatchObject({
      state: 'on',
      attributes: { id: 'x1', mode: 'single', friendly_name: 'Event turns porch on', last_triggered: null },
    });

    await h.api('POST', '/api/events/porch_please', {});
    await expect.poll(async () => (await h.api('GET', '/api/states/light.porch')).body.state).toBe('on');
    await expect
      .poll(
        async () => (await h.api('GET', '/api/states/automation.event_turns_porch_on')).body.attributes.last_triggered,
      )
      .toMatch(ISO_US);
    const lb = (await h.api('GET', `/api/logbook/${encodeURIComponent(t0)}?entity=light.porch`)).body.at(-1);
    expect(lb).toMatchObject({
      state: 'on',
      context_event_type: 'automation_triggered',
      context_domain: 'automation',
      context_entity_id: 'automation.event_turns_porch_on',
    });
    const runs = (await h.api('GET', `/api/logbook/${encodeURIComponent(t0)}?entity=automation.event_turns_porch_on`))
      .body;
    expect(runs.some((e: any) => e.domain === 'automation' && e.message === "triggered by event 'porch_please'")).toBe(
      true,
    );

    expect(await h.api('DELETE', '/api/config/automation/config/x1')).toMatchObject({
      status: 200,
      body: { result: 'ok' },
    });
    expect(await h.api('GET', '/api/config/automation/config/x1')).toMatchObject({
      status: 404,
      body: { message: 'Resource not found' },
    });
    expect((await h.api('GET', '/api/states/automation.event_turns_porch_on')).status).toBe(404);
  });
});

describe('durability', () => {
  it('a restart keeps every state and saved automations', async () => {
    await h.api('POST', '/api/services/light/turn_on', { entity_id: 'light.kitchen', brightness: 77 });
    await h.api('POST', '/api/states/sensor.kept', { state: '42', attributes: { a: [1, 2] } });
    await h.api('POST', '/api/config/automation/config/keep1', {
      alias: 'Kept',
      triggers: [{ trigger: 'event', event_type: 'k' }],
      actions: [{ event: 'kk' }],
    });
    await h.api('POST', '/api/services/automation/turn_off', { entity_id: 'automation.porch_light_on_motion' });
    const before = (await h.api('GET', '/api/states')).body;
    const t2 = await h.t.restart();
    h = { ...h, t: t2, url: t2.url('home'), api: (await import('./helpers.js')).withToken(t2, h.token).api };
    const after = (await h.api('GET', '/api/states')).body;
    const byId = (list: any[]) => Object.fromEntries(list.map((s) => [s.entity_id, s]));
    const b = byId(before);
    const a = byId(after);
    for (const id of Object.keys(b)) {
      expect(a[id], id).toBeDefined();
      expect(a[id].state, id).toBe(b[id].state);
      expect(a[id].attributes, id).toEqual(b[id].attributes);
      expect(a[id].last_changed, id).toBe(b[id].last_changed);
    }
    expect(a['automation.porch_light_on_motion'].state).toBe('off');
    expect((await h.api('GET', '/api/config/automation/config/keep1')).body.alias).toBe('Kept');
  });
});
