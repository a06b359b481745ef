// Small pure pieces: the compressed subscribe_entities format, timestamps, MQTT discovery parsing.
import { describe, expect, it } from 'vitest';
import { compressState, stateDiff } from '../../src/services/home/websocket/compressed.js';
import { State } from '../../src/services/home/core/state.js';
import { isoUs, parseIsoUs } from '../../src/services/home/core/time.js';
import { expand, parseTopic } from '../../src/services/home/mqtt/discovery.js';
import { readValue as readWith } from '../../src/services/home/mqtt/templates.js';
import { Home } from '../../src/services/home/core/home.js';
import { ManualClock } from '../../src/platform/clock.js';
import { createLogger } from '../../src/platform/logger.js';

const home = new Home(new ManualClock(), createLogger({ level: 'silent', pretty: false }), {
  location_name: 'Home',
  latitude: 0,
  longitude: 0,
  elevation: 0,
  time_zone: 'UTC',
  currency: 'EUR',
  country: null,
  language: 'en',
  unit_system: 'metric',
});
const readValue = (template: unknown, payload: string) => readWith(home, template, payload);

const ctx = (id: string, user: string | null = null) => ({ id, parent_id: null, user_id: user });

describe('subscribe_entities compression', () => {
  const a = new State(
    'light.x',
    'off',
    { friendly_name: 'X', effect: 'loop' },
    1_000_000,
    1_000_000,
    1_000_000,
    ctx('A'),
  );
  it('compresses a state; lu only when it differs from lc; a bare context id when parent and user are null', () => {
    expect(compressState(a)).toEqual({ s: 'off', a: { friendly_name: 'X', effect: 'loop' }, c: 'A', lc: 1 });
    const b = new State('light.x', 'on', {}, 1_000_000, 2_500_000, 2_500_000, ctx('B', 'u1'));
    expect(compressState(b)).toEqual({
      s: 'on',
      a: {},
      c: { id: 'B', parent_id: null, user_id: 'u1' },
      lc: 1,
      lu: 2.5,
    });
  });
  it('diffs: state + lc, changed attributes, removed attributes under -, context changes', () => {
    const b = new State(
      'light.x',
      'on',
      { friendly_name: 'X', brightness: 10 },
      2_000_000,
      2_000_000,
      2_000_000,
      ctx('B', 'u1'),
    );
    expect(stateDiff(a, b)).toEqual({
      '+': { s: 'on', lc: 2, c: { id: 'B', user_id: 'u1' }, a: { brightness: 10 } },
      '-': { a: ['effect'] },
    });
    const c = new State(
      'light.x',
      'on',
      { friendly_name: 'X', brightness: 20 },
      2_000_000,
      3_000_000,
      3_000_000,
      ctx('C', 'u1'),
    );
    expect(stateDiff(b, c)).toEqual({ '+': { lu: 3, c: 'C', a: { brightness: 20 } } });
  });
});

describe('timestamps', () => {
  it('formats microseconds and parses the accepted forms', () => {
    expect(isoUs(1_736_071_200_123_456)).toBe('2025-01-05T10:00:00.123456+00:00');
    expect(parseIsoUs('2025-01-05T10:00:00.123456+00:00')).toBe(1_736_071_200_123_456);
    expect(parseIsoUs('2025-01-05T10:00:00Z')).toBe(1_736_071_200_000_000);
    expect(parseIsoUs('2025-01-05T11:00:00 01:00')).toBe(1_736_071_200_000_000);
    expect(parseIsoUs('2025-01-05')).toBe(1_736_035_200_000_000);
    expect(parseIsoUs('2025-13-05T10:00:00Z')).toBeUndefined();
    expect(parseIsoUs('yesterday')).toBeUndefined();
  });
});

describe('MQTT discovery', () => {
  it('parses topics with and without node id', () => {
    expect(parseTopic('homeassistant', 'homeassistant/light/kitchen/config')).toEqual({
      component: 'light',
      objectId: 'kitchen',
    });
    expect(parseTopic('homeassistant', 'homeassistant/sensor/node-1/temp/config')).toEqual({
      component: 'sensor',
      nodeId: 'node-1',
      objectId: 'temp',
    });
    expect(parseTopic('homeassistant', 'homeassistant/light/a b/config')).toBeUndefined();
    expect(parseTopic('homeassistant', 'other/light/x/config')).toBeUndefined();
  });
  it('expands abbreviations and ~', () => {
    expect(
      expand({ '~': 'home/k', cmd_t: '~/set', stat_t: 'x/~', dev: { ids: ['a'], mf: 'M' }, uniq_id: 'u' }),
    ).toMatchObject({
      command_topic: 'home/k/set',
      state_topic: 'x/home/k',
      device: { identifiers: ['a'], manufacturer: 'M' },
      unique_id: 'u',
    });
  });
  it('renders value templates with value and value_json; a failing one ignores the message', () => {
    expect(readValue('{{ value_json.a.b }}', '{"a":{"b":3}}')).toBe('3');
    expect(readValue("{{ value_json['x y'] }}", '{"x y":"ok"}')).toBe('ok');
    expect(readValue('{{ value }}', 'raw')).toBe('raw');
    expect(readValue(undefined, 'raw')).toBe('raw');
    expect(readValue('{{ value_json.a | float * 2 }}', '{"a":1}')).toBe('2.0');
    expect(readValue("{{ 'on' if value_json.on else 'off' }}", '{"on":true}')).toBe('on');
    expect(readValue('{{ value_json.missing.deeper }}', '{}')).toBeUndefined();
    expect(readValue('{{ value_json.x }}', 'not json')).toBeUndefined();
    expect(readValue("{{ ''.__class__ }}", '{}')).toBe('');
  });
});
