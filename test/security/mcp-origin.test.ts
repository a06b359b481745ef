// The MCP endpoints against a page in a browser (issue 27, finding 7): DNS rebinding (a name of
// the attacker's resolving to 127.0.0.1, so the Host is theirs) and a cross-site fetch (the
// Origin is theirs) are refused with 403 and a JSON-RPC error saying why, on the console's
// /mcp and the home's /api/mcp alike; loopback names, the configured public host and
// HAMLET_MCP_ALLOWED_ORIGINS pass. A tool's path argument stays one segment of its route.
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/platform/settings.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

let t: TestHamlet;
let homeKey: string;

beforeAll(async () => {
  t = await startTestHamlet({
    services: ['mail', 'home'],
    env: {
      HAMLET_CONSOLE: 'on',
      HAMLET_CONSOLE_URL: 'https://console.example',
      HAMLET_MCP_ALLOWED_ORIGINS: 'https://agents.example, tools.example',
    },
  });
  homeKey = (await t.hamlet.platform.keys.create('home')).key;
}, 120_000);
afterAll(async () => t?.destroy());

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
});

/** One initialize request with a chosen Host and Origin (fetch would not let a test set Host). */
function initialize(url: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        hostname: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          host: u.host,
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(INITIALIZE);
  });
}

const endpoints = (): Array<{ name: string; url: string; auth: Record<string, string> }> => [
  { name: 'console /mcp', url: `${t.hamlet.console!.urls.web}/mcp`, auth: {} },
  { name: 'home /api/mcp', url: `${t.url('home')}/api/mcp`, auth: { authorization: `Bearer ${homeKey}` } },
];

describe('MCP Host and Origin allow-list', () => {
  it('refuses a Host that is not loopback, the public host or an allowed name (DNS rebinding)', async () => {
    for (const { name, url, auth } of endpoints()) {
      const port = new URL(url).port;
      for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1.evil.example:${port}`]) {
        const res = await initialize(url, { ...auth, host });
        expect(res.status, `${name} Host ${host}`).toBe(403);
        expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
        expect(res.body.error.message).toContain('evil.example');
        expect(res.body.error.message).toMatch(/Host/);
        expect(res.body.error.message).toContain('HAMLET_MCP_ALLOWED_ORIGINS');
      }
    }
  });

  it('refuses an Origin of another site, and the opaque origin null', async () => {
    for (const { name, url, auth } of endpoints()) {
      for (const origin of ['http://evil.example', 'https://evil.example:443', 'null', 'http://agents.example']) {
        const res = await initialize(url, { ...auth, origin });
        expect(res.status, `${name} Origin ${origin}`).toBe(403);
        expect(res.body.error).toMatchObject({ code: -32000 });
        expect(res.body.error.message).toMatch(/Origin/);
      }
    }
  });

  it('accepts loopback names, the public host, and what HAMLET_MCP_ALLOWED_ORIGINS names', async () => {
    for (const { name, url, auth } of endpoints()) {
      const port = new URL(url).port;
      const allowed: Array<Record<string, string>> = [
        {},
        { host: `localhost:${port}` },
        { host: `[::1]:${port}` },
        { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` },
        { origin: 'http://localhost:5173' },
        { host: 'agents.example', origin: 'https://agents.example' },
        { host: 'tools.example:8443', origin: 'https://tools.example:8443' },
      ];
      if (name.startsWith('console')) allowed.push({ host: 'console.example', origin: 'https://console.example' });
      for (const headers of allowed) {
        const res = await initialize(url, { ...auth, ...headers });
        expect(res.status, `${name} ${JSON.stringify(headers)}: ${JSON.stringify(res.body)}`).toBe(200);
        expect(res.body.result.serverInfo).toBeDefined();
      }
    }
  });

  it('HAMLET_MCP_ALLOWED_ORIGINS is checked at start: a path or a bad scheme is a config error', () => {
    for (const bad of ['https://a.example/path', 'ftp://a.example', 'not a host!']) {
      expect(() => loadConfig({ HAMLET_MCP_ALLOWED_ORIGINS: bad }), bad).toThrow(ConfigError);
    }
    expect(loadConfig({ HAMLET_MCP_ALLOWED_ORIGINS: '*' }).mcp.allowedOrigins).toEqual(['*']);
  });
});

describe('MCP path arguments', () => {
  async function agent(): Promise<Client> {
    const client = new Client({ name: 'path-probe', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${t.hamlet.console!.urls.web}/mcp`), {
      requestInit: { headers: { 'x-hamlet-keys': homeKey } },
    });
    await client.connect(transport);
    return client;
  }
  const text = (r: Awaited<ReturnType<Client['callTool']>>) => (r.content as Array<{ text: string }>)[0].text;

  it('a path argument cannot leave its route: dot segments are refused, slashes stay inside the segment', async () => {
    const client = await agent();
    for (const id of ['..', '.', '%2e%2e', '../config', '..%2f..%2fconfig', 'light.kitchen/../../config']) {
      const r = await client.callTool({ name: 'home_state', arguments: { entity_id: id } });
      expect(r.isError, `entity_id ${id}: ${text(r)}`).toBe(true);
      expect(text(r)).not.toContain('API running');
    }
    const dots = await client.callTool({ name: 'home_state', arguments: { entity_id: '..' } });
    expect(text(dots)).toMatch(/entity_id/);
    // A call with a real id still works.
    const ok = await client.callTool({ name: 'home_state', arguments: { entity_id: 'light.kitchen' } });
    expect(ok.isError, text(ok)).toBeFalsy();
    expect(JSON.parse(text(ok)).entity_id).toBe('light.kitchen');
    await client.close();
  });

  it('a resource template variable cannot leave its route either', async () => {
    const client = await agent();
    await expect(client.readResource({ uri: 'hamlet://mail/inboxes/..' })).rejects.toThrow(/inbox_id/);
    await client.close();
  });
});
