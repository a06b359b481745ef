// Worlds: a snapshot holds every service's rows; restoring it gives back the saved state hash
// and the services serve the restored state; reset empties the world; the diff lists exactly
// what changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

let t: TestHamlet;
let admin: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;
let mailKey: string;
let homeKey: string;

async function call(
  base: string,
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; header?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (opts.key) headers[opts.header ?? 'authorization'] = opts.header ? opts.key : `Bearer ${opts.key}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text && /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : text,
  };
}

beforeAll(async () => {
  t = await startTestHamlet({
    services: ['blog', 'mail', 'community', 'home', 'workflow'],
    env: { HAMLET_CONSOLE: 'on', HAMLET_RATE_COMMUNITY_REGISTER: '1000/1m' },
  });
  const adminKey = (await t.hamlet.platform.keys.create('admin')).key;
  const base = t.hamlet.console!.urls.web;
  admin = (method, path, body) => call(base, method, path, { key: adminKey, body });
  mailKey = (await t.hamlet.platform.keys.create('mail')).key;
  homeKey = (await t.hamlet.platform.keys.create('home')).key;
}, 120_000);
afterAll(async () => (process.env.KEEP ? t?.stop() : t?.destroy()));

const createInbox = (username: string) =>
  call(t.url('mail'), 'POST', '/v0/inboxes', { key: mailKey, body: { username } });
const inboxes = async () =>
  (await call(t.url('mail'), 'GET', '/v0/inboxes', { key: mailKey })).body.inboxes.map((i: any) => i.inbox_id).sort();
const setLight = (state: string) =>
  call(t.url('home'), 'POST', '/api/states/light.world_test', {
    key: homeKey,
    body: { state, attributes: { friendly_name: 'World test' } },
  });
const lightState = async () =>
  (await call(t.url('home'), 'GET', '/api/states/light.world_test', { key: homeKey })).body.state;
const registerAgent = (name: string) =>
  call(t.url('community'), 'POST', '/api/v1/agents/register', { body: { name, description: 'world test' } });

describe('world snapshots', () => {
  it('save → more actions → restore gives the saved hash back, and the services serve the restored state', async () => {
    expect((await createInbox('alice')).status).toBe(200);
    expect((await setLight('on')).status).toBeLessThan(300);
    expect((await registerAgent('worldalice')).status).toBe(201);

    const saved = await admin('POST', '/admin/api/world/snapshots', { name: 'first' });
    expect(saved.status).toBe(201);
    expect(saved.body.id).toMatch(/^[0-9a-f]{16}$/);
    expect(saved.body.hash).toBe((await admin('GET', '/admin/api/world/hash')).body.hash);

    expect((await createInbox('bob')).status).toBe(200);
    expect((await setLight('off')).status).toBeLessThan(300);
    expect((await registerAgent('worldbob')).status).toBe(201);
    expect((await admin('GET', '/admin/api/world/hash')).body.hash).not.toBe(saved.body.hash);

    const restored = await admin('POST', `/admin/api/world/snapshots/${saved.body.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.hash).toBe(saved.body.hash);
    expect((await admin('GET', '/admin/api/world/hash')).body.hash).toBe(saved.body.hash);

    // What the services serve follows the rows (caches and the house in memory were reloaded).
    expect(await inboxes()).toEqual(expect.arrayContaining([expect.stringMatching(/^alice@/)]));
    expect((await inboxes()).some((id: string) => id.startsWith('bob@'))).toBe(false);
    expect(await lightState()).toBe('on');
    expect((await registerAgent('worldbob')).status).toBe(201); // the name is free again
    // The admin key that restored is the console's, not the world's: it still works.
    expect((await admin('GET', '/admin/api/world/snapshots')).body.snapshots.map((s: any) => s.id)).toContain(
      saved.body.id,
    );
  });

  it('downloads a snapshot as one gzip file that uploads and restores to the same hash', async () => {
    const saved = (await admin('POST', '/admin/api/world/snapshots')).body;
    const res = await fetch(`${t.hamlet.console!.urls.web}/admin/api/world/snapshots/${saved.id}`, {
      headers: { authorization: await bearerOfAdmin() },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/gzip/);
    const file = Buffer.from(await res.arrayBuffer());
    expect(file[0]).toBe(0x1f);
    const upload = await fetch(`${t.hamlet.console!.urls.web}/admin/api/world/snapshots`, {
      method: 'POST',
      headers: { authorization: await bearerOfAdmin(), 'content-type': 'application/gzip' },
      body: file,
    });
    expect(upload.status).toBe(201);
    expect((await upload.json()).hash).toBe(saved.hash);
    const bad = await fetch(`${t.hamlet.console!.urls.web}/admin/api/world/snapshots`, {
      method: 'POST',
      headers: { authorization: await bearerOfAdmin(), 'content-type': 'application/gzip' },
      body: Buffer.from('not gzip'),
    });
    expect(bad.status).toBe(400);
    expect((await admin('GET', '/admin/api/world/snapshots/0123456789abcdef')).status).toBe(404);
    expect((await admin('GET', '/admin/api/world/snapshots/nope')).status).toBe(404);
  });

  it('the diff lists exactly the rows added, changed and removed, per service', async () => {
    const before = (await admin('POST', '/admin/api/world/snapshots')).body;
    expect((await createInbox('carol')).status).toBe(200);
    expect((await setLight('off')).status).toBeLessThan(300);
    const diff = (await admin('GET', `/admin/api/world/diff?from=${before.id}&to=now`)).body;
    expect(diff.fromHash).toBe(before.hash);
    expect(diff.services.mail.added.map((a: any) => a.table)).toContain('mail_inboxes');
    expect(diff.services.mail.added.find((a: any) => a.table === 'mail_inboxes').row.inbox_id).toMatch(/^carol@/);
    expect(diff.services.mail.removed).toEqual([]);
    expect(diff.services.home.changed.find((c: any) => c.table === 'home_entities')?.columns).toContain('data');
    for (const svc of ['blog', 'community', 'workflow'])
      expect(diff.services[svc], svc).toEqual({ added: [], changed: [], removed: [] });
    const none = (await admin('GET', `/admin/api/world/diff?from=${before.id}&to=${before.id}`)).body;
    for (const changes of Object.values<any>(none.services))
      expect(changes).toEqual({ added: [], changed: [], removed: [] });
    expect((await admin('GET', '/admin/api/world/diff?from=0123456789abcdef')).status).toBe(404);
  });

  it('the diff comes in pages: a cursor walks every change once; service and table narrow it', async () => {
    const before = (await admin('POST', '/admin/api/world/snapshots')).body;
    for (const name of ['page-a', 'page-b', 'page-c']) expect((await createInbox(name)).status).toBe(200);
    const after = (await admin('POST', '/admin/api/world/snapshots')).body;
    const changes = (d: any): string[] =>
      Object.entries(d.services).flatMap(([service, c]: [string, any]) =>
        ['added', 'changed', 'removed'].flatMap((kind) =>
          c[kind].map((x: any) => `${service} ${kind} ${x.table} ${JSON.stringify(x.key)}`),
        ),
      );
    const all = (await admin('GET', `/admin/api/world/diff?from=${before.id}&to=${after.id}`)).body;
    expect(all.next).toBeUndefined();
    expect(changes(all).filter((c) => c.includes('mail_inboxes')).length).toBe(3);

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await admin(
        'GET',
        `/admin/api/world/diff?from=${before.id}&to=${after.id}&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      expect(changes(page.body).length).toBeLessThanOrEqual(1);
      expect(Object.keys(page.body.services).sort()).toEqual(Object.keys(all.services).sort());
      seen.push(...changes(page.body));
      cursor = page.body.next;
      pages++;
    } while (cursor && pages < 200);
    expect(seen.sort()).toEqual(changes(all).sort());
    expect(pages).toBeGreaterThanOrEqual(changes(all).length);

    const mail = (await admin('GET', `/admin/api/world/diff?from=${before.id}&to=${after.id}&service=mail`)).body;
    expect(Object.keys(mail.services)).toEqual(['mail']);
    const inboxesOnly = (
      await admin('GET', `/admin/api/world/diff?from=${before.id}&to=${after.id}&table=mail_inboxes`)
    ).body;
    expect(changes(inboxesOnly).length).toBe(3);
    expect(changes(inboxesOnly).every((c) => c.startsWith('mail added mail_inboxes'))).toBe(true);

    // Pages of a diff against now stay on the state of the first page.
    const first = (await admin('GET', `/admin/api/world/diff?from=${before.id}&to=now&limit=1`)).body;
    expect(first.next).toBeTruthy();
    expect((await createInbox('page-d')).status).toBe(200);
    const second = (await admin('GET', `/admin/api/world/diff?from=${before.id}&to=now&limit=1&cursor=${first.next}`))
      .body;
    expect(second.toHash).toBe(first.toHash);

    for (const bad of ['cursor=nonsense', 'limit=0', 'limit=abc']) {
      const r = await admin('GET', `/admin/api/world/diff?from=${before.id}&${bad}`);
      expect(r.status, bad).toBe(400);
    }
    // A cursor belongs to its diff.
    expect((await admin('GET', `/admin/api/world/diff?from=${after.id}&to=now&cursor=${first.next}`)).status).toBe(400);
  });

  it('reset empties every world table; the instance keeps its own rows and the admin key', async () => {
    await admin('POST', '/admin/api/world/reset');
    const snap = (await admin('POST', '/admin/api/world/snapshots', { name: 'empty' })).body;
    expect(snap.rows).toBe(0);
    // Service keys are world state: the ones made before are gone with it.
    expect((await call(t.url('mail'), 'GET', '/v0/inboxes', { key: mailKey })).status).toBe(401);
    mailKey = (await t.hamlet.platform.keys.create('mail')).key;
    homeKey = (await t.hamlet.platform.keys.create('home')).key;
    expect(await inboxes()).toEqual([]);
    expect((await call(t.url('home'), 'GET', '/api/states/light.world_test', { key: homeKey })).status).toBe(404);
    expect((await admin('POST', '/admin/api/world/reset')).body.hash).toBe(snap.hash);
  });
});

let adminBearer: string | undefined;
async function bearerOfAdmin(): Promise<string> {
  adminBearer ??= `Bearer ${(await t.hamlet.platform.keys.create('admin')).key}`;
  return adminBearer;
}
