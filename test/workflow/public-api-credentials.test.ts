// /credentials as n8n's public API has them: data stored encrypted (AES-256-GCM) and never
// returned, the schema of each type, HTTP Request authentication with the stored data, and
// activation refused for a node whose credential is missing (issue 11, item 5).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHmac } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { startWorkflowServer, wrap, type WorkflowTestServer } from './helpers.js';

let s: WorkflowTestServer;
let target: Server;
let targetUrl: string;
const seen: Array<{ url: string; headers: IncomingMessage['headers']; body: string }> = [];

beforeAll(async () => {
  // A local API the HTTP Request node calls; it records what arrives and hands out OAuth2 tokens.
  target = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body });
      res.setHeader('content-type', 'application/json');
      if (req.url === '/token')
        return res.end(JSON.stringify({ access_token: 'tok-from-oauth', token_type: 'bearer' }));
      res.end(
        JSON.stringify({
          ok: true,
          authorization: req.headers.authorization ?? null,
          apiKey: req.headers['x-api-key'] ?? null,
          url: req.url,
        }),
      );
    });
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  s = await startWorkflowServer({ env: { HAMLET_ALLOW_INTERNAL_REQUESTS: '1' } });
}, 60_000);
afterAll(async () => {
  await s?.stop();
  target?.close();
});

const create = (name: string, type: string, data: Record<string, unknown>) =>
  s.api('POST', '/credentials', { name, type, data });

/** Manual Trigger → HTTP Request v4.2 with the given authentication parameters and credentials. */
function httpWorkflow(
  name: string,
  auth: Record<string, unknown>,
  credentials: Record<string, unknown> | undefined,
  path = '/data',
) {
  return {
    name,
    nodes: [
      {
        id: 'm',
        name: 'Manual',
        type: 'n8n-nodes-base.manualTrigger',
        typeVersion: 1,
        position: [0, 0],
        parameters: {},
      },
      {
        id: 'h',
        name: 'Call API',
        type: 'n8n-nodes-base.httpRequest',
        typeVersion: 4.2,
        position: [200, 0],
        parameters: { url: targetUrl + path, ...auth, options: {} },
        ...(credentials ? { credentials } : {}),
      },
    ],
    connections: { Manual: { main: [[{ node: 'Call API', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
  };
}
const runOutput = async (wf: unknown) => {
  const { body } = await s.api('POST', '/workflows', wf);
  const e = await s.api('POST', `/workflows/${body.id}/execute`, {});
  return e.body;
};

describe('credentials API', () => {
  test('create answers the credential without its data; the data is stored encrypted', async () => {
    const c = await create('My basic', 'httpBasicAuth', { user: 'ann', password: 's3cret-pass' });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ name: 'My basic', type: 'httpBasicAuth', isManaged: false });
    expect(c.body.id).toMatch(/^[0-9A-Za-z]{16}$/);
    expect(c.body.data).toBeUndefined();
    expect(c.text).not.toContain('s3cret-pass');
    const project = (await s.api('GET', '/projects')).body.data[0];
    expect(c.body.shared).toEqual([
      {
        role: 'credential:owner',
        projectId: project.id,
        project: { id: project.id, name: project.name, type: 'personal' },
        createdAt: c.body.createdAt,
        updatedAt: c.body.updatedAt,
        credentialsId: c.body.id,
      },
    ]);
    const got = await s.api('GET', `/credentials/${c.body.id}`);
    expect(got.body).toEqual(c.body);
    expect((await s.api('GET', '/credentials')).body.data.map((x: any) => x.id)).toContain(c.body.id);
    // What is at rest: ciphertext only, never the password.
    const row = (await s.t.hamlet.platform.db.kysely
      .selectFrom('workflow_credentials' as any)
      .selectAll()
      .where('id', '=', c.body.id)
      .executeTakeFirst()) as any;
    expect(row.data).toMatch(/^v1:[A-Za-z0-9+/=]+$/);
    expect(row.data).not.toContain('s3cret');
    expect(Buffer.from(row.data.slice(3), 'base64').toString('latin1')).not.toContain('s3cret');
  });

  test('bad bodies are 400s; unknown types named; schema per type; DELETE answers the credential, then 404', async () => {
    expect((await s.api('POST', '/credentials', { name: 'x', type: 'httpBasicAuth' })).body).toEqual({
      message: "request/body must have required property 'data'",
    });
    expect((await create('x', 'slackApi', {})).body.message).toMatch(
      /^req\.body\.type is not a known type: 'slackApi'/,
    );
    expect((await create('x', 'httpHeaderAuth', { value: 'v' })).body).toEqual({
      message: 'request/body/data requires property "name"',
    });
    expect((await create('x', 'httpHeaderAuth', { name: 'a', value: 'v', extra: 1 })).body).toEqual({
      message: 'request/body/data is not allowed to have the additional property "extra"',
    });
    expect((await create('x', 'httpBasicAuth', { user: 5 })).body).toEqual({
      message: 'request/body/data/user must be string',
    });
    const schema = await s.api('GET', '/credentials/schema/httpHeaderAuth');
    expect(schema.body).toEqual({
      additionalProperties: false,
      type: 'object',
      properties: { name: { type: 'string' }, value: { type: 'string' } },
      required: ['name'],
    });
    expect((await s.api('GET', '/credentials/schema/slackApi')).status).toBe(404);
    const c = await create('to delete', 'httpBearerAuth', { token: 't' });
    const d = await s.api('DELETE', `/credentials/${c.body.id}`);
    expect(d.status).toBe(200);
    expect(d.body.id).toBe(c.body.id);
    expect((await s.api('DELETE', `/credentials/${c.body.id}`)).status).toBe(404);
  });

  test('PATCH renames and replaces or merges data', async () => {
    const c = await create('patch me', 'httpHeaderAuth', { name: 'x-api-key', value: 'one' });
    const renamed = await s.api('PATCH', `/credentials/${c.body.id}`, { name: 'patched' });
    expect(renamed.body.name).toBe('patched');
    expect((await s.api('PATCH', `/credentials/${c.body.id}`, { data: { value: 'two' } })).body).toEqual({
      message: 'request/body/data requires property "name"',
    });
    expect(
      (await s.api('PATCH', `/credentials/${c.body.id}`, { data: { value: 'two' }, isPartialData: true })).status,
    ).toBe(200);
    const out = await runOutput(
      httpWorkflow(
        'patched header',
        { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' },
        { httpHeaderAuth: { id: c.body.id, name: 'patched' } },
      ),
    );
    expect(out.data.resultData.runData['Call API'][0].data.main[0][0].json.apiKey).toBe('two');
  });
});

describe('HTTP Request authentication', () => {
  test('generic Basic, Header, Query and Bearer credentials are sent with the request', async () => {
    const basic = await create('basic', 'httpBasicAuth', { user: 'ann', password: 'pw' });
    const header = await create('header', 'httpHeaderAuth', { name: 'X-API-Key', value: 'k-123' });
    const query = await create('query', 'httpQueryAuth', { name: 'api_key', value: 'q-456' });
    const bearer = await create('bearer', 'httpBearerAuth', { token: 'b-789' });
    const json = async (auth: Record<string, unknown>, creds: Record<string, unknown>) =>
      (await runOutput(httpWorkflow('auth', auth, creds))).data.resultData.runData['Call API'][0].data.main[0][0].json;
    expect(
      (
        await json(
          { authentication: 'genericCredentialType', genericAuthType: 'httpBasicAuth' },
          { httpBasicAuth: { id: basic.body.id, name: 'basic' } },
        )
      ).authorization,
    ).toBe(`Basic ${Buffer.from('ann:pw').toString('base64')}`);
    expect(
      (
        await json(
          { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' },
          { httpHeaderAuth: { id: header.body.id, name: 'header' } },
        )
      ).apiKey,
    ).toBe('k-123');
    expect(
      (
        await json(
          { authentication: 'genericCredentialType', genericAuthType: 'httpQueryAuth' },
          { httpQueryAuth: { id: query.body.id, name: 'query' } },
        )
      ).url,
    ).toBe('/data?api_key=q-456');
    expect(
      (
        await json(
          { authentication: 'genericCredentialType', genericAuthType: 'httpBearerAuth' },
          { httpBearerAuth: { id: bearer.body.id, name: 'bearer' } },
        )
      ).authorization,
    ).toBe('Bearer b-789');
    // predefinedCredentialType naming a generic type, and a reference by name only (an export without ids).
    expect(
      (
        await json(
          { authentication: 'predefinedCredentialType', nodeCredentialType: 'httpHeaderAuth' },
          { httpHeaderAuth: { name: 'header' } },
        )
      ).apiKey,
    ).toBe('k-123');
  });

  test('HTTP Request v1 basicAuth, and OAuth2 client credentials fetch a token first', async () => {
    const basic = await create('legacy basic', 'httpBasicAuth', { user: 'bo', password: 'x' });
    const v1 = httpWorkflow('v1', {}, { httpBasicAuth: { id: basic.body.id, name: 'legacy basic' } });
    (v1.nodes[1] as any).typeVersion = 1;
    (v1.nodes[1] as any).parameters = { url: targetUrl + '/legacy', authentication: 'basicAuth', options: {} };
    const out = await runOutput(v1);
    expect(out.data.resultData.runData['Call API'][0].data.main[0][0].json.authorization).toBe(
      `Basic ${Buffer.from('bo:x').toString('base64')}`,
    );
    const oauth = await create('oauth', 'oAuth2Api', {
      grantType: 'clientCredentials',
      accessTokenUrl: targetUrl + '/token',
      clientId: 'cid',
      clientSecret: 'csecret',
      scope: 'read',
    });
    const o = await runOutput(
      httpWorkflow(
        'oauth',
        { authentication: 'genericCredentialType', genericAuthType: 'oAuth2Api' },
        { oAuth2Api: { id: oauth.body.id, name: 'oauth' } },
      ),
    );
    expect(o.data.resultData.runData['Call API'][0].data.main[0][0].json.authorization).toBe('Bearer tok-from-oauth');
    const tokenCall = seen.find((r) => r.url === '/token')!;
    expect(tokenCall.headers.authorization).toBe(`Basic ${Buffer.from('cid:csecret').toString('base64')}`);
    expect(new URLSearchParams(tokenCall.body).get('grant_type')).toBe('client_credentials');
  });

  test("a missing credential fails the node with n8n's message; nothing is sent unauthenticated", async () => {
    const before = seen.length;
    const out = await runOutput(
      httpWorkflow(
        'missing',
        { authentication: 'genericCredentialType', genericAuthType: 'httpBasicAuth' },
        { httpBasicAuth: { id: 'gone', name: 'gone' } },
      ),
    );
    expect(out.status).toBe('error');
    expect(out.data.resultData.error.message).toBe(
      'Credential with ID "gone" does not exist for type "httpBasicAuth".',
    );
    const none = await runOutput(
      httpWorkflow('no ref', { authentication: 'genericCredentialType', genericAuthType: 'httpBasicAuth' }, undefined),
    );
    expect(none.data.resultData.error.message).toBe(
      'Node "Call API" does not have any credentials set for "httpBasicAuth"',
    );
    expect(seen.length).toBe(before);
  });
});

describe('activation', () => {
  const hooked = (name: string, credentials?: Record<string, unknown>) => {
    const wf = httpWorkflow(
      name,
      { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' },
      credentials,
    );
    wf.nodes[0] = {
      id: 'w',
      name: 'Manual',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      position: [0, 0],
      parameters: { path: `cred-${name}`, httpMethod: 'POST' },
    };
    return wf;
  };

  test("a node whose credential is missing or unknown refuses activation with n8n's 400; with it, activation works", async () => {
    const missing = (await s.api('POST', '/workflows', hooked('none'))).body;
    const r = await s.api('POST', `/workflows/${missing.id}/activate`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      message:
        'Cannot publish workflow: 1 node have configuration issues: Node "Call API": Missing required credential: httpHeaderAuth',
    });
    const dangling = (
      await s.api('POST', '/workflows', hooked('dangling', { httpHeaderAuth: { id: 'deleted', name: 'deleted' } }))
    ).body;
    expect((await s.api('POST', `/workflows/${dangling.id}/activate`)).status).toBe(400);
    const cred = await create('for activation', 'httpHeaderAuth', { name: 'x-api-key', value: 'v' });
    const ok = (
      await s.api('POST', '/workflows', hooked('ok', { httpHeaderAuth: { id: cred.body.id, name: 'for activation' } }))
    ).body;
    const on = await s.api('POST', `/workflows/${ok.id}/activate`);
    expect(on.status).toBe(200);
    expect(on.body.active).toBe(true);
    const webhook = await s.call('POST', '/webhook/cred-ok', {
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(webhook.status).toBe(200);
  });
});

describe('Webhook authentication', () => {
  const guarded = async (path: string, authentication: string, credentials: Record<string, unknown>) => {
    const wf = {
      name: `guarded ${path}`,
      nodes: [
        {
          id: 'w',
          name: 'Hook',
          type: 'n8n-nodes-base.webhook',
          typeVersion: 2,
          position: [0, 0],
          parameters: { path, httpMethod: 'POST', responseMode: 'lastNode', authentication },
          credentials,
        },
      ],
      connections: {},
      settings: { executionOrder: 'v1' },
    };
    const { body } = await s.api('POST', '/workflows', wf);
    expect((await s.api('POST', `/workflows/${body.id}/activate`)).status).toBe(200);
  };
  const post = (path: string, headers: Record<string, string> = {}) =>
    s.call('POST', `/webhook/${path}`, {
      body: '{"a":1}',
      headers: { 'content-type': 'application/json', ...headers },
    });
  const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

  test('basicAuth: none is 401 with a Basic challenge, wrong is 403, right runs', async () => {
    const c = await create('hook basic', 'httpBasicAuth', { user: 'hook', password: 'pw' });
    await guarded('auth-basic', 'basicAuth', { httpBasicAuth: { id: c.body.id, name: 'hook basic' } });
    const none = await post('auth-basic');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Basic realm="Webhook"');
    expect(none.body.message).toBe('Authorization is required!');
    const wrong = await post('auth-basic', { authorization: basic('hook', 'nope') });
    expect(wrong.status).toBe(403);
    expect(wrong.body.message).toBe('Authorization data is wrong!');
    const right = await post('auth-basic', { authorization: basic('hook', 'pw') });
    expect(right.status).toBe(200);
    expect(right.body.body).toEqual({ a: 1 });
  });

  test('headerAuth and jwtAuth (HS256, expiry checked)', async () => {
    const h = await create('hook header', 'httpHeaderAuth', { name: 'X-Hook-Key', value: 'k1' });
    await guarded('auth-header', 'headerAuth', { httpHeaderAuth: { id: h.body.id, name: 'hook header' } });
    expect((await post('auth-header')).status).toBe(403);
    expect((await post('auth-header', { 'x-hook-key': 'k2' })).status).toBe(403);
    expect((await post('auth-header', { 'x-hook-key': 'k1' })).status).toBe(200);

    const j = await create('hook jwt', 'jwtAuth', { keyType: 'passphrase', secret: 'jwt-secret', algorithm: 'HS256' });
    await guarded('auth-jwt', 'jwtAuth', { jwtAuth: { id: j.body.id, name: 'hook jwt' } });
    const token = (claims: Record<string, unknown>, secret = 'jwt-secret') => {
      const head = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
      const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
      return `${head}.${body}.${createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url')}`;
    };
    const now = Math.floor(Date.now() / 1000);
    expect((await post('auth-jwt')).status).toBe(401);
    expect((await post('auth-jwt', { authorization: `Bearer ${token({ sub: 'a' }, 'other')}` })).status).toBe(403);
    expect((await post('auth-jwt', { authorization: `Bearer ${token({ sub: 'a', exp: now - 10 })}` })).status).toBe(
      403,
    );
    expect((await post('auth-jwt', { authorization: `Bearer ${token({ sub: 'a', exp: now + 600 })}` })).status).toBe(
      200,
    );
  });

  test('a guarded webhook whose credential was deleted lets nobody in', async () => {
    const c = await create('hook doomed', 'httpBasicAuth', { user: 'u', password: 'p' });
    await guarded('auth-doomed', 'basicAuth', { httpBasicAuth: { id: c.body.id, name: 'hook doomed' } });
    await s.api('DELETE', `/credentials/${c.body.id}`);
    const r = await post('auth-doomed', { authorization: basic('u', 'p') });
    expect(r.status).toBe(500);
    expect(r.body.message).toBe('No authentication data defined on node!');
  });
});

describe('the key', () => {
  test('generated into the data directory (0600) on first start; credentials decrypt after a restart; another key cannot read them', async () => {
    const file = path.join(s.t.dataDir, 'workflow-encryption-key');
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const c = await create('survives', 'httpHeaderAuth', { name: 'x-api-key', value: 'kept' });
    const wf = httpWorkflow(
      'restart',
      { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' },
      { httpHeaderAuth: { id: c.body.id, name: 'survives' } },
    );
    await s.t.stop();
    s = await wrap(await s.t.restart({ HAMLET_ALLOW_INTERNAL_REQUESTS: '1' }), s.key);
    expect((await runOutput(wf)).data.resultData.runData['Call API'][0].data.main[0][0].json.apiKey).toBe('kept');
    await s.t.stop();
    s = await wrap(
      await s.t.restart({ HAMLET_ALLOW_INTERNAL_REQUESTS: '1', WORKFLOW_ENCRYPTION_KEY: 'a different key' }),
      s.key,
    );
    const failed = await runOutput(wf);
    expect(failed.status).toBe('error');
    expect(failed.data.resultData.error.message).toBe('Credentials "survives" could not be decrypted');
  }, 60_000);
});
