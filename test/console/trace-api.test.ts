// The trace's admin API on the console: filters by key, service, kind and time, pages with a
// cursor, JSON Lines export, clear 400s for malformed queries, and nothing without an admin key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentRig, type AgentRig } from './agent-rig.js';

let rig: AgentRig;
let base: string;
let admin: string;

beforeAll(async () => {
  rig = await startAgentRig({ HAMLET_CONSOLE: 'on' });
  base = rig.t.hamlet.console!.urls.web!;
  admin = (await rig.t.hamlet.platform.keys.create('admin')).key;
  await rig.sendMail('For the API');
  await rig.publishPost('API post');
  await rig.turnOnLight('light.kitchen');
  await rig.runWorkflow('API workflow');
}, 120_000);
afterAll(async () => rig?.t.destroy());

interface Entry {
  id: string;
  at: string;
  service: string;
  kind: string;
  keyId: string | null;
  summary: string | null;
}

async function get(path: string, key: string | null = admin) {
  const res = await fetch(base + path, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    text,
    body:
      /json/.test(res.headers.get('content-type') ?? '') && !/ndjson/.test(res.headers.get('content-type') ?? '')
        ? (JSON.parse(text) as { entries: Entry[]; nextCursor: string | null; message?: string })
        : undefined,
  };
}

describe('GET /admin/api/trace', () => {
  it('answers 401 without an admin key, and with another service key', async () => {
    for (const path of ['/admin/api/trace', '/admin/api/trace.jsonl', '/admin/api/trace?format=jsonl']) {
      expect((await get(path, null)).status).toBe(401);
      expect((await get(path, rig.keys.mail)).status).toBe(401);
    }
  });

  it('filters by key id, service, kind and time', async () => {
    const byKey = (await get(`/admin/api/trace?key=${rig.keyIds.blog}&limit=1000`)).body!;
    expect(byKey.entries.length).toBeGreaterThan(0);
    expect(byKey.entries.every((e) => e.keyId === rig.keyIds.blog)).toBe(true);
    expect(byKey.entries.some((e) => e.kind === 'event' && e.summary?.includes('API post'))).toBe(true);

    const twoServices = (await get('/admin/api/trace?service=home,workflow&limit=1000')).body!;
    expect(new Set(twoServices.entries.map((e) => e.service))).toEqual(new Set(['home', 'workflow']));

    const events = (await get('/admin/api/trace?kind=event&limit=1000')).body!;
    expect(events.entries.every((e) => e.kind === 'event')).toBe(true);
    expect(events.entries.map((e) => e.service)).toEqual(expect.arrayContaining(['mail', 'blog', 'home', 'workflow']));

    const all = (await get('/admin/api/trace?limit=1000')).body!.entries;
    expect(all.some((e) => e.service === 'console')).toBe(false); // the console's own pages and APIs are not agents' doings
    const middle = all[Math.floor(all.length / 2)];
    const since = (await get(`/admin/api/trace?since=${encodeURIComponent(middle.at)}&limit=1000`)).body!.entries;
    const until = (await get(`/admin/api/trace?until=${encodeURIComponent(middle.at)}&limit=1000`)).body!.entries;
    expect(since.every((e) => e.at >= middle.at)).toBe(true);
    expect(until.every((e) => e.at < middle.at)).toBe(true);
    expect(since.length + until.length).toBe(all.length);
  });

  it('pages newest first with a cursor, or oldest first', async () => {
    const first = (await get('/admin/api/trace?limit=2')).body!;
    expect(first.entries).toHaveLength(2);
    expect(first.nextCursor).toBeTruthy();
    const second = (await get(`/admin/api/trace?limit=2&cursor=${first.nextCursor}`)).body!;
    const keys = [...first.entries, ...second.entries].map((e) => `${e.at}|${e.id}`);
    expect(keys).toEqual([...keys].sort().reverse());
    expect(new Set(keys).size).toBe(4);
    const oldest = (await get('/admin/api/trace?limit=3&order=oldest')).body!.entries.map((e) => `${e.at}|${e.id}`);
    expect(oldest).toEqual([...oldest].sort());
  });

  it('refuses malformed queries with a 400 naming the parameter', async () => {
    const kind = await get('/admin/api/trace?kind=http,telepathy');
    expect(kind.status).toBe(400);
    expect(kind.body!.message).toMatch(/kind must be one of: http, smtp, ws, mcp, event/);
    expect((await get('/admin/api/trace?since=yesterday-ish')).body!.message).toMatch(/since must be an ISO 8601 time/);
    expect((await get('/admin/api/trace?cursor=bm9wZQ')).status).toBe(400);
    expect((await get('/admin/api/trace?limit=0')).status).toBe(400);
    expect((await get('/admin/api/trace?order=sideways')).status).toBe(400);
  });
});

describe('JSON Lines export', () => {
  it('streams every matching entry, one JSON object a line, at /admin/api/trace.jsonl and ?format=jsonl', async () => {
    const json = (await get('/admin/api/trace?service=mail&limit=1000')).body!.entries;
    for (const path of ['/admin/api/trace.jsonl?service=mail', '/admin/api/trace?service=mail&format=jsonl']) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.type).toMatch(/^application\/x-ndjson/);
      const lines = res.text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Entry);
      expect(lines.map((e) => e.id)).toEqual(json.map((e) => e.id));
      expect(lines.every((e) => e.service === 'mail')).toBe(true);
    }
    const limited = (await get('/admin/api/trace.jsonl?limit=3')).text.trimEnd().split('\n');
    expect(limited).toHaveLength(3);
    for (const key of Object.values(rig.keys)) expect((await get('/admin/api/trace.jsonl')).text).not.toContain(key);
  });
});
