// Bodies as Home Assistant reads them: JSON whatever the Content-Type (curl -d sends
// application/x-www-form-urlencoded), on every REST route that takes a body; a body that is not
// JSON gets each route's HA message. Also the system routes: components, error_log, core state,
// check_config.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawSocket, startHome, type HomeTest } from './helpers.js';

let h: HomeTest;
const CURL_FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A request as `curl -X POST … -d '<body>'` sends it: the text as is, typed as a form. */
async function curlD(path: string, body: string, headers: Record<string, string> = CURL_FORM) {
  const res = await fetch(h.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.token}`, ...headers },
    body,
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, body: json, type: res.headers.get('content-type') };
}

beforeAll(async () => {
  h = await startHome();
});
afterAll(async () => {
  await h?.t.destroy();
});

describe('curl -d bodies (form content type) are read as JSON', () => {
  it('POST /api/services/<domain>/<service>', async () => {
    const r = await curlD('/api/services/light/turn_on', '{"entity_id":"light.living_room","brightness":180}');
    expect(r.status).toBe(200);
    expect(r.body[0]).toMatchObject({ entity_id: 'light.living_room', state: 'on', attributes: { brightness: 180 } });
    expect(
      await curlD(
        '/api/services/climate/set_temperature',
        '{"entity_id":"climate.hvac","temperature":21.5,"hvac_mode":"heat"}',
        { 'content-type': 'text/plain' },
      ),
    ).toMatchObject({ status: 200 });
    expect(await curlD('/api/services/light/turn_on', '{"entity_id":"light.kitchen"', CURL_FORM)).toMatchObject({
      status: 400,
      body: { message: 'Data should be valid JSON.' },
    });
    expect(await curlD('/api/services/light/turn_on', 'entity_id=light.kitchen')).toMatchObject({
      status: 400,
      body: { message: 'Data should be valid JSON.' },
    });
    // No body at all is {}.
    expect(await curlD('/api/services/light/turn_on', '', {})).toMatchObject({ status: 200 });
  });

  it('POST /api/states/<entity_id>', async () => {
    const r = await curlD('/api/states/sensor.power', '{"state":"230","attributes":{"unit_of_measurement":"W"}}');
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ entity_id: 'sensor.power', state: '230', attributes: { unit_of_measurement: 'W' } });
    expect(await curlD('/api/states/sensor.power', 'state=1')).toMatchObject({
      status: 400,
      body: { message: 'Invalid JSON specified.' },
    });
    expect(await curlD('/api/states/sensor.power', '[1]')).toMatchObject({
      status: 400,
      body: { message: 'State data should be a JSON object' },
    });
  });

  it('POST /api/events/<type> delivers the JSON as the event data', async () => {
    const ws = await rawSocket(h.url);
    ws.send({ type: 'auth', access_token: h.token });
    await ws.next((m) => m.type === 'auth_ok');
    ws.send({ id: 1, type: 'subscribe_events', event_type: 'my_event' });
    await ws.next((m) => m.id === 1);
    expect(await curlD('/api/events/my_event', '{"answer":42}')).toMatchObject({
      status: 200,
      body: { message: 'Event my_event fired.' },
    });
    const e = await ws.next((m) => m.type === 'event');
    expect(e.event).toMatchObject({ event_type: 'my_event', data: { answer: 42 }, origin: 'REMOTE' });
    expect(await curlD('/api/events/my_event', 'answer=42')).toMatchObject({
      status: 400,
      body: { message: 'Event data should be valid JSON.' },
    });
    expect(await curlD('/api/events/my_event', '"text"')).toMatchObject({
      status: 400,
      body: { message: 'Event data should be a JSON object' },
    });
    ws.ws.close();
  });

  it('POST /api/config/automation/config/<id>', async () => {
    const r = await curlD(
      '/api/config/automation/config/hall_on',
      '{"alias":"Hall on at dusk","triggers":[{"trigger":"time","at":"18:30"}],"actions":[{"action":"light.turn_on","target":{"entity_id":"light.hall"}}]}',
    );
    expect(r).toMatchObject({ status: 200, body: { result: 'ok' } });
    expect((await h.api('GET', '/api/config/automation/config/hall_on')).body).toMatchObject({
      alias: 'Hall on at dusk',
    });
    expect(await curlD('/api/config/automation/config/hall_on', 'alias=x')).toMatchObject({
      status: 400,
      body: { message: 'Invalid JSON specified.' },
    });
  });

  it("POST /api/template answers text; its errors are HA's", async () => {
    const r = await curlD(
      '/api/template',
      `{"template":"{{ states('light.living_room') }} at {{ state_attr('light.living_room', 'brightness') }}"}`,
    );
    expect(r).toMatchObject({ status: 200, text: 'on at 180' });
    expect(r.type).toMatch(/^text\/plain/);
    expect(await curlD('/api/template', 'template={{ 1 }}')).toMatchObject({
      status: 400,
      body: { message: 'Error rendering template: Expecting value: line 1 column 1 (char 0)' },
    });
  });

  it("POST /api/webhook/<id>: JSON when the type says so, a form otherwise (HA's webhook trigger)", async () => {
    expect(await h.api('POST', '/api/services/switch/turn_off', { entity_id: 'switch.coffee_maker' })).toMatchObject({
      status: 200,
    });
    const res = await fetch(`${h.url}/api/webhook/make_coffee`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"cups":2}',
    });
    expect(res.status).toBe(200);
    await expect.poll(async () => (await h.api('GET', '/api/states/switch.coffee_maker')).body.state).toBe('on');
    const form = await fetch(`${h.url}/api/webhook/make_coffee`, {
      method: 'POST',
      headers: CURL_FORM,
      body: 'cups=2',
    });
    expect(form.status).toBe(200);
  });
});

describe('system routes', () => {
  it('GET /api/components, /api/core/state, /api/error_log; POST /api/config/core/check_config', async () => {
    const c = await h.api('GET', '/api/components');
    expect(c.status).toBe(200);
    expect(c.body).toEqual(expect.arrayContaining(['api', 'automation', 'light', 'websocket_api']));
    expect(await h.api('GET', '/api/core/state')).toMatchObject({
      status: 200,
      body: { state: 'RUNNING', recorder_state: { migration_in_progress: false, migration_is_live: false } },
    });
    await h.api('POST', '/api/template', { template: '{{ x.y }}' });
    const check = await curlD('/api/config/core/check_config', '');
    expect(check).toMatchObject({ status: 200, body: { result: 'valid', errors: null, warnings: null } });
    // A failing automation shows in the error log as an HA log line.
    await curlD(
      '/api/config/automation/config/fails',
      '{"alias":"Fails","triggers":[{"trigger":"event","event_type":"fail_now"}],"actions":[{"action":"light.turn_on","target":{"entity_id":"light.nope"}}]}',
    );
    await curlD('/api/events/fail_now', '{}');
    await expect
      .poll(async () => (await h.api('GET', '/api/error_log')).text)
      .toMatch(
        /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} WARNING \(MainThread\) \[homeassistant\.components\.hamlet\] home: automation action failed .*light\.nope/m,
      );
    const log = await fetch(`${h.url}/api/error_log`, { headers: { authorization: `Bearer ${h.token}` } });
    expect(log.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await fetch(`${h.url}/api/error_log`)).status).toBe(401);
  });
});

describe('check_config on a house file that was broken after the start', () => {
  it('answers invalid with the problem, and the running home is untouched', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'hamlet-home-')), 'home.yaml');
    writeFileSync(file, 'devices:\n  - { domain: light, id: desk, name: Desk }\n');
    const own = await startHome({ env: { HOME_CONFIG: file } });
    try {
      const ok = await own.api('POST', '/api/config/core/check_config');
      expect(ok.body).toEqual({ result: 'valid', errors: null, warnings: null });
      writeFileSync(file, 'devices:\n  - { domain: toaster, id: x }\n');
      const bad = await own.api('POST', '/api/config/core/check_config');
      expect(bad.status).toBe(200);
      expect(bad.body.result).toBe('invalid');
      expect(bad.body.errors).toMatch(/toaster/);
      expect((await own.api('GET', '/api/states/light.desk')).status).toBe(200);
    } finally {
      await own.t.destroy();
    }
  });
});
