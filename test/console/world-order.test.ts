// Rows in the databases' order: the console saves the world streamed, each table read in key
// order by the database (SQLite's BINARY, PostgreSQL's COLLATE "C", NULLs first), while the
// CLI and the demo sort rows in memory (canonical.ts). Both must give one hash, also for text
// the two orders could disagree on: characters above U+FFFF against U+E000–U+FFFF, NULLs, and
// a table without a primary key. Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureServices } from '../../src/config.js';
import { worldOf } from '../../src/console/world/index.js';
import { stateHash } from '../../src/console/world/state.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

let t: TestHamlet;
let key: string;

beforeAll(async () => {
  t = await startTestHamlet({ services: ['home'], env: { HAMLET_CONSOLE: 'on' } });
  key = (await t.hamlet.platform.keys.create('admin')).key;
}, 60_000);
afterAll(async () => t?.destroy());

const TEXTS = [
  'sensor.a',
  'sensor.\u{1F600}',
  'sensor.\uFFFD',
  'sensor.\uE000',
  'sensor.\u{10000}x',
  'sensor.Z',
  'sensor.é',
  'sensor.a\u0301',
];

describe('key order', () => {
  it('the streamed save, the hash and the in-memory read agree on exotic keys', async () => {
    const db = t.hamlet.platform.db.kysely;
    await db
      .insertInto('home_entities')
      .values(TEXTS.map((entity_id, i) => ({ entity_id, data: `{"n":${i}}` })))
      .execute();
    await db
      .insertInto('home_states')
      .values(
        TEXTS.flatMap((entity_id, i) => [
          {
            entity_id,
            state: i % 2 ? null : TEXTS[(i + 3) % TEXTS.length],
            attributes: '{}',
            last_changed_ts: 1000 + i,
            last_updated_ts: 1000 + i,
            context_id: null,
            context_user_id: null,
            context_parent_id: null,
          },
          {
            entity_id,
            state: 'on',
            attributes: '{}',
            last_changed_ts: 1000.5,
            last_updated_ts: 999,
            context_id: `c${i}`,
            context_user_id: null,
            context_parent_id: null,
          },
        ]),
      )
      .execute();
    const inMemory = stateHash(await worldOf(t.hamlet.platform, await configureServices(t.config)).read());
    const web = t.hamlet.console!.urls.web;
    const auth = { authorization: `Bearer ${key}` };
    const hash = (await (await fetch(`${web}/admin/api/world/hash`, { headers: auth })).json()).hash;
    expect(hash).toBe(inMemory);
    const saved = await (
      await fetch(`${web}/admin/api/world/snapshots`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{}',
      })
    ).json();
    expect(saved.hash).toBe(inMemory);
    // The saved file passes the upload's checks (rows in key order) and restores to the same hash.
    const file = new Uint8Array(
      await (await fetch(`${web}/admin/api/world/snapshots/${saved.id}`, { headers: auth })).arrayBuffer(),
    );
    const up = await fetch(`${web}/admin/api/world/snapshots`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/gzip' },
      body: file,
    });
    expect(up.status).toBe(201);
    const restored = await (
      await fetch(`${web}/admin/api/world/snapshots/${saved.id}/restore`, { method: 'POST', headers: auth })
    ).json();
    expect(restored.hash).toBe(inMemory);
  });
});
