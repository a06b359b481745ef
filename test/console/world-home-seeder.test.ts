// The home's world seeder ('home.history'), which writes the demo world's recorded week in one
// batch: what it records is what the REST API would have recorded one POST at a time (HA's
// rules for repeats and attribute-only changes), the house in memory ends at the latest
// readings, and history, the stored entities and a restart all agree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

const T0 = Date.parse('2026-01-05T08:00:00.000Z');
const MIN = 60_000;
const attributes = { unit_of_measurement: '°C', friendly_name: 'Hall' };

let t: TestHamlet;
let auth: Record<string, string>;

beforeAll(async () => {
  t = await startTestHamlet({ services: ['home'], clock: new ManualClock(T0 + 60 * MIN) });
  auth = { authorization: `Bearer ${(await t.hamlet.platform.keys.create('home')).key}` };
}, 60_000);
afterAll(async () => t?.destroy());

const seeder = () => t.hamlet.platform.world.seeder('home.history')!;

async function get(url: string): Promise<any> {
  const res = await fetch(t.url('home') + url, { headers: auth });
  expect(res.status).toBe(200);
  return res.json();
}

describe('home history seeder', () => {
  it('records readings as the API would: repeats make no row, attribute changes keep last_changed, the latest is the state', async () => {
    // Out of order on purpose: the seeder records in time order.
    await seeder()([
      { entity_id: 'sensor.hall', state: '21.0', attributes, at: T0 + 3 * MIN },
      { entity_id: 'sensor.hall', state: '20.0', attributes, at: T0 },
      { entity_id: 'sensor.hall', state: '20.0', attributes, at: T0 + MIN },
      { entity_id: 'sensor.hall', state: '20.0', attributes: { ...attributes, battery: 90 }, at: T0 + 2 * MIN },
      { entity_id: 'sensor.porch', state: '4.5', attributes: {}, at: T0 + MIN },
    ]);

    const hall = await get('/api/states/sensor.hall');
    expect(hall).toMatchObject({
      state: '21.0',
      attributes,
      last_changed: '2026-01-05T08:03:00.000000+00:00',
      last_updated: '2026-01-05T08:03:00.000000+00:00',
    });
    expect(hall.context.user_id).toBeNull();

    const [history] = await get(
      `/api/history/period/2026-01-05T07:00:00Z?filter_entity_id=sensor.hall&end_time=2026-01-05T09:00:00Z&significant_changes_only=0`,
    );
    expect(history.map((s: any) => [s.state, s.last_changed, s.last_updated, s.attributes.battery ?? null])).toEqual([
      ['20.0', '2026-01-05T08:00:00.000000+00:00', '2026-01-05T08:00:00.000000+00:00', null],
      ['20.0', '2026-01-05T08:00:00.000000+00:00', '2026-01-05T08:02:00.000000+00:00', 90],
      ['21.0', '2026-01-05T08:03:00.000000+00:00', '2026-01-05T08:03:00.000000+00:00', null],
    ]);
    // The recorder holds the four changes, each with a context of its own; after a restart the house is the same.
    const rows = await t.hamlet.platform.db.kysely
      .selectFrom('home_states')
      .select(['entity_id', 'context_id'])
      .where('entity_id', 'in', ['sensor.hall', 'sensor.porch'])
      .execute();
    expect(rows.length).toBe(4);
    expect(new Set(rows.map((r) => r.context_id)).size).toBe(4);
    t = await t.restart();
    expect((await get('/api/states/sensor.porch')).state).toBe('4.5');
    expect((await get('/api/states/sensor.hall')).last_changed).toBe('2026-01-05T08:03:00.000000+00:00');
  });

  it('refuses a reading with no valid entity id or time, writing nothing', async () => {
    await expect(
      seeder()([
        { entity_id: 'sensor.ok', state: '1', attributes: {}, at: T0 },
        { entity_id: 'Not an id', state: '1', attributes: {}, at: T0 },
      ]),
    ).rejects.toThrow(/not a reading/);
    await expect(seeder()([{ entity_id: 'sensor.ok', state: '1', attributes: {}, at: Number.NaN }])).rejects.toThrow(
      /not a reading/,
    );
    const res = await fetch(t.url('home') + '/api/states/sensor.ok', { headers: auth });
    expect(res.status).toBe(404);
  });
});
