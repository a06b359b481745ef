// Recorder retention and purge, the platform bus, the cover's movement on the clock, slow
// WebSocket consumers, and configuration errors.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/platform/settings.js';
import { ManualClock } from '../../src/platform/clock.js';
import { readSettings } from '../../src/platform/settings.js';
import { readHomeSettings } from '../../src/services/home/settings.js';
import { startTestHamlet } from '../helpers/hamlet.js';
import { rawSocket, startHome, type HomeTest } from './helpers.js';

const DAY = 86_400_000;
const clock = new ManualClock('2026-03-01T12:00:00.000Z');
let h: HomeTest;

beforeAll(async () => {
  h = await startHome({ clock, env: { HOME_RECORDER_KEEP_DAYS: '10', HOME_WS_MAX_BUFFER: '65536' } });
});
afterAll(async () => {
  await h?.t.destroy();
});

const history = async (start: string, id: string) =>
  (
    await h.api(
      'GET',
      `/api/history/period/${start}?filter_entity_id=${id}&end_time=2026-12-31T00:00:00Z&significant_changes_only=0`,
    )
  ).body;

describe('recorder', () => {
  it('writes every change (a batch of 200 WS commands lands in history) and purges past the retention', async () => {
    const raw = await rawSocket(h.url);
    await raw.next();
    raw.send({ type: 'auth', access_token: h.token });
    await raw.next((m) => m.type === 'auth_ok');
    raw.send(
      Array.from({ length: 200 }, (_, i) => ({
        id: i + 1,
        type: 'call_service',
        domain: 'light',
        service: 'turn_on',
        target: { entity_id: 'light.hall' },
        service_data: { brightness: i + 1 },
      })),
    );
    await expect
      .poll(() => raw.messages.filter((m) => m.type === 'result' && m.success).length, { timeout: 10_000 })
      .toBe(200);
    raw.ws.close();
    const rows = (await history('2026-03-01T00:00:00Z', 'light.hall'))[0];
    expect(rows.length).toBe(201); // the initial off + 200 changes
    expect(rows.at(-1).attributes.brightness).toBe(200);

    clock.advance(5 * DAY);
    await h.api('POST', '/api/states/sensor.later', { state: 'x' });
    clock.advance(6 * DAY); // 11 days after the first rows
    // (The daily purge, running on the same clock, may already have removed them.)
    const purged = await h.api('POST', '/api/services/recorder/purge?return_response', {});
    expect(purged.body.service_response.removed).toEqual(expect.any(Number));
    await expect.poll(() => history('2026-03-01T00:00:00Z', 'light.hall')).toEqual([]);
    expect((await history('2026-03-01T00:00:00Z', 'sensor.later'))[0]).toHaveLength(1);
    // The current state is not history: it survives the purge.
    expect((await h.api('GET', '/api/states/light.hall')).body.attributes.brightness).toBe(200);
  });

  it('the daily purge on the clock, and recorder.purge with keep_days', async () => {
    await h.api('POST', '/api/states/sensor.daily', { state: 'd' });
    clock.advance(9 * DAY);
    await h.api('POST', '/api/states/sensor.fresh', { state: 'y' });
    expect((await history('2026-03-01T00:00:00Z', 'sensor.daily'))[0]).toHaveLength(1);
    clock.advance(2 * DAY); // the next daily purge drops rows older than 10 days
    await expect.poll(() => history('2026-03-01T00:00:00Z', 'sensor.daily')).toEqual([]);
    expect((await history('2026-03-01T00:00:00Z', 'sensor.fresh'))[0]).toHaveLength(1);
    const purged = await h.api('POST', '/api/services/recorder/purge?return_response', { keep_days: 0.5 });
    expect(purged.body.service_response.removed).toBeGreaterThanOrEqual(1);
    expect(await history('2026-03-01T00:00:00Z', 'sensor.fresh')).toEqual([]);
  });
});

describe('platform bus', () => {
  it('publishes home.state_changed for other services', async () => {
    const got: any[] = [];
    const stop = h.t.hamlet.platform.events.subscribe('home.state_changed', (p) => void got.push(p));
    await h.api('POST', '/api/services/switch/turn_on', { entity_id: 'switch.coffee_maker' });
    await expect.poll(() => got.length).toBeGreaterThan(0);
    expect(got[0]).toMatchObject({
      entity_id: 'switch.coffee_maker',
      old_state: { state: 'off' },
      new_state: { state: 'on' },
    });
    stop();
  });
});

describe('cover on the clock', () => {
  it('opens 10 % per second, showing opening, and stops where asked', async () => {
    const r = await h.api('POST', '/api/services/cover/set_cover_position', {
      entity_id: 'cover.garage_door',
      position: 30,
    });
    expect(r.body[0]).toMatchObject({ state: 'opening', attributes: { current_position: 0 } });
    clock.advance(1000);
    await expect
      .poll(async () => (await h.api('GET', '/api/states/cover.garage_door')).body.attributes.current_position)
      .toBe(10);
    expect((await h.api('GET', '/api/states/cover.garage_door')).body.state).toBe('opening');
    clock.advance(1000);
    clock.advance(1000);
    await expect.poll(async () => (await h.api('GET', '/api/states/cover.garage_door')).body.state).toBe('open');
    expect((await h.api('GET', '/api/states/cover.garage_door')).body.attributes.current_position).toBe(30);
    await h.api('POST', '/api/services/cover/close_cover', { entity_id: 'cover.garage_door' });
    clock.advance(1000);
    await h.api('POST', '/api/services/cover/stop_cover', { entity_id: 'cover.garage_door' });
    clock.advance(5000);
    const s = (await h.api('GET', '/api/states/cover.garage_door')).body;
    expect(s).toMatchObject({ state: 'open', attributes: { current_position: 20 } });
  });
});

describe('slow consumers', () => {
  it('a client that stops reading is cut off once its buffer passes the bound', async () => {
    const raw = await rawSocket(h.url);
    await raw.next();
    raw.send({ type: 'auth', access_token: h.token });
    await raw.next((m) => m.type === 'auth_ok');
    raw.send({ id: 1, type: 'subscribe_events', event_type: 'state_changed' });
    await raw.next((m) => m.id === 1);
    (raw.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    // Enough to fill the kernel's socket buffers too, so the server's own buffer grows.
    const big = 'x'.repeat(60_000);
    for (let i = 0; i < 150; i++)
      await h.api('POST', '/api/states/sensor.flood', { state: String(i), attributes: { big } });
    (raw.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    await raw.closed;
    // The server itself is fine.
    expect((await h.api('GET', '/api/states/sensor.flood')).body.state).toBe('149');
  });
});

describe('configuration', () => {
  it('bad settings are reported together', () => {
    expect(() =>
      readSettings((kit) => readHomeSettings(kit, { dataDir: '/tmp' }), {
        HOME_RECORDER_KEEP_DAYS: 'ten',
        MQTT_URL: 'http://x',
        HOME_WS_MAX_BUFFER: '-1',
      }),
    ).toThrow(ConfigError);
    try {
      readSettings((kit) => readHomeSettings(kit, { dataDir: '/tmp' }), {
        HOME_RECORDER_KEEP_DAYS: 'ten',
        MQTT_URL: 'http://x',
      });
    } catch (e) {
      expect((e as ConfigError).problems).toHaveLength(2);
    }
    expect(readSettings((kit) => readHomeSettings(kit, { dataDir: '/data' }), {})).toMatchObject({
      configFile: '/data/home.yaml',
      keepDays: 10,
    });
  });

  it('a missing or broken house file stops the start with a clear message', async () => {
    await expect(
      startTestHamlet({ services: ['home'], env: { HOME_CONFIG: '/nonexistent/house.yaml' } }),
    ).rejects.toThrow(/HOME_CONFIG=.*file not found/);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'home-bad-'));
    const file = path.join(dir, 'h.yaml');
    writeFileSync(file, 'devices:\n  - { domain: toaster, id: t }\n');
    await expect(startTestHamlet({ services: ['home'], env: { HOME_CONFIG: file } })).rejects.toThrow(
      /toaster is not one of/,
    );
  });
});
