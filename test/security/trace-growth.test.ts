// Issue 27, finding 4: the trace filled the disk for anyone. Unauthenticated requests were
// stored with their whole URL (a 15 KB query string cost 17 KB per request, 3,000 requests
// +51 MB) and nothing but the 7-day retention bounded the table. Now a path is cut at 2 KB, the
// query values of unauthenticated calls are not kept, every other field has a cap, and the
// table keeps at most HAMLET_TRACE_MAX_ENTRIES entries, evicting the oldest first.
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { sql, type Db } from '../../src/platform/db.js';
import { LocalEventBus } from '../../src/platform/events.js';
import { createLogger } from '../../src/platform/logger.js';
import { Trace } from '../../src/platform/trace.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import { withPlatformDb } from '../helpers/platform-db.js';

const MAX_ENTRIES = 1000;
const REQUESTS = 3000;
/** The documented cap of a stored path, plus the marker that says how much was cut. */
const MAX_PATH = 2048 + 40;

/** What the trace table holds: entries (a row holds a batch of them), the characters of its text columns, and its size on disk. */
async function stored(db: Db, dataDir: string): Promise<{ rows: number; chars: number; diskBytes: number }> {
  const { rows, chars } = (
    await sql<{ rows: number | string; chars: number | string | null }>`
      SELECT coalesce(sum(entries), 0) AS rows, sum(length(data) + length(keys) + length(services) + length(kinds)) AS chars
      FROM platform_trace`.execute(db.kysely)
  ).rows[0];
  let diskBytes: number;
  if (db.sqlite) {
    // Everything into the main file, so its size is what the table takes (freed pages are reused).
    await db.sqlite.run((raw) => raw.pragma('wal_checkpoint(TRUNCATE)'));
    diskBytes = statSync(path.join(dataDir, 'hamlet.sqlite')).size;
  } else {
    diskBytes = Number(
      (await sql<{ size: string }>`SELECT pg_total_relation_size('platform_trace') AS size`.execute(db.kysely)).rows[0]
        .size,
    );
  }
  return { rows: Number(rows), chars: Number(chars ?? 0), diskBytes };
}

describe('the trace against 3,000 long-URL requests from nobody', () => {
  let t: TestHamlet;
  beforeAll(async () => {
    t = await startTestHamlet({
      services: ['blog', 'home', 'mail'],
      env: { HAMLET_RATE_LIMITS: 'off', HAMLET_TRACE_MAX_ENTRIES: String(MAX_ENTRIES) },
    });
  }, 60_000);
  afterAll(async () => t?.destroy());

  it('grows by a bounded amount: paths cut at 2 KB, query values of unauthenticated calls dropped, at most HAMLET_TRACE_MAX_ENTRIES kept', async () => {
    const { db } = t.hamlet.platform;
    const before = await stored(db, t.dataDir);
    // Random, so neither PostgreSQL's TOAST nor anything else can compress it away.
    const filler = () => randomBytes(11_250).toString('base64url'); // 15,000 characters
    const targets = [
      (i: number) => `${t.url('blog')}/api/posts?page=1&n=${i}&q=${filler()}`, // a public route
      (i: number) => `${t.url('home')}/api/states?n=${i}&filter=${filler()}`, // 401
      (i: number) => `${t.url('mail')}/v0/inboxes?n=${i}&x=${filler()}`, // 401
      (i: number) => `${t.url('blog')}/nothing-here/${i}/${filler()}`, // 404, the length in the path
    ];
    let next = 0;
    const worker = async () => {
      while (next < REQUESTS) {
        const i = next++;
        const res = await request(targets[i % targets.length](i));
        await res.body.dump();
        expect(res.statusCode).toBeLessThan(500);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));

    await t.hamlet.platform.trace.flush();
    const after = await stored(db, t.dataDir);
    // The old code kept 3,000 rows of ~15 KB each (+45 MB of text); now at most 1,000 rows…
    expect(after.rows).toBeLessThanOrEqual(MAX_ENTRIES);
    expect(after.rows).toBeGreaterThan(MAX_ENTRIES / 2);
    // …of at most ~2 KB each (the 404s; the rest keep no query values at all).
    expect(after.chars - before.chars).toBeLessThan(MAX_ENTRIES * MAX_PATH);
    // On disk: a few MB, where the old code took over 50.
    expect(after.diskBytes - before.diskBytes).toBeLessThan(8 * 1024 * 1024);

    const { entries } = await t.hamlet.platform.trace.query({ limit: 1000 });
    for (const e of entries) expect(e.path?.length ?? 0).toBeLessThanOrEqual(MAX_PATH);
    const states = entries.find((e) => e.service === 'home' && e.route === '/api/states')!;
    expect(states.path).toMatch(/^\/api\/states\?n=…&filter=…$/);
    const posts = entries.find((e) => e.service === 'blog' && e.route === '/api/posts')!;
    expect(posts.path).toMatch(/^\/api\/posts\?page=…&n=…&q=…$/);
    const missing = entries.find((e) => e.service === 'blog' && e.status === 404)!;
    expect(missing.path).toMatch(/^\/nothing-here\/\d+\/[A-Za-z0-9_-]+…\[\d+ more characters\]$/);
  }, 120_000);

  it('keeps the query values of a call made with a key', async () => {
    const { key } = await t.hamlet.platform.keys.create('home');
    await request(`${t.url('home')}/api/history/period?filter_entity_id=light.kitchen&minimal_response`, {
      headers: { authorization: `Bearer ${key}` },
    }).then((r) => r.body.dump());
    const { entries } = await t.hamlet.platform.trace.query({ service: ['home'], limit: 5 });
    expect(entries.find((e) => e.route?.startsWith('/api/history/period'))!.path).toBe(
      '/api/history/period?filter_entity_id=light.kitchen&minimal_response',
    );
  });
});

describe('the trace table under its cap', () => {
  let db: Db;
  const silent = createLogger({ level: 'silent', pretty: false });
  withPlatformDb((opened) => (db = opened));

  it('evicts the oldest entries first, beside the age retention', async () => {
    const clock = new ManualClock('2026-05-01T00:00:00.000Z');
    const trace = new Trace(db, clock, new LocalEventBus(), silent, {
      enabled: true,
      bodies: false,
      retentionMs: 7 * 24 * 3600_000,
      maxEntries: 300,
    });
    // Moving the clock sends the batch: a step every fourth entry makes 250 batches of 4 (each one a
    // write and a cap check; one per entry was 1,000 round trips, a minute on a loaded PostgreSQL).
    for (let i = 0; i < 1000; i++) {
      if (i % 4 === 0) clock.set(new Date(Date.parse('2026-05-01T00:00:00.000Z') + i * 1000));
      trace.event({ service: 'mail', summary: `entry ${i}` });
      if (i % 97 === 0) await trace.flush();
    }
    await trace.flush();
    const kept = [];
    for await (const e of trace.all({ order: 'oldest' })) kept.push(Number(e.summary!.slice(6)));
    expect(kept.length).toBeLessThanOrEqual(300);
    expect(kept.length).toBeGreaterThan(200);
    // The newest, in order, with nothing missing between them.
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 1000 - kept.length + i));
    await trace.close();
    await db.kysely.deleteFrom('platform_trace').execute();
  });

  it('caps every field a caller or a client can make long: path, method, route, summary, detail', async () => {
    const trace = new Trace(db, new ManualClock('2026-05-02T00:00:00.000Z'), new LocalEventBus(), silent, {
      enabled: true,
      bodies: false,
      retentionMs: 24 * 3600_000,
      maxEntries: 1000,
    });
    const long = 'x'.repeat(100_000);
    trace.record({
      service: 'home',
      kind: 'ws',
      method: long,
      route: long,
      path: long,
      summary: long,
      detail: { id: long, to: Array.from({ length: 10_000 }, (_, i) => `r${i}@example.org`) },
    });
    await trace.flush();
    const [e] = (await trace.query({})).entries;
    for (const text of [e.method, e.route, e.path, e.summary]) expect(text!.length).toBeLessThanOrEqual(MAX_PATH);
    expect(JSON.stringify(e.detail).length).toBeLessThanOrEqual(4096 + 200);
    expect(e.method!.startsWith('xxxx')).toBe(true);
    await trace.close();
    await db.kysely.deleteFrom('platform_trace').execute();
  });
});
