// The console's door: without an admin key every page redirects to the login and every API
// answers 401; with the key in the session cookie, writes still need the CSRF token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

let t: TestHamlet;
let base: string;
let adminKey: string;

beforeAll(async () => {
  t = await startTestHamlet({
    services: ['mail', 'home', 'workflow', 'blog', 'community'],
    env: { HAMLET_CONSOLE: 'on' },
  });
  base = t.hamlet.console!.urls.web!;
  adminKey = (await t.hamlet.platform.keys.create('admin')).key;
}, 120_000);
afterAll(async () => t?.destroy());

// /mcp is outside the admin door: its tools act with the agent's own service keys (test/console/mcp.test.ts).
const PUBLIC = (url: string) =>
  url === '/login' || url.startsWith('/static/') || url.startsWith('/healthz') || url === '/mcp';
const concrete = (url: string) => url.replace(/:(\w+)/g, 'x').replace(/\*$/, 'x');

async function login(key: string): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ key, next: '/' }),
  });
  expect(res.status).toBe(303);
  const cookie = res.headers.get('set-cookie')!.split(';')[0];
  const page = await (await fetch(`${base}/`, { headers: { cookie } })).text();
  const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(page)![1];
  return { cookie, csrf };
}

describe('console authorization', () => {
  it('keeps a session (not the key) in an HttpOnly, SameSite=Strict cookie and refuses a wrong key', async () => {
    const res = await fetch(`${base}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key: adminKey, next: '/mail' }),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/mail');
    expect(res.headers.get('set-cookie')).toMatch(/^hamlet_console=.+; HttpOnly; SameSite=Strict; Path=\//);
    const wrong = await fetch(`${base}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key: 'hamlet_admin_nope' }),
    });
    expect(wrong.headers.get('location')).toMatch(/^\/login\?failed=1/);
    const mailKey = (await t.hamlet.platform.keys.create('mail')).key;
    const other = await fetch(`${base}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key: mailKey }),
    });
    expect(other.headers.get('location')).toMatch(/^\/login\?failed=1/);
  });

  it('never redirects the login to another site', async () => {
    const res = await fetch(`${base}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key: adminKey, next: '//evil.example/' }),
    });
    expect(res.headers.get('location')).toBe('/');
  });

  it('every route without the admin cookie: pages redirect to the login, APIs answer 401', async () => {
    const routes = t.hamlet.console!.routes.filter((r) => !PUBLIC(r.url));
    expect(routes.length).toBeGreaterThan(0);
    for (const { method, url } of routes) {
      const res = await fetch(base + concrete(url), {
        method,
        redirect: 'manual',
        headers: { accept: 'text/html' },
        body: method === 'GET' ? undefined : '{}',
      });
      expect([302, 401], `${method} ${url} answered ${res.status}`).toContain(res.status);
      if (res.status === 302) expect(res.headers.get('location')).toMatch(/^\/login\?next=/);
      const bearer = await fetch(base + concrete(url), {
        method,
        redirect: 'manual',
        headers: { authorization: 'Bearer hamlet_admin_wrong' },
        body: method === 'GET' ? undefined : '{}',
      });
      expect([302, 401], `${method} ${url} with a wrong key answered ${bearer.status}`).toContain(bearer.status);
    }
  });

  it('every write with the cookie but without the CSRF token is refused with 403', async () => {
    const { cookie, csrf } = await login(adminKey);
    const writes = t.hamlet.console!.routes.filter((r) => r.method !== 'GET' && !PUBLIC(r.url));
    expect(writes.length).toBeGreaterThan(0);
    for (const { method, url } of writes) {
      const json = await fetch(base + concrete(url), {
        method,
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(json.status, `${method} ${url} (JSON) answered ${json.status}`).toBe(403);
      const form = await fetch(base + concrete(url), {
        method,
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: '_csrf=wrong',
      });
      expect(form.status, `${method} ${url} (form) answered ${form.status}`).toBe(403);
    }
    const out = await fetch(`${base}/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf }),
    });
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
  });

  it('a bearer admin key reaches the pages without a cookie', async () => {
    const res = await fetch(`${base}/`, { headers: { authorization: `Bearer ${adminKey}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<h1>Hamlet</h1>');
  });
});

describe("the console's own keys", () => {
  it('holds one live key per admin-keyed service while it runs and revokes them when it stops', async () => {
    const live = async (service: string) =>
      (await t.hamlet.platform.keys.list(service)).filter((k) => k.name === 'hamlet-console' && !k.revokedAt).length;
    for (const service of ['mail', 'home', 'workflow']) expect(await live(service)).toBeGreaterThanOrEqual(1);
    await t.hamlet.console!.stop();
    for (const service of ['mail', 'home', 'workflow']) expect(await live(service), service).toBe(0);
  });
});
