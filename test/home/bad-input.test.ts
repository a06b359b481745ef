// No request makes the server answer 500: every service of the home, called with odd values
// for each of its fields, answers 2xx or a 4xx JSON {message}; odd WebSocket frames get HA's
// error codes, never unknown_error.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rawSocket, startHome, type HomeTest } from './helpers.js';

let h: HomeTest;
beforeAll(async () => {
  h = await startHome();
});
afterAll(async () => {
  await h?.t.destroy();
});

const ODD: unknown[] = [null, -1, 1e308, 'text', '', true, [], [1, 2, 3, 4], { a: 1 }, [null], 'light.kitchen,,', NaN];

it('every service with odd field values answers < 500 in JSON', async () => {
  const services = (await h.api('GET', '/api/services')).body as Array<{
    domain: string;
    services: Record<string, { fields: Record<string, unknown> }>;
  }>;
  const entityOf = (domain: string) =>
    ({
      light: 'light.hall',
      climate: 'climate.bedroom',
      media_player: 'media_player.living_room',
      cover: 'cover.living_room_blinds',
      notify: 'notify.phone',
      switch: 'switch.coffee_maker',
      automation: 'automation.coffee_on_webhook',
    })[domain];
  let calls = 0;
  for (const { domain, services: map } of services) {
    for (const [service, spec] of Object.entries(map)) {
      if (domain === 'automation' && service === 'reload') continue;
      for (const field of Object.keys(spec.fields)) {
        for (const value of ODD) {
          const body: Record<string, unknown> = { [field]: value };
          const target = entityOf(domain);
          if (target) body.entity_id = target;
          const r = await h.api('POST', `/api/services/${domain}/${service}`, JSON.stringify(body));
          calls++;
          expect(r.status, `${domain}.${service} ${field}=${JSON.stringify(value)}: ${r.text}`).toBeLessThan(500);
          if (r.status >= 400) expect(r.body.message).toBeTypeOf('string');
        }
      }
      for (const body of [
        '[]',
        '"x"',
        '12',
        'null',
        '{"entity_id": 5}',
        '{"entity_id": [{}]}',
        '{"entity_id": "all", "extra": {"deep": [1]}}',
      ]) {
        const r = await h.api('POST', `/api/services/${domain}/${service}`, body);
        expect(r.status, `${domain}.${service} ${body}`).toBeLessThan(500);
      }
    }
  }
  expect(calls).toBeGreaterThan(200);
}, 60_000);

it('odd state writes, events and queries answer < 500', async () => {
  const cases: Array<[string, string, string?]> = [
    ['POST', '/api/states/sensor.x', '{"state": {"a": 1}}'],
    ['POST', '/api/states/sensor.x', '{"state": "1", "attributes": [1]}'],
    ['POST', '/api/states/sensor.x', '{"state": "1", "attributes": {"__proto__": {"x": 1}}}'],
    ['POST', '/api/states/%E0%A4%A', '{"state": "1"}'],
    ['POST', '/api/states/' + 'a'.repeat(400) + '.b', '{"state": "1"}'],
    ['POST', '/api/events/state_changed', '{}'],
    ['POST', '/api/events/x', '{"a": '],
    ['GET', '/api/history/period/2026-02-30T25:00:00?filter_entity_id=light.kitchen'],
    ['GET', '/api/history/period?filter_entity_id=light.kitchen&filter_entity_id=light.hall'],
    ['GET', '/api/history/period/%ZZ?filter_entity_id=light.kitchen'],
    ['GET', '/api/logbook?period=-1'],
    ['GET', '/api/logbook?period=abc'],
    ['POST', '/api/config/automation/config/x', '{"triggers": "nope", "actions": 5}'],
    ['POST', '/api/config/automation/config/x', '{"triggers": [{"trigger": "time", "at": "25:00"}], "actions": []}'],
    ['POST', '/api/config/automation/config/x', '{"triggers": [{"trigger": "state"}], "actions": [{"delay": "soon"}]}'],
  ];
  for (const [method, path, body] of cases) {
    const r = await h.api(method, path, body);
    expect(r.status, `${method} ${path} ${body}: ${r.text}`).toBeLessThan(500);
    expect(r.status, `${method} ${path} ${body}`).toBeGreaterThanOrEqual(200);
  }
});

it('odd WebSocket commands get HA error codes, never unknown_error, and the socket stays usable', async () => {
  const raw = await rawSocket(h.url);
  await raw.next();
  raw.send({ type: 'auth', access_token: h.token });
  await raw.next((m) => m.type === 'auth_ok');
  const odd: unknown[] = [
    { type: 'call_service', domain: 5, service: 'x' },
    { type: 'call_service', domain: 'light', service: 'turn_on', service_data: [1] },
    { type: 'call_service', domain: 'light', service: 'turn_on', target: 'light.kitchen' },
    { type: 'call_service', domain: 'light', service: 'turn_on', target: { entity_id: [1] } },
    { type: 'subscribe_entities', entity_ids: 'light.kitchen' },
    { type: 'subscribe_trigger', trigger: { platform: 'nope' } },
    { type: 'subscribe_trigger' },
    { type: 'fire_event', event_type: 'x', event_data: 'y' },
    { type: 'unsubscribe_events', subscription: 'a' },
    { type: 'supported_features', features: 5 },
    { type: 'validate_config', triggers: 'bad' },
  ];
  let id = 1;
  for (const m of odd) raw.send({ id: id++, ...(m as object) });
  const last = id - 1;
  await raw.next((m) => m.id === last && m.type === 'result');
  const results = raw.messages.filter((m) => m.type === 'result');
  for (const r of results) if (!r.success) expect(r.error.code, JSON.stringify(r)).not.toBe('unknown_error');
  raw.send({ id: id, type: 'ping' });
  await raw.next((m) => m.id === id && m.type === 'pong');
  raw.ws.close();
});
