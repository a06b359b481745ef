// The console's door under attack (issue 27, finding 10): a malformed session cookie, a stolen
// or old cookie, a login guessed in a loop, a login forged from another site, the console
// framed by another page. The cookie holds a random session id (stored only as a digest, with
// an expiry) instead of the admin key; logout and revoking the key end it.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey, Keys } from '../../src/platform/keys.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

let t: TestHamlet;
let base: string;

beforeAll(async () => {
  t = await startTestHamlet({ services: ['blog'], env: { HAMLET_CONSOLE: 'on', HAMLET_RATE_CONSOLE_LOGIN: '20/15m' } });
  base = t.hamlet.console!.urls.web!;
}, 120_000);
afterAll(async () => t?.destroy());

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const postLogin = (key: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...FORM, ...headers },
    body: new URLSearchParams({ key, next: '/' }),
  });

async function login(key: string): Promise<{ cookie: string; setCookie: string; csrf: string }> {
  const res = await postLogin(key);
  expect(res.status).toBe(303);
  const setCookie = res.headers.get('set-cookie')!;
  const cookie = setCookie.split(';')[0];
  const page = await (await fetch(`${base}/`, { headers: { cookie } })).text();
  const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(page)![1];
  return { cookie, setCookie, csrf };
}

const overview = (cookie: string) =>
  fetch(`${base}/`, { redirect: 'manual', headers: { cookie, accept: 'text/html' } });
const api = (cookie: string) => fetch(`${base}/admin/api/clock`, { redirect: 'manual', headers: { cookie } });

describe('console session cookie', () => {
  it('a malformed cookie is a login redirect for pages and a 401 for APIs, never a 500', async () => {
    for (const value of ['%E0%A4%A', '%', '%ZZ', 'x'.repeat(5000), '"quoted"', 'a=b=c', '\u00ff']) {
      const cookie = `hamlet_console=${value}`;
      const page = await overview(cookie);
      expect(page.status, `page with cookie ${value.slice(0, 20)}`).toBe(302);
      expect(page.headers.get('location')).toMatch(/^\/login\?next=/);
      const res = await api(cookie);
      expect(res.status, `API with cookie ${value.slice(0, 20)}`).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'unauthorized' });
    }
  });

  it('holds a random session id, not the admin key, stored only as a digest, with an expiry', async () => {
    const { key } = await t.hamlet.platform.keys.create('admin');
    const { cookie, setCookie } = await login(key);
    const id = cookie.slice('hamlet_console='.length);
    expect(id).not.toContain(key);
    expect(decodeURIComponent(id)).not.toBe(key);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    expect(setCookie).toMatch(/; Max-Age=43200\b/); // 12 h, the default HAMLET_CONSOLE_SESSION_TTL
    const rows = await sql<Record<string, unknown>>`select * from console_sessions`.execute(
      t.hamlet.platform.db.kysely,
    );
    const dump = JSON.stringify(rows.rows);
    expect(dump).not.toContain(id);
    expect(dump).toContain(hashKey(id));
    expect((await overview(cookie)).status).toBe(200);
  });

  it('an expired session is refused', async () => {
    const { key } = await t.hamlet.platform.keys.create('admin');
    const { cookie } = await login(key);
    expect((await api(cookie)).status).toBe(200);
    const hash = hashKey(cookie.slice('hamlet_console='.length));
    await sql`update console_sessions set expires_at = ${new Date(Date.now() - 1000).toISOString()} where hash = ${hash}`.execute(
      t.hamlet.platform.db.kysely,
    );
    expect((await api(cookie)).status).toBe(401);
    expect((await overview(cookie)).status).toBe(302);
  });

  it('logout revokes the session: the same cookie sent again is refused', async () => {
    const { key } = await t.hamlet.platform.keys.create('admin');
    const { cookie, csrf } = await login(key);
    const out = await fetch(`${base}/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, ...FORM },
      body: new URLSearchParams({ _csrf: csrf }),
    });
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    expect((await api(cookie)).status).toBe(401);
  });

  it('revoking the admin key ends its sessions, also from another process (`hamlet keys revoke`)', async () => {
    const { key, record } = await t.hamlet.platform.keys.create('admin');
    const { cookie } = await login(key);
    expect((await api(cookie)).status).toBe(200);
    // Another process's key store: same storage, no shared cache or event bus (the CLI without Redis).
    const cli = new Keys(t.hamlet.platform.db, t.hamlet.platform.clock);
    await cli.revoke({ service: 'admin', id: record.id });
    expect((await api(cookie)).status).toBe(401);
    expect((await overview(cookie)).status).toBe(302);
  });
});

describe('console login', () => {
  it('refuses a login posted from another origin (login CSRF): no cookie is set', async () => {
    const { key } = await t.hamlet.platform.keys.create('admin');
    const forged: Array<Record<string, string>> = [
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:1' },
    ];
    for (const headers of forged) {
      const res = await postLogin(key, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(await res.text()).toContain('this console');
    }
    // The console's own page: same origin.
    const own = await postLogin(key, { origin: base, 'sec-fetch-site': 'same-origin' });
    expect(own.status).toBe(303);
    expect(own.headers.get('set-cookie')).toMatch(/^hamlet_console=/);
  });

  it('is throttled per address: past the limit even the right key is refused for a while', async () => {
    // 20 per 15 minutes here (HAMLET_RATE_CONSOLE_LOGIN), counted per address over the whole file.
    let last: Response | undefined;
    for (let i = 0; i < 21; i++) {
      last = await postLogin('hamlet_admin_guess' + i);
      if (last.status === 429) break;
      expect(last.status).toBe(303);
    }
    expect(last!.status).toBe(429);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    const { key } = await t.hamlet.platform.keys.create('admin');
    const right = await postLogin(key);
    expect(right.status).toBe(429);
    expect(right.headers.get('set-cookie')).toBeNull();
  });
});

describe('console framing', () => {
  it('every answer forbids framing: CSP frame-ancestors and X-Frame-Options', async () => {
    const { key } = await t.hamlet.platform.keys.create('admin');
    const auth = { authorization: `Bearer ${key}` };
    for (const [path, headers] of [
      ['/login', {}],
      ['/', auth],
      ['/activity', auth],
      ['/admin/api/clock', auth],
      ['/static/console.css', {}],
      ['/nowhere', auth],
    ] as const) {
      const res = await fetch(base + path, { headers });
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('content-security-policy'), path).toMatch(/frame-ancestors 'none'/);
    }
  });
});
