// Starts the oracle n8n on loopback with a fresh user folder, and talks to it: the owner's
// session (/rest, cookie bound to a browser-id header) and the public API (X-N8N-API-KEY).
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { n8nBin } from './install.mjs';

const OWNER = { email: 'owner@example.com', firstName: 'O', lastName: 'Wner', password: 'Oracle-Passw0rd!' };
const BROWSER_ID = 'hamlet-oracle';

/**
 * `ORACLE_DATA_DIR` moves n8n's user folder (and its log) elsewhere than the install's `data`,
 * so two recordings at once (on two `ORACLE_PORT`s) do not wipe each other's instance.
 */
export async function startN8n(dir, port) {
  const userFolder = process.env.ORACLE_DATA_DIR ?? join(dir, 'data');
  rmSync(userFolder, { recursive: true, force: true }); // every run starts from an empty instance
  mkdirSync(userFolder, { recursive: true });
  const log = openSync(join(process.env.ORACLE_DATA_DIR ?? dir, 'n8n.log'), 'w');
  const env = {
    ...process.env,
    N8N_USER_FOLDER: userFolder,
    N8N_PORT: String(port),
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_HOST: '127.0.0.1',
    N8N_PROTOCOL: 'http',
    N8N_SECURE_COOKIE: 'false',
    N8N_ENCRYPTION_KEY: 'local-only-not-secret',
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_LOG_LEVEL: 'warn',
    DB_TYPE: 'sqlite',
    GENERIC_TIMEZONE: 'UTC',
    TZ: 'UTC',
    N8N_RUNNERS_TASK_BROKER_LISTEN_ADDRESS: '127.0.0.1',
    N8N_RUNNERS_BROKER_PORT: String(port + 1),
  };
  const child = spawn(n8nBin(dir), ['start'], { cwd: dir, env, stdio: ['ignore', log, log], detached: false });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`n8n exited with ${child.exitCode}; see ${join(dir, 'n8n.log')}`);
    try {
      const r = await fetch(`${base}/healthz/readiness`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error('n8n did not become ready in 180 s');
    await new Promise((r) => setTimeout(r, 1000));
  }
  const n8n = new N8nClient(base, child);
  try {
    await n8n.setupOwner(deadline);
  } catch (e) {
    n8n.stop();
    throw e;
  }
  return n8n;
}

export class N8nClient {
  constructor(base, child) {
    this.base = base;
    this.child = child;
    this.cookie = '';
    this.apiKey = '';
  }

  async rest(method, path, body) {
    const res = await fetch(`${this.base}/rest${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'browser-id': BROWSER_ID, cookie: this.cookie },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = res.headers.getSetCookie?.() ?? [];
    if (setCookie.length) this.cookie = setCookie.map((c) => c.split(';')[0]).join('; ');
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, body: json };
  }

  async api(method, path, body) {
    const res = await fetch(`${this.base}/api/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-n8n-api-key': this.apiKey },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, body: json };
  }

  async setupOwner(deadline) {
    // Readiness answers before the /rest routes are mounted (404) or the database is (503), and
    // the server may still drop a connection while it starts: wait for them.
    const trySetup = () =>
      this.rest('POST', '/owner/setup', OWNER).catch(() => ({ status: 404, body: 'connection dropped' }));
    let setup = await trySetup();
    while ((setup.status === 404 || setup.status === 503) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1000));
      setup = await trySetup();
    }
    if (setup.status !== 200) {
      const login = await this.rest('POST', '/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
      if (login.status !== 200) throw new Error(`owner setup failed: ${JSON.stringify(setup.body)}`);
    }
    const scopes = await this.rest('GET', '/api-keys/scopes');
    const key = await this.rest('POST', '/api-keys', { label: 'oracle', scopes: scopes.body.data, expiresAt: null });
    if (!key.body?.data?.rawApiKey) throw new Error(`API key creation failed: ${JSON.stringify(key.body)}`);
    this.apiKey = key.body.data.rawApiKey;
  }

  async version() {
    const s = await this.rest('GET', '/settings');
    return s.body?.data?.versionCli ?? 'unknown';
  }

  stop() {
    if (this.child.exitCode === null) this.child.kill('SIGTERM');
  }
}
