// Hostile snapshot files (issue 27, findings 1, 2, 3, 9 and 10): what an uploaded or planted
// file may do to the instance. A snapshot never brings keys of the instance with it (admin
// keys, the console's own keys); gzip bombs and oversized files are refused with the limit
// named, the process alive; a refused snapshot (bad clock, unknown column, a NOT NULL or
// UNIQUE violation, a value that is no column value) is a 400 that changes nothing; listing
// reads headers without decompressing. Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import { craftSnapshot, gzipBomb, keyRow, type CraftedTable } from './world-files.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

interface Answer {
  status: number;
  body: any;
}

function adminOf(t: TestHamlet, key: string) {
  const web = t.hamlet.console!.urls.web;
  const call = async (
    method: string,
    url: string,
    opts: { body?: unknown; gzip?: Buffer; key?: string } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = { authorization: `Bearer ${opts.key ?? key}` };
    let body: BodyInit | undefined;
    if (opts.gzip) {
      headers['content-type'] = 'application/gzip';
      body = new Uint8Array(opts.gzip);
    } else if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const res = await fetch(web + url, { method, headers, body });
    const text = await res.text();
    return {
      status: res.status,
      body: /json/.test(res.headers.get('content-type') ?? '') && text ? JSON.parse(text) : text,
    };
  };
  return {
    call,
    upload: (file: Buffer) => call('POST', '/admin/api/world/snapshots', { gzip: file }),
    hash: async () => (await call('GET', '/admin/api/world/hash')).body.hash as string,
  };
}

/** Puts a file into the instance's snapshot folder directly, as an operator copying files would (no upload checks). */
function place(t: TestHamlet, file: Buffer, hash: string): string {
  const id = hash.slice(0, 16);
  mkdirSync(path.join(t.dataDir, 'worlds'), { recursive: true });
  writeFileSync(path.join(t.dataDir, 'worlds', `${id}.jsonl.gz`), file);
  return id;
}

const hashOfFile = (file: Buffer): string => JSON.parse(gunzipSync(file).toString('utf8').split('\n', 1)[0]).hash;

const JOB = {
  attempts: 0,
  created_at: '2026-01-05T00:00:00.000Z',
  id: 'job-1',
  last_error: null,
  locked_until: null,
  max_attempts: 3,
  payload: '{}',
  queue: 'nothing',
  run_at: '2026-01-05T00:00:00.000Z',
  status: 'done',
  updated_at: '2026-01-05T00:00:00.000Z',
};
const jobs = (rows: Array<Record<string, unknown>>): CraftedTable => ({
  name: 'platform_jobs',
  owner: 'platform',
  key: ['id'],
  rows,
});

let t: TestHamlet;
let admin: ReturnType<typeof adminOf>;
let mailKey: string;

beforeAll(async () => {
  t = await startTestHamlet({ services: ['mail', 'home'], env: { HAMLET_CONSOLE: 'on' } });
  admin = adminOf(t, (await t.hamlet.platform.keys.create('admin')).key);
}, 120_000);
afterAll(async () => t?.destroy());

async function somethingInTheWorld(): Promise<string> {
  mailKey = (await t.hamlet.platform.keys.create('mail')).key;
  const res = await fetch(`${t.url('mail')}/v0/inboxes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${mailKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username: `w${Date.now().toString(36)}` }),
  });
  expect(res.status).toBe(200);
  return admin.hash();
}

describe('a snapshot cannot plant keys of the instance', () => {
  it('an admin key in a restored snapshot does not open the admin API, neither after the restore nor after a reset', async () => {
    const chosen = `hamlet_admin_${'P'.repeat(32)}`;
    const file = craftSnapshot([
      {
        name: 'platform_keys',
        owner: 'platform',
        key: ['id'],
        rows: [
          keyRow({
            id: '00000000-0000-4000-8000-000000000001',
            service: 'admin',
            name: 'planted',
            hash: sha256(chosen),
          }),
        ],
      },
    ]);
    expect((await admin.call('GET', '/admin/api/world/hash', { key: chosen })).status).toBe(401);
    const up = await admin.upload(file);
    expect(up.status).toBe(201);
    const restored = await admin.call('POST', `/admin/api/world/snapshots/${up.body.id}/restore`);
    expect(restored.status).toBe(200);
    expect((await admin.call('GET', '/admin/api/world/hash', { key: chosen })).status).toBe(401);
    expect(
      await t.hamlet.platform.db.kysely
        .selectFrom('platform_keys')
        .select('id')
        .where('hash', '=', sha256(chosen))
        .execute(),
    ).toEqual([]);
    expect((await admin.call('POST', '/admin/api/world/reset')).status).toBe(200);
    expect((await admin.call('GET', '/admin/api/world/hash', { key: chosen })).status).toBe(401);
  });

  it("a key named like the console's own (hamlet-console) is not restored", async () => {
    const chosen = `hamlet_mail_${'C'.repeat(32)}`;
    const agent = `hamlet_mail_${'A'.repeat(32)}`;
    const file = craftSnapshot([
      {
        name: 'platform_keys',
        owner: 'platform',
        key: ['id'],
        rows: [
          keyRow({
            id: '00000000-0000-4000-8000-000000000002',
            service: 'mail',
            name: 'hamlet-console',
            hash: sha256(chosen),
          }),
          keyRow({ id: '00000000-0000-4000-8000-000000000003', service: 'mail', name: 'agent', hash: sha256(agent) }),
        ],
      },
    ]);
    const up = await admin.upload(file);
    expect(up.status).toBe(201);
    expect((await admin.call('POST', `/admin/api/world/snapshots/${up.body.id}/restore`)).status).toBe(200);
    const inboxes = (key: string) =>
      fetch(`${t.url('mail')}/v0/inboxes`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
    expect(await inboxes(chosen)).toBe(401);
    // An agent's key is world state: it is restored.
    expect(await inboxes(agent)).toBe(200);
  });
});

describe('a refused snapshot changes nothing', () => {
  it.each([
    ['a clock that is not a date', { frozen: false, now: 'not a date' }, /clock/],
    ['a clock given as a number', { frozen: true, now: 12 }, /clock/],
    ['a clock whose frozen is not a boolean', { frozen: 'yes', now: '2026-01-05T00:00:00.000Z' }, /clock/],
  ])(
    '%s: refused on upload (400), and on restore when the file was copied into the folder (400, nothing replaced)',
    async (_what, clock, message) => {
      const before = await somethingInTheWorld();
      const file = craftSnapshot([jobs([JOB])], { clock });
      const up = await admin.upload(file);
      expect(up.status).toBe(400);
      expect(up.body.message).toMatch(message);
      const id = place(t, file, hashOfFile(file));
      const restored = await admin.call('POST', `/admin/api/world/snapshots/${id}/restore`);
      expect(restored.status).toBe(400);
      expect(restored.body.message).toMatch(message);
      expect(await admin.hash()).toBe(before);
    },
  );

  it.each([
    ['a column the table does not have', [{ ...JOB, evil: 'x' }], /platform_jobs.*evil|evil.*platform_jobs/],
    [
      'a NOT NULL column left out',
      [Object.fromEntries(Object.entries(JOB).filter(([k]) => k !== 'payload'))],
      /platform_jobs/,
    ],
    [
      'a value that is no column value',
      [{ ...JOB, payload: { nested: true } }],
      /platform_jobs.*payload|payload.*platform_jobs/,
    ],
    ['two rows with one key', [JOB, { ...JOB }], /platform_jobs/],
  ])('%s: a 400 naming the table, and nothing replaced', async (_what, rows, message) => {
    const before = await somethingInTheWorld();
    const file = craftSnapshot([jobs(rows)]);
    const up = await admin.upload(file);
    const id = up.status === 201 ? up.body.id : place(t, file, hashOfFile(file));
    if (up.status !== 201) expect(up.status).toBe(400);
    const restored = await admin.call('POST', `/admin/api/world/snapshots/${id}/restore`);
    expect(restored.status).toBe(400);
    expect(restored.body.message).toMatch(message);
    expect(await admin.hash()).toBe(before);
    // The services still answer from the world as it was.
    expect(
      (await fetch(`${t.url('mail')}/v0/inboxes`, { headers: { authorization: `Bearer ${mailKey}` } })).status,
    ).toBe(200);
  });
});

describe('snapshot listing', () => {
  it('lists a snapshot from its stored header, without decompressing the file', async () => {
    const saved = (await admin.call('POST', '/admin/api/world/snapshots', { body: { name: 'listed' } })).body;
    // The file is damaged after it was saved: listing must not need its body.
    writeFileSync(path.join(t.dataDir, 'worlds', `${saved.id}.jsonl.gz`), Buffer.from('not gzip at all'));
    const list = await admin.call('GET', '/admin/api/world/snapshots');
    expect(list.status).toBe(200);
    expect(list.body.snapshots.find((s: any) => s.id === saved.id)).toMatchObject({
      hash: saved.hash,
      name: 'listed',
      rows: saved.rows,
    });
    // Restoring the damaged file is refused, not a 500.
    expect((await admin.call('POST', `/admin/api/world/snapshots/${saved.id}/restore`)).status).toBe(400);
  });

  it('a file copied in without a stored header is listed from its first line only', async () => {
    const file = craftSnapshot([jobs([JOB])], { name: 'copied' });
    const hash = hashOfFile(file);
    const headerLine = gunzipSync(file).toString('utf8').split('\n', 1)[0] + '\n';
    // The header line, then 600 MB of zeros (a 600 KB file): only the header line may be read.
    const id = place(t, await gzipBomb(0x30, 600 * 1024 * 1024, headerLine), hash);
    const list = await admin.call('GET', '/admin/api/world/snapshots');
    expect(list.status).toBe(200);
    expect(list.body.snapshots.find((s: any) => s.id === id)).toMatchObject({ hash, name: 'copied', rows: 1 });
  });
});

describe('bombs and oversized files', () => {
  it('400 MiB of newlines (a 400 KB gzip) is refused and the process lives on', async () => {
    const bomb = await gzipBomb(0x0a, 400 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const up = await admin.upload(bomb);
    expect([400, 413]).toContain(up.status);
    expect(up.body.code).toBe('invalid_snapshot');
    expect((await admin.call('GET', '/admin/api/world/hash')).status).toBe(200);
  });

  it('600 MB of zeros (a 600 KB gzip) is refused at the line limit, named', async () => {
    const bomb = await gzipBomb(0x30, 600 * 1024 * 1024);
    const up = await admin.upload(bomb);
    expect(up.status).toBe(413);
    expect(up.body.message).toMatch(/HAMLET_WORLD_MAX_LINE/);
    expect((await admin.call('GET', '/admin/api/world/hash')).status).toBe(200);
  });
});

describe('limits an operator sets', () => {
  let small: TestHamlet;
  let a: ReturnType<typeof adminOf>;
  let key: string;
  beforeAll(async () => {
    small = await startTestHamlet({
      services: ['home'],
      env: {
        HAMLET_CONSOLE: 'on',
        HAMLET_WORLD_MAX_FILE: '65536',
        HAMLET_WORLD_MAX_BYTES: '65536',
        HAMLET_WORLD_MAX_ROWS: '50',
        HAMLET_WORLD_MAX_LINE: '4096',
      },
    });
    key = (await small.hamlet.platform.keys.create('admin')).key;
    a = adminOf(small, key);
  }, 60_000);
  afterAll(async () => small?.destroy());

  const manyJobs = (n: number, payload = '{}') =>
    jobs(Array.from({ length: n }, (_, i) => ({ ...JOB, id: `job-${String(i).padStart(7, '0')}`, payload })));

  it.each([
    ['more rows than HAMLET_WORLD_MAX_ROWS', () => craftSnapshot([manyJobs(51)]), /HAMLET_WORLD_MAX_ROWS/],
    [
      'a line longer than HAMLET_WORLD_MAX_LINE',
      () => craftSnapshot([manyJobs(1, 'x'.repeat(5000))]),
      /HAMLET_WORLD_MAX_LINE/,
    ],
    [
      'more than HAMLET_WORLD_MAX_BYTES decompressed',
      () => craftSnapshot([manyJobs(40, 'y'.repeat(3000))]),
      /HAMLET_WORLD_MAX_BYTES/,
    ],
  ])('%s: 413 naming it', async (_what, make, message) => {
    const up = await a.upload(make());
    expect(up.status).toBe(413);
    expect(up.body.message).toMatch(message);
    expect((await a.call('GET', '/admin/api/world/snapshots')).body.snapshots).toEqual([]);
  });

  it('a file larger than HAMLET_WORLD_MAX_FILE: 413 naming it', async () => {
    const big = Buffer.alloc(70_000, 1);
    const up = await a.upload(big);
    expect(up.status).toBe(413);
    expect(up.body.message).toMatch(/HAMLET_WORLD_MAX_FILE/);
  });

  it('a file larger than HAMLET_WORLD_MAX_FILE sent without a length (chunked): 413 naming it', async () => {
    const chunk = new Uint8Array(16 * 1024).fill(7);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 20) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(`${small.hamlet.console!.urls.web}/admin/api/world/snapshots`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/gzip' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).message).toMatch(/HAMLET_WORLD_MAX_FILE/);
    expect((await a.call('GET', '/admin/api/world/snapshots')).body.snapshots).toEqual([]);
    // Nothing of a refused upload stays on disk.
    expect(readdirSync(path.join(small.dataDir, 'worlds')).filter((f) => f.startsWith('.incoming'))).toEqual([]);
  });

  it('settings that are not whole numbers stop the start with the variable named', async () => {
    const { loadConfig } = await import('../../src/config.js');
    expect(() => loadConfig({ HAMLET_WORLD_MAX_ROWS: 'lots' })).toThrow(/HAMLET_WORLD_MAX_ROWS/);
  });
});
