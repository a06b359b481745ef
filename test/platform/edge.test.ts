// The platform's edge, across every service at once: hostile JSON (deep, with NUL) answered
// with each service's own 400, the client address behind proxies (right-most untrusted
// X-Forwarded-For entry), and HTTP timeouts and a connection cap against slow clients.
import net from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/platform/settings.js';
import type { ServiceName } from '../../src/services/registry.js';
import { jsonShapeProblem } from '../../src/platform/json-limits.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import { settle, waitFor } from '../helpers/wait.js';
import { webhookWorkflow } from '../workflow/helpers.js';

const DEPTH = 20_000;
/** `{"a":{"a":…"x\u0000"…}}`, DEPTH objects deep, with a NUL in the innermost string. */
const deepWithNul = '{"a":'.repeat(DEPTH) + '"x\\u0000"' + '}'.repeat(DEPTH);
const deepArray = (depth: number) => '['.repeat(depth) + '1' + ']'.repeat(depth);

async function call(url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
  const res = await fetch(url, {
    method: init.method ?? 'POST',
    body: init.body,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text };
}

const keysOf = (v: unknown) => Object.keys(v ?? {}).sort();

describe('deep JSON on every service', () => {
  let t: TestHamlet;
  const keys: Partial<Record<ServiceName, string>> = {};
  beforeAll(async () => {
    t = await startTestHamlet({
      services: ['blog', 'mail', 'community', 'home', 'workflow'],
      env: { HAMLET_RATE_LIMITS: 'off' },
    });
    for (const s of ['mail', 'home', 'workflow'] as const) keys[s] = (await t.hamlet.platform.keys.create(s)).key;
  }, 60_000);
  afterAll(() => t?.destroy());

  // One JSON route per service, reached the way a client would (the webhook needs no key).
  const routes = (): Array<{ service: ServiceName; path: string; headers: Record<string, string> }> => [
    { service: 'blog', path: '/api/register', headers: {} },
    { service: 'mail', path: '/v0/inboxes', headers: { authorization: `Bearer ${keys.mail}` } },
    { service: 'community', path: '/api/v1/agents/register', headers: {} },
    { service: 'home', path: '/api/states/sensor.deep', headers: { authorization: `Bearer ${keys.home}` } },
    { service: 'workflow', path: '/webhook/deep-hook', headers: {} },
    { service: 'workflow', path: '/api/v1/workflows', headers: { 'x-n8n-api-key': keys.workflow! } },
  ];

  it('answers a 20,000-deep body holding a NUL with the service’s own 400, and keeps serving', async () => {
    const hook = await call(t.url('workflow') + '/api/v1/workflows', {
      body: JSON.stringify(webhookWorkflow('deep-hook')),
      headers: { 'x-n8n-api-key': keys.workflow! },
    });
    expect(hook.status).toBe(200);
    const id = (hook.body as { id: string }).id;
    expect(
      (
        await call(t.url('workflow') + `/api/v1/workflows/${id}/activate`, {
          headers: { 'x-n8n-api-key': keys.workflow! },
        })
      ).status,
    ).toBe(200);

    for (const r of routes()) {
      const url = t.url(r.service) + r.path;
      // The service's envelope, as it answers malformed JSON.
      const malformed = await call(url, { body: '{"a":', headers: r.headers });
      expect(malformed.status, `${r.service} ${r.path} malformed`).toBe(400);
      for (const body of [deepWithNul, deepArray(DEPTH)]) {
        const deep = await call(url, { body, headers: r.headers });
        expect(deep.status, `${r.service} ${r.path}: ${deep.text.slice(0, 200)}`).toBe(400);
        expect(keysOf(deep.body), `${r.service} envelope`).toEqual(keysOf(malformed.body));
        expect(deep.text).toMatch(/nest|deep/i);
      }
    }
    // Nothing was stored, and every service still answers.
    expect(
      (
        await call(t.url('home') + '/api/states/sensor.deep', {
          method: 'GET',
          headers: { authorization: `Bearer ${keys.home}` },
        })
      ).status,
    ).toBe(404);
    expect(
      (await call(t.url('home') + '/api/states', { method: 'GET', headers: { authorization: `Bearer ${keys.home}` } }))
        .status,
    ).toBe(200);
    for (const s of ['blog', 'mail', 'community', 'home', 'workflow'] as const)
      expect((await fetch(t.url(s) + '/healthz')).status).toBe(200);
  }, 60_000);

  it('creating a workflow whose parameters nest 20,000 deep is a 400; a normally deep one is accepted', async () => {
    const headers = { 'x-n8n-api-key': keys.workflow! };
    const wf = webhookWorkflow('deep-params', 'Deep params');
    const base = JSON.stringify(wf);
    const deepParams = base.replace('"options":{}', '"options":' + '{"x":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH));
    const deep = await call(t.url('workflow') + '/api/v1/workflows', { body: deepParams, headers });
    expect(deep.status).toBe(400);
    expect(keysOf(deep.body)).toEqual(['message']);
    // 20 levels of nesting in parameters is legitimate (switch rules, nested collections).
    const moderate = base.replace('"options":{}', '"options":' + '{"x":'.repeat(20) + '1' + '}'.repeat(20));
    expect((await call(t.url('workflow') + '/api/v1/workflows', { body: moderate, headers })).status).toBe(200);
  }, 60_000);

  it('still rejects a shallow NUL in every service, and accepts a NUL-free body', async () => {
    const r = await call(t.url('community') + '/api/v1/agents/register', {
      body: JSON.stringify({ name: 'nul\u0000agent' }),
    });
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/NUL/);
    const ok = await call(t.url('community') + '/api/v1/agents/register', {
      body: JSON.stringify({ name: 'fine_agent', description: 'x' }),
    });
    expect(ok.status).toBe(201);
  });
});

describe('jsonShapeProblem', () => {
  it('walks without recursion: a million levels are measured, not a stack overflow', () => {
    const deep = JSON.parse(deepArray(1_000_000));
    expect(jsonShapeProblem(deep, { maxDepth: 64 })).toMatchObject({ kind: 'depth' });
    expect(jsonShapeProblem(JSON.parse(deepArray(64)), { maxDepth: 64 })).toBeUndefined();
    expect(jsonShapeProblem(JSON.parse(deepArray(65)), { maxDepth: 64 })).toMatchObject({ kind: 'depth' });
  });
  it('finds a NUL in keys and strings, and measures size', () => {
    expect(jsonShapeProblem({ a: [{ 'k\u0000': 1 }] }, { maxDepth: 64 })).toMatchObject({ kind: 'nul' });
    expect(jsonShapeProblem({ a: ['x\u0000'] }, { maxDepth: 64 })).toMatchObject({ kind: 'nul' });
    expect(jsonShapeProblem({ a: 'x'.repeat(2000) }, { maxDepth: 64, maxBytes: 1000 })).toMatchObject({ kind: 'size' });
    expect(jsonShapeProblem({ a: 'x'.repeat(900) }, { maxDepth: 64, maxBytes: 1000 })).toBeUndefined();
  });
});

describe('client address behind proxies', () => {
  const started: TestHamlet[] = [];
  afterAll(async () => {
    for (const t of started) await t.destroy();
  });
  async function community(env: Record<string, string>) {
    const t = await startTestHamlet({
      services: ['community'],
      env: { HAMLET_RATE_COMMUNITY_REGISTER: '20/1h', HAMLET_RATE_COMMUNITY_REQUESTS: '100000/1m', ...env },
    });
    started.push(t);
    return (xff: string, name: string) =>
      call(t.url('community') + '/api/v1/agents/register', {
        body: JSON.stringify({ name, description: 'x' }),
        headers: { 'x-forwarded-for': xff },
      });
  }

  // The proxy appends the address it saw; whatever the client wrote comes before it.
  for (const [label, env] of [
    ['COMMUNITY_TRUST_PROXY=1 (one trusted hop)', { COMMUNITY_TRUST_PROXY: '1' }],
    ['HAMLET_TRUST_PROXY=1', { HAMLET_TRUST_PROXY: '1' }],
  ] as const) {
    it(`${label}: forged left-most entries do not buy more sign-ups`, async () => {
      const register = await community(env);
      const statuses: number[] = [];
      for (let i = 0; i < 25; i++)
        statuses.push((await register(`198.51.100.${i}, 203.0.113.7`, `forger_${i}`)).status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(20);
      expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429]);
      // Another real client behind the same proxy has its own count.
      expect((await register('198.51.100.1, 203.0.113.8', 'other_client')).status).toBe(201);
    }, 60_000);
  }

  it('HAMLET_TRUST_PROXY as a list of proxies skips every trusted hop and stops at the first untrusted one', async () => {
    const register = await community({ HAMLET_TRUST_PROXY: '127.0.0.0/8, 10.1.2.3' });
    const statuses: number[] = [];
    // client forges an entry; a real address 203.0.113.9; then two trusted proxies.
    for (let i = 0; i < 21; i++)
      statuses.push((await register(`198.51.100.${i}, 203.0.113.9, 10.1.2.3, 127.0.0.5`, `listed_${i}`)).status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses[20]).toBe(429);
    // Another real client through the same two proxies has its own count.
    expect((await register('198.51.100.1, 203.0.113.10, 10.1.2.3, 127.0.0.5', 'listed_other')).status).toBe(201);
  }, 60_000);

  it('validates HAMLET_TRUST_PROXY and its alias', () => {
    expect(loadConfig({ HAMLET_TRUST_PROXY: '2' }).http.trustProxy).toEqual({ hops: 2 });
    expect(loadConfig({ COMMUNITY_TRUST_PROXY: '1' }).http.trustProxy).toEqual({ hops: 1 });
    expect(loadConfig({ COMMUNITY_TRUST_PROXY: 'true' }).http.trustProxy).toEqual({ hops: 1 });
    expect(loadConfig({ HAMLET_TRUST_PROXY: '10.0.0.0/8,::1' }).http.trustProxy).toEqual({
      addresses: ['10.0.0.0/8', '::1'],
    });
    expect(loadConfig({}).http.trustProxy).toBeUndefined();
    for (const bad of ['10.0.0.0/33', 'proxy.example', '-1', '1.2.3']) {
      expect(() => loadConfig({ HAMLET_TRUST_PROXY: bad }), bad).toThrow(ConfigError);
      try {
        loadConfig({ HAMLET_TRUST_PROXY: bad });
      } catch (e) {
        expect((e as ConfigError).problems[0]).toContain(`HAMLET_TRUST_PROXY=${bad}`);
      }
    }
  });
});

describe('slow and excess HTTP connections', () => {
  const started: TestHamlet[] = [];
  afterAll(async () => {
    for (const t of started) await t.destroy();
  });
  const blog = async (env: Record<string, string>) => {
    const t = await startTestHamlet({ services: ['blog'], env });
    started.push(t);
    const { hostname, port } = new URL(t.url('blog'));
    return { t, hostname, port: Number(port) };
  };
  const connect = (host: string, port: number) =>
    new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect(port, host, () => resolve(s));
      s.once('error', reject);
    });
  /**
   * Resolves with the time the server closed the socket, or 'open' when the bound passes. The
   * server's socket timeouts run on real time (Node's, not the injectable clock), so staying
   * open can only be observed over a stretch of it.
   */
  const closedWithin = (s: net.Socket, ms: number) => {
    const started = Date.now();
    s.on('error', () => {});
    s.on('data', () => {});
    const closed = new Promise<number>((resolve) => s.once('close', () => resolve(Date.now() - started)));
    return Promise.race([closed, settle(ms).then(() => 'open' as const)]);
  };

  it('cuts off a client that trickles its headers (HAMLET_HTTP_HEADERS_TIMEOUT)', async () => {
    const { hostname, port, t } = await blog({ HAMLET_HTTP_HEADERS_TIMEOUT: '1s' });
    const sockets = await Promise.all(Array.from({ length: 20 }, () => connect(hostname, port)));
    const trickle = setInterval(() => {
      for (const s of sockets) if (!s.destroyed) s.write(`X-Slow-${Math.random().toString(36).slice(2)}: 1\r\n`);
    }, 100);
    for (const s of sockets) s.write('GET /api/blogs HTTP/1.1\r\nHost: x\r\n');
    const closed = await Promise.all(sockets.map((s) => closedWithin(s, 8000)));
    clearInterval(trickle);
    for (const s of sockets) s.destroy();
    // Far below the default (and the 70 s observed): the timeout plus one check interval.
    expect(closed.every((c) => c !== 'open')).toBe(true);
    expect((await fetch(t.url('blog') + '/healthz')).status).toBe(200);
  }, 30_000);

  it('refuses connections beyond HAMLET_HTTP_MAX_CONNECTIONS and serves normally once they go', async () => {
    const { hostname, port, t } = await blog({ HAMLET_HTTP_MAX_CONNECTIONS: '10', HAMLET_HTTP_HEADERS_TIMEOUT: '60s' });
    const held = await Promise.all(Array.from({ length: 10 }, () => connect(hostname, port)));
    const heldOpen = held.map((s) => closedWithin(s, 1500));
    // The 11th..15th are closed by the server at once.
    const extra = await Promise.all(Array.from({ length: 5 }, () => connect(hostname, port).catch(() => undefined)));
    const extraClosed = await Promise.all(extra.map((s) => (s ? closedWithin(s, 5000) : Promise.resolve(0))));
    expect(extraClosed.every((c) => c !== 'open')).toBe(true);
    expect((await Promise.all(heldOpen)).every((c) => c === 'open')).toBe(true);
    for (const s of held) s.destroy();
    // Once the holders leave, ordinary requests succeed again.
    await waitFor(async () => (await fetch(t.url('blog') + '/healthz').catch(() => undefined))?.status === 200, {
      intervalMs: 100,
      message: 'a 200 from /healthz once the holders left',
    });
    for (let i = 0; i < 20; i++) expect((await fetch(t.url('blog') + '/api/blogs')).status).toBe(200);
  }, 30_000);

  it('leaves an open WebSocket alone: the timeouts cover receiving a request only', async () => {
    const t = await startTestHamlet({
      services: ['home'],
      env: {
        HAMLET_HTTP_HEADERS_TIMEOUT: '300ms',
        HAMLET_HTTP_REQUEST_TIMEOUT: '600ms',
        HAMLET_HTTP_KEEPALIVE_TIMEOUT: '600ms',
      },
    });
    started.push(t);
    const { key } = await t.hamlet.platform.keys.create('home');
    const ws = new WebSocket(t.url('home').replace('http', 'ws') + '/api/websocket');
    const received: Array<{ type: string; id?: number }> = [];
    ws.on('message', (d) => received.push(JSON.parse(String(d))));
    let closed = false;
    ws.on('close', () => (closed = true));
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    ws.send(JSON.stringify({ type: 'auth', access_token: key }));
    // The server's own timers decide here (Node's HTTP timeouts, no injectable clock): let
    // several timeouts and connection checks pass, then the socket must still answer.
    await settle(2000);
    ws.send(JSON.stringify({ id: 1, type: 'ping' }));
    await waitFor(() => closed || received.some((m) => m.id === 1), { message: 'the pong (or the close)' });
    expect(closed).toBe(false);
    expect(received.find((m) => m.id === 1)?.type).toBe('pong');
    ws.close();
  }, 30_000);

  it('validates the HTTP settings', () => {
    const c = loadConfig({
      HAMLET_HTTP_HEADERS_TIMEOUT: '5s',
      HAMLET_HTTP_REQUEST_TIMEOUT: '2m',
      HAMLET_HTTP_KEEPALIVE_TIMEOUT: '10s',
      HAMLET_HTTP_MAX_CONNECTIONS: '500',
      HAMLET_JSON_MAX_DEPTH: '100',
    });
    expect(c.http).toMatchObject({
      headersTimeoutMs: 5000,
      requestTimeoutMs: 120_000,
      keepAliveTimeoutMs: 10_000,
      maxConnections: 500,
      jsonMaxDepth: 100,
    });
    expect(() => loadConfig({ HAMLET_HTTP_MAX_CONNECTIONS: 'lots' })).toThrow(/HAMLET_HTTP_MAX_CONNECTIONS=lots/);
    expect(() => loadConfig({ HAMLET_HTTP_HEADERS_TIMEOUT: 'soon' })).toThrow(/HAMLET_HTTP_HEADERS_TIMEOUT=soon/);
    expect(() => loadConfig({ HAMLET_JSON_MAX_DEPTH: '0' })).toThrow(/HAMLET_JSON_MAX_DEPTH=0/);
  });
});
