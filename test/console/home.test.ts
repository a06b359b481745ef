// The console's home views over HTTP: the dashboard by area from the home's registries, a
// toggle through the console reaching the home's REST API, the live stream carrying a change
// made elsewhere, the history graph and the automations' last trigger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

let t: TestHamlet;
let base: string;
let home: string;
let admin: Record<string, string>;
let homeAuth: Record<string, string>;

beforeAll(async () => {
  t = await startTestHamlet({ services: ['home'], env: { HAMLET_CONSOLE: 'on' } });
  base = t.hamlet.console!.urls.web!;
  home = t.url('home');
  admin = { authorization: `Bearer ${(await t.hamlet.platform.keys.create('admin')).key}` };
  homeAuth = {
    authorization: `Bearer ${(await t.hamlet.platform.keys.create('home')).key}`,
    'content-type': 'application/json',
  };
}, 120_000);
afterAll(async () => t?.destroy());

const page = async (path: string) => {
  const res = await fetch(base + path, { headers: admin });
  return { status: res.status, text: await res.text() };
};
const stateOf = async (id: string) =>
  (await (await fetch(`${home}/api/states/${id}`, { headers: homeAuth })).json()) as {
    state: string;
    attributes: Record<string, unknown>;
  };
const form = (fields: Record<string, string>, extra: Record<string, string> = {}) => ({
  method: 'POST',
  redirect: 'manual' as const,
  headers: { ...admin, 'content-type': 'application/x-www-form-urlencoded', ...extra },
  body: new URLSearchParams(fields),
});

describe('home dashboard', () => {
  it('says so, with a 503, when a service the page needs does not run here', async () => {
    const { status, text } = await page('/workflows');
    expect(status).toBe(503);
    expect(text).toContain('The workflow service does not run here.');
  });

  it('lists the entities by area, with one card each', async () => {
    const { status, text } = await page('/home');
    expect(status).toBe(200);
    const kitchen = text.slice(
      text.indexOf('<h2 id="area-kitchen">'),
      text.indexOf('</section>', text.indexOf('<h2 id="area-kitchen">')),
    );
    expect(kitchen).toContain('Kitchen');
    expect(kitchen).toContain('id="card-light.kitchen"');
    expect(kitchen).toContain('id="card-switch.coffee_maker"');
    expect(kitchen).not.toContain('id="card-light.living_room"');
    const living = text.slice(text.indexOf('<h2 id="area-living_room">'));
    expect(living).toMatch(/id="card-light\.living_room"[\s\S]*type="color"/);
    expect(text).toMatch(/id="card-climate\.hvac"[\s\S]*name="temperature"[\s\S]*<option selected>heat<\/option>/);
    expect(text).toMatch(/id="card-cover\.garage_door"[\s\S]*name="position"/);
    expect(text).toMatch(/id="card-media_player\.living_room"[\s\S]*aria-label="Next track"/);
    const states = (await (await fetch(`${home}/api/states`, { headers: homeAuth })).json()) as unknown[];
    expect(text.match(/<article class="card entity/g)?.length).toBe(states.length);
  });

  it('a toggle through the console changes the state the home REST API shows', async () => {
    const before = await stateOf('light.kitchen');
    const to = before.state === 'on' ? 'off' : 'on';
    const res = await fetch(`${base}/home/entities/light.kitchen/power`, form({ to, back: '/home' }));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/home#card-light.kitchen');
    expect((await stateOf('light.kitchen')).state).toBe(to);

    // With htmx the answer is the new card.
    const back = to === 'on' ? 'off' : 'on';
    const card = await fetch(`${base}/home/entities/light.kitchen/power`, form({ to: back }, { 'hx-request': 'true' }));
    expect(card.status).toBe(200);
    const cardHtml = await card.text();
    expect(cardHtml).toMatch(/^<article class="card entity[^"]*" id="card-light\.kitchen"/);
    expect(cardHtml).toContain(`aria-pressed="${back === 'on' ? 'true' : 'false'}"`);
    expect((await stateOf('light.kitchen')).state).toBe(back);
  });

  it('sets brightness, colour, set-points and positions, and shows the home refusing bad values', async () => {
    expect(
      (await fetch(`${base}/home/entities/light.living_room/brightness`, form({ brightness_pct: '40' }))).status,
    ).toBe(303);
    expect((await stateOf('light.living_room')).attributes.brightness).toBe(102);
    expect((await fetch(`${base}/home/entities/light.living_room/color`, form({ color: '#ff0000' }))).status).toBe(303);
    expect((await stateOf('light.living_room')).attributes.rgb_color).toEqual([255, 0, 0]);
    expect((await fetch(`${base}/home/entities/climate.hvac/temperature`, form({ temperature: '21.5' }))).status).toBe(
      303,
    );
    expect((await stateOf('climate.hvac')).attributes.temperature).toBe(21.5);

    const refused = await fetch(
      `${base}/home/entities/light.living_room/brightness`,
      form({ brightness_pct: '400' }, { 'hx-request': 'true' }),
    );
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/role="alert">[^<]*brightness_pct/);
    const notNumber = await fetch(`${base}/home/entities/climate.hvac/temperature`, form({ temperature: 'warm' }));
    expect(notNumber.status).toBe(400);
    expect(await notNumber.text()).toContain('temperature must be a number');
    const unknown = await fetch(`${base}/home/entities/light.kitchen/explode`, form({}));
    expect(unknown.status).toBe(404);
  });

  it('streams a state change made through the REST API to the browser (SSE)', async () => {
    const ac = new AbortController();
    const res = await fetch(`${base}/home/events`, { headers: admin, signal: ac.signal });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = decoder.decode((await reader.read()).value);
    expect(buffer).toContain(': connected');
    await fetch(`${home}/api/services/switch/turn_on`, {
      method: 'POST',
      headers: homeAuth,
      body: JSON.stringify({ entity_id: 'switch.coffee_maker' }),
    });
    while (!/event: state\ndata: .*"entity_id":"switch.coffee_maker"/.test(buffer)) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value);
    }
    const line = /event: state\ndata: (.*"entity_id":"switch.coffee_maker".*)\n/.exec(buffer)![1];
    const event = JSON.parse(line) as { state: string; html: string };
    expect(event.state).toBe('on');
    expect(event.html).toContain('id="card-switch.coffee_maker"');
    expect(event.html).toContain('aria-pressed="true"');
    ac.abort();
  });

  it('draws an entity history as an SVG polyline, with the logbook', async () => {
    for (const v of ['10', '12.5', '11']) {
      await fetch(`${home}/api/states/sensor.console_test`, {
        method: 'POST',
        headers: homeAuth,
        body: JSON.stringify({ state: v, attributes: { unit_of_measurement: 'W', friendly_name: 'Console test' } }),
      });
    }
    const { status, text } = await page('/home/entities/sensor.console_test');
    expect(status).toBe(200);
    expect(text).toMatch(/<svg[^>]*role="img"/);
    const points = /<polyline class="line" points="([^"]+)"/.exec(text)![1].split(' ');
    expect(points.length).toBeGreaterThanOrEqual(6); // three values as steps, held to now
    expect(text).toContain('12.5');
    // Sensors with a unit stay out of the logbook (as in HA); the kitchen light toggled above is in it.
    const light = await page('/home/entities/light.kitchen');
    expect(light.text).toMatch(/<ol class="logbook">[\s\S]*Kitchen[\s\S]*turned (on|off)/);
    expect((await page('/home/entities/sensor.nothing_here')).status).toBe(404);
    expect((await page('/home/logbook')).text).toMatch(/<ol class="logbook">[\s\S]*light\.kitchen/);
  });

  it('lists automations with their last trigger', async () => {
    const states = (await (await fetch(`${home}/api/states`, { headers: homeAuth })).json()) as Array<{
      entity_id: string;
    }>;
    const automation = states.find((s) => s.entity_id.startsWith('automation.'))!.entity_id;
    await fetch(`${home}/api/services/automation/trigger`, {
      method: 'POST',
      headers: homeAuth,
      body: JSON.stringify({ entity_id: automation }),
    });
    const triggered = (await stateOf(automation)).attributes.last_triggered as string;
    expect(triggered).toBeTruthy();
    const { status, text } = await page('/home/automations');
    expect(status).toBe(200);
    expect(text).toMatch(/id="card-automation\.[a-z_]+"/);
    expect(text).toContain(`<time datetime="${triggered}">`);
    expect(text).toMatch(/Last triggered: /);
  });
});
