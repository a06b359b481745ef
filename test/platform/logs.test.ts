// Secrets never reach the log: a full run across all five services with the log captured,
// then the whole log searched for every secret the run made or used.
import { Writable } from 'node:stream';
import WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { redactUrl } from '../../src/platform/redact.js';
import { startHamlet, type Hamlet } from '../../src/server.js';
import { testEnv, testStorage } from '../helpers/hamlet.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';

describe('redactUrl', () => {
  it('masks secret query values and keeps the rest', () => {
    expect(redactUrl('/api/verify?token=abc&x=1')).toBe('/api/verify?token=[redacted]&x=1');
    expect(redactUrl('/v0?api_key=am_123&inbox_id=a')).toBe('/v0?api_key=[redacted]&inbox_id=a');
    expect(redactUrl('/api/states?access_token=zz')).toBe('/api/states?access_token=[redacted]');
    expect(redactUrl('/x?X-Amz-Signature=1&sig=2&apiKey=3&password=4&page=2')).toBe(
      '/x?X-Amz-Signature=[redacted]&sig=[redacted]&apiKey=[redacted]&password=[redacted]&page=2',
    );
    expect(redactUrl('/plain/path')).toBe('/plain/path');
    expect(redactUrl('http://u:pw@host/a?token=1')).toBe('http://u:****@host/a?token=[redacted]');
  });

  it('walks the query as splitting it into pairs would, on generated URLs', () => {
    // The reading redactUrl had before it walked the query with indexOf (split, map, join): the oracle.
    const bySplit = (url: string, drop: boolean): string => {
      const q = url.indexOf('?');
      if (q < 0) return redactUrl(url, drop);
      const head = redactUrl(url.slice(0, q), drop);
      const query = url
        .slice(q + 1)
        .split('&')
        .map((pair) => {
          const eq = pair.indexOf('=');
          if (eq < 0 || eq === pair.length - 1) return pair;
          const name = pair.slice(0, eq);
          const secret = redactUrl(`/?${name}=x`).endsWith('[redacted]');
          return secret ? `${name}=[redacted]` : drop ? `${name}=…` : pair;
        })
        .join('&');
      return `${head}?${query}`;
    };
    // A seeded generator, so a failure names a case that can be run again.
    let seed = 7;
    const random = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    const pieces = ['a', 'token', 'page', '=', '=', '&', '&', '?', '%3D', '%zz', '+', 'api_key', '1', 'x'.repeat(40)];
    for (let i = 0; i < 3000; i++) {
      let url = '/p';
      for (let k = random(14); k > 0; k--) url += pieces[random(pieces.length)];
      for (const drop of [false, true]) expect(redactUrl(url, drop), `${url} (drop: ${drop})`).toBe(bySplit(url, drop));
    }
  });
});

describe('the request log of a full run', () => {
  let hamlet: Hamlet | undefined;
  let sink: SmtpSink | undefined;
  let storage: Awaited<ReturnType<typeof testStorage>> | undefined;
  afterAll(async () => {
    await hamlet?.stop();
    await sink?.close();
    await storage?.drop();
  });

  it('holds none of the secrets the run made or used', async () => {
    sink = await startSmtpSink();
    storage = await testStorage();
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const config = loadConfig(
      testEnv(storage, ['blog', 'mail', 'community', 'home', 'workflow'], {
        HAMLET_LOG_LEVEL: 'debug',
        HAMLET_SMTP_RELAY: sink.url,
        HAMLET_RATE_LIMITS: 'off',
      }),
    );
    hamlet = await startHamlet(config, { logger: createLogger({ level: 'debug', pretty: false, destination }) });
    const url = (s: 'blog' | 'mail' | 'community' | 'home' | 'workflow') => hamlet!.services[s]!.urls.api;
    const secrets: Record<string, string> = {};
    const json = async (res: Response) => {
      const text = await res.text();
      return text ? JSON.parse(text) : undefined;
    };

    // Blog: sign-up, the verification link from the mail (its token claims the key), the key.
    const email = 'logged@example.org';
    expect(
      (
        await fetch(url('blog') + '/api/register', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, name: 'Logged', slug: 'logged' }),
        })
      ).status,
    ).toBe(200);
    const mail = await sink.waitFor((m) => m.envelope.to.includes(email));
    secrets.blogVerificationToken = /token=([0-9a-f-]{36})/.exec(mail.parsed.text ?? '')![1]!;
    const verified = await json(
      await fetch(url('blog') + `/api/verify?token=${secrets.blogVerificationToken}`, {
        headers: { accept: 'application/json' },
      }),
    );
    secrets.blogApiKey = verified.apiKey;
    expect(
      (
        await fetch(url('blog') + '/api/publish', {
          method: 'POST',
          headers: { authorization: `Bearer ${secrets.blogApiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'Hello', content: 'World' }),
        })
      ).status,
    ).toBeLessThan(300);

    // Home: a long-lived access token, as HA clients send it in the query string.
    secrets.homeToken = (await hamlet.platform.keys.create('home')).key;
    expect((await fetch(url('home') + `/api/states?access_token=${secrets.homeToken}`)).status).toBeLessThan(500);
    expect(
      (await fetch(url('home') + '/api/states', { headers: { authorization: `Bearer ${secrets.homeToken}` } })).status,
    ).toBe(200);

    // Mail: a key on the WebSocket URL (as the AgentMail SDK sends it), and a signed download link.
    secrets.mailKey = (await hamlet.platform.keys.create('mail')).key;
    const mailAuth = { authorization: `Bearer ${secrets.mailKey}`, 'content-type': 'application/json' };
    const ws = new WebSocket(`${url('mail').replace('http', 'ws')}/v0?api_key=${secrets.mailKey}`);
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    ws.close();
    await new Promise((resolve) => ws.once('close', resolve));
    // A refused upgrade is logged as a request: here someone used their home token on mail.
    const refused = new WebSocket(`${url('mail').replace('http', 'ws')}/v0?api_key=${secrets.homeToken}`);
    refused.on('error', () => {});
    expect(
      await new Promise((resolve) =>
        refused.once('unexpected-response', (_req, res) => (resolve(res.statusCode), refused.terminate())),
      ),
    ).toBe(401);
    const a = await json(
      await fetch(url('mail') + '/v0/inboxes', {
        method: 'POST',
        headers: mailAuth,
        body: JSON.stringify({ username: 'logs-a' }),
      }),
    );
    const b = await json(
      await fetch(url('mail') + '/v0/inboxes', {
        method: 'POST',
        headers: mailAuth,
        body: JSON.stringify({ username: 'logs-b' }),
      }),
    );
    const sent = await json(
      await fetch(url('mail') + `/v0/inboxes/${a.inbox_id}/messages/send`, {
        method: 'POST',
        headers: mailAuth,
        body: JSON.stringify({ to: b.inbox_id, subject: 'hi', text: 'there' }),
      }),
    );
    const raw = await json(
      await fetch(url('mail') + `/v0/inboxes/${a.inbox_id}/messages/${encodeURIComponent(sent.message_id)}/raw`, {
        headers: mailAuth,
      }),
    );
    const link: string = raw.download_url;
    expect(link).toContain('/v0/downloads/');
    secrets.downloadSignature = link.slice(link.lastIndexOf('.') + 1);
    secrets.downloadToken = link.slice(link.lastIndexOf('/') + 1);
    expect((await fetch(link)).status).toBe(200);

    // Community: the key the sign-up returns, used as a bearer token.
    const agent = await json(
      await fetch(url('community') + '/api/v1/agents/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'logged_agent', description: 'x' }),
      }),
    );
    secrets.communityKey = agent.agent.api_key;
    expect(
      (
        await fetch(url('community') + '/api/v1/agents/me', {
          headers: { authorization: `Bearer ${secrets.communityKey}` },
        })
      ).status,
    ).toBe(200);

    // Workflow: the n8n key header, and a key someone put in the query string.
    secrets.workflowKey = (await hamlet.platform.keys.create('workflow')).key;
    expect(
      (await fetch(url('workflow') + '/api/v1/workflows', { headers: { 'x-n8n-api-key': secrets.workflowKey } }))
        .status,
    ).toBe(200);
    expect((await fetch(url('workflow') + `/api/v1/workflows?token=${secrets.workflowKey}`)).status).toBe(401);

    // Every request was logged (the test would prove nothing otherwise)…
    const log = lines.join('');
    for (const path of [
      '/api/verify',
      '/api/states',
      '/v0?api_key=',
      '/v0/downloads/',
      '/api/v1/agents/me',
      '/api/v1/workflows?token=',
    ])
      expect(log, path).toContain(path);
    // …and no secret is in it, whole or as its tell-tale tail.
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret, name).toBeTruthy();
      expect(log.includes(secret), `${name} appears in the log`).toBe(false);
      expect(log.includes(secret.slice(-12)), `the end of ${name} appears in the log`).toBe(false);
    }
  }, 90_000);
});

describe('credential headers in logged objects', () => {
  it('are censored by what their name says, whichever service invented them; other headers stay', () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      pretty: false,
      destination: { write: (line: string) => void lines.push(line) },
    });
    const headers = {
      authorization: 'Bearer a',
      'x-n8n-api-key': 'b',
      'x-workflow-api-key': 'c',
      'x-auth-token': 'd',
      cookie: 'e',
      accept: 'application/json',
    };
    logger.info({ req: { headers }, headers, apiKey: 'f', nested: { password: 'g' } }, 'probe');
    const logged = JSON.parse(lines[0]);
    for (const h of [logged.headers, logged.req.headers]) {
      expect(h).toEqual({
        authorization: '[redacted]',
        'x-n8n-api-key': '[redacted]',
        'x-workflow-api-key': '[redacted]',
        'x-auth-token': '[redacted]',
        cookie: '[redacted]',
        accept: 'application/json',
      });
    }
    expect(logged.apiKey).toBe('[redacted]');
    expect(logged.nested.password).toBe('[redacted]');
  });
});

describe('--pretty', () => {
  it('writes one line per entry, credentials still censored', async () => {
    const chunks: string[] = [];
    const destination = new Writable({ write: (chunk: Buffer, _enc, done) => (chunks.push(chunk.toString()), done()) });
    const logger = createLogger({ level: 'info', pretty: true, destination });
    logger.info(
      {
        method: 'GET',
        url: '/api/states?api_key=secret-value',
        status: 200,
        ms: 1.5,
        headers: { authorization: 'Bearer x' },
      },
      'request',
    );
    logger.info('second');
    const lines = chunks.join('').split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/INFO.*request.*GET.*\/api\/states.*200/);
    expect(lines[0]).not.toContain('secret-value');
    expect(lines[0]).not.toContain('Bearer x');
  });
});
