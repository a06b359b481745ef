// Issue 27, finding 4: with HAMLET_TRACE_BODIES=on the trace stored community claim tokens,
// verification codes, signed download tokens and blog verification tokens in clear. Here one
// run makes every secret the five services hand out or accept (keys, tokens in URLs and bodies,
// signed links, verification codes, webhook secrets and ids, credential data), then the stored
// trace is searched for each: its rows (SQLite and PostgreSQL), and on SQLite the database file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../../src/platform/db.js';
import { startAgentRig, type AgentRig } from '../console/agent-rig.js';
import { waitFor } from '../helpers/wait.js';

const VERIFY = /\/api\/verify\?token=([0-9a-f-]{36})/;

describe('the trace with HAMLET_TRACE_BODIES=on keeps no secret', () => {
  let rig: AgentRig;
  const secrets: Record<string, string> = {};
  /** Secrets that Hamlet keeps nowhere else in clear (hashed or encrypted, or never stored). */
  const onlyInTrace = new Set<string>();

  beforeAll(async () => {
    rig = await startAgentRig({ HAMLET_TRACE_BODIES: 'on' });
    const { t, call } = rig;
    const url = (s: keyof AgentRig['keys']) => t.url(s);
    const keep = (name: string, value: string | undefined, clearElsewhere = false) => {
      expect(value, name).toBeTruthy();
      secrets[name] = value!;
      if (!clearElsewhere) onlyInTrace.add(name);
    };
    // A blog's key is mailed to its agent (here a Hamlet inbox, which keeps the mail).
    for (const [service, key] of Object.entries(rig.keys)) keep(`${service} key`, key, service === 'blog');

    // Blog: a verification link mailed to a Hamlet inbox (the agent reads it through the mail
    // API), verified as a page (the key in HTML), then the key regenerated.
    const inbox = (await call('mail', 'POST', '/v0/inboxes', { username: 'second-blogger' })).body.inbox_id as string;
    expect(
      (await call('blog', 'POST', '/api/register', { email: inbox, name: 'Second', slug: 'second-blogger' })).status,
    ).toBe(200);
    const token = await waitFor(
      async () => {
        for (const item of (await call('mail', 'GET', `/v0/inboxes/${inbox}/messages`)).body.messages ?? []) {
          const m = (await call('mail', 'GET', `/v0/inboxes/${inbox}/messages/${encodeURIComponent(item.message_id)}`))
            .body;
          const found = VERIFY.exec(`${m.text ?? ''} ${m.html ?? ''}`)?.[1];
          if (found) return found;
        }
        return undefined;
      },
      { message: 'the second verification mail' },
    );
    keep('blog verify token (mailed to an inbox)', token, true);
    const page = await fetch(`${url('blog')}/api/verify?token=${token}`, { headers: { accept: 'text/html' } });
    const pageKey = /hamlet_blog_[A-Za-z0-9]+/.exec(await page.text())?.[0];
    keep('blog key (verification page)', pageKey, true);
    keep('blog key (regenerated)', (await call('blog', 'POST', '/api/regenerate-key', {}, pageKey)).body.apiKey, true);

    // Blog to an outside address: the link waits in the outbox, where the operator reads it.
    const { key: operator } = await t.hamlet.platform.keys.create('mail', { name: 'hamlet-console' });
    keep("mail key (the operator's)", operator);
    expect(
      (
        await call('blog', 'POST', '/api/register', {
          email: 'outsider@example.org',
          name: 'Outsider',
          slug: 'outsider',
        })
      ).status,
    ).toBe(200);
    const held = await waitFor(
      async () =>
        ((await call('mail', 'GET', '/v0/outbox', undefined, operator)).body.messages as any[]).find((m) =>
          m.to.includes('outsider@example.org'),
        ),
      {
        message: 'the held verification mail',
      },
    );
    keep('blog verify token (held in the outbox)', VERIFY.exec(held.text)?.[1], true);

    // Mail: an agent's own sign-up (no key) and the code it verifies with, mailed to its human's inbox.
    const signedUp = (
      await call('mail', 'POST', '/v0/agent/sign-up', { username: 'secret-agent', human_email: inbox }, '')
    ).body;
    keep('mail key (agent sign-up)', signedUp.api_key);
    const otp = await waitFor(
      async () => {
        const mail = (
          (await call('mail', 'GET', `/v0/inboxes/${inbox}/messages`)).body.messages as Array<{
            subject?: string;
            message_id: string;
          }>
        ).find((m) => m.subject === "Your agent's verification code");
        return (
          mail &&
          /verification code: (\d{6})/.exec(
            (await call('mail', 'GET', `/v0/inboxes/${inbox}/messages/${encodeURIComponent(mail.message_id)}`)).body
              .text,
          )?.[1]
        );
      },
      { message: 'the agent verification code' },
    );
    keep('mail agent verification code', otp, true);
    expect((await call('mail', 'POST', '/v0/agent/verify', { otp_code: otp }, signedUp.api_key)).status).toBe(200);

    // Community: a sign-up's key, claim URL and verification code; the claim page and form.
    const agent = (
      await call(
        'community',
        'POST',
        '/api/v1/agents/register',
        { name: 'secret_keeper', description: 'has secrets' },
        '',
      )
    ).body.agent;
    keep('community key (sign-up)', agent.api_key);
    const claimToken = agent.claim_url.slice(agent.claim_url.lastIndexOf('/') + 1);
    keep('community claim token', claimToken);
    keep('community verification code', agent.verification_code, true);
    expect((await fetch(agent.claim_url)).status).toBe(200);
    const claimed = await fetch(agent.claim_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `verification_code=${agent.verification_code}&owner=keeper`,
    });
    expect(claimed.status).toBe(200);

    // Mail: a minted key, a webhook's signing secret, signed download links (and their use), a
    // key on the WebSocket URL.
    keep('mail key (minted)', (await call('mail', 'POST', '/v0/api-keys', { name: 'minted' })).body.api_key);
    const webhook = await call('mail', 'POST', '/v0/webhooks', {
      url: 'https://hooks.example.org/in',
      event_types: ['message.received'],
    });
    keep('mail webhook secret', webhook.body.secret, true);
    const sent = await call('mail', 'POST', `/v0/inboxes/${rig.inbox}/messages/send`, {
      to: [inbox],
      subject: 'With an attachment',
      text: 'see attached',
      attachments: [
        { filename: 'notes.txt', content_type: 'text/plain', content: Buffer.from('private notes').toString('base64') },
      ],
    });
    const message = (
      await call('mail', 'GET', `/v0/inboxes/${rig.inbox}/messages/${encodeURIComponent(sent.body.message_id)}`)
    ).body;
    const attachment = await call(
      'mail',
      'GET',
      `/v0/inboxes/${rig.inbox}/messages/${encodeURIComponent(sent.body.message_id)}/attachments/${message.attachments[0].attachment_id}`,
    );
    const raw = await call(
      'mail',
      'GET',
      `/v0/inboxes/${rig.inbox}/messages/${encodeURIComponent(sent.body.message_id)}/raw`,
    );
    for (const [name, link] of [
      ['attachment', attachment.body.download_url],
      ['raw message', raw.body.download_url],
    ] as const) {
      keep(`mail download token (${name})`, link.slice(link.lastIndexOf('/') + 1));
      expect((await fetch(link)).status).toBe(200);
    }
    expect((await fetch(`${url('mail')}/v0?api_key=${rig.keys.mail}`)).status).toBeLessThan(500);

    // Home: a token in the query string, an automation's webhook id (the id is its credential).
    expect((await fetch(`${url('home')}/api/states?access_token=${rig.keys.home}`)).status).toBeLessThan(500);
    const hook = `hook-${Math.random().toString(36).slice(2)}-${Date.now()}`;
    keep('home webhook id', hook, true);
    const automation = await call('home', 'POST', '/api/config/automation/config/secret_hook', {
      alias: 'Secret hook',
      triggers: [{ trigger: 'webhook', webhook_id: hook, allowed_methods: ['POST'] }],
      actions: [{ action: 'light.turn_on', target: { entity_id: 'light.hall' } }],
    });
    expect(automation.status).toBe(200);
    expect((await call('home', 'GET', '/api/config/automation/config/secret_hook')).status).toBe(200);
    expect((await fetch(`${url('home')}/api/webhook/${hook}`, { method: 'POST' })).status).toBe(200);

    // Workflow: a credential's data, and a key someone put in the query string.
    const credential = await call('workflow', 'POST', '/api/v1/credentials', {
      name: 'Partner API',
      type: 'httpHeaderAuth',
      data: { name: 'X-Partner-Key', value: 'partner-secret-0123456789' },
    });
    expect(credential.status).toBe(200);
    keep('workflow credential value', 'partner-secret-0123456789');
    const patched = await call('workflow', 'PATCH', `/api/v1/credentials/${credential.body.id}`, {
      data: { name: 'X-Partner-Key', value: 'partner-secret-rotated-987' },
    });
    expect(patched.status).toBe(200);
    keep('workflow credential value (changed)', 'partner-secret-rotated-987');
    expect((await fetch(`${url('workflow')}/api/v1/workflows?token=${rig.keys.workflow}`)).status).toBe(401);
  }, 120_000);
  afterAll(async () => rig?.t.destroy());

  it('has recorded the calls that carried them, bodies and all', async () => {
    const { entries } = await rig.t.hamlet.platform.trace.query({ limit: 1000 });
    const recorded = (service: string, route: string) =>
      entries.find(
        (e) => e.service === service && e.route === route && (e.requestBody !== null || e.responseBody !== null),
      );
    for (const [service, route] of [
      ['community', '/api/v1/agents/register'],
      ['community', '/claim/:token'],
      ['blog', '/api/verify'],
      ['blog', '/api/regenerate-key'],
      ['mail', '/v0/outbox'],
      ['mail', '/v0/inboxes/:inbox_id/messages/:message_id'],
      ['mail', '/v0/api-keys'],
      ['mail', '/v0/webhooks'],
      ['mail', '/v0/downloads/:token'],
      ['home', '/api/config/automation/config/:id'],
      ['workflow', '/api/v1/credentials'],
    ]) {
      expect(recorded(service, route), `${service} ${route}`).toBeTruthy();
    }
    // What stays readable: the shape of the bodies, and the secrets' places.
    const register = entries.find(
      (e) => e.route === '/api/v1/agents/register' && e.responseBody?.includes('secret_keeper'),
    )!;
    expect(register.responseBody).toContain('"verification_code":"[redacted]"');
    expect(register.responseBody).toContain('"claim_url":"http://');
    const credential = entries.find((e) => e.route === '/api/v1/credentials' && e.method === 'POST')!;
    expect(credential.requestBody).toBe('{"name":"Partner API","type":"httpHeaderAuth","data":"[redacted]"}');
  });

  it('holds none of them in its rows', async () => {
    const { db } = rig.t.hamlet.platform;
    await rig.t.hamlet.platform.trace.flush();
    // A row per stored batch (trace-batch.ts), its entries in `data`.
    const rows = (await sql<{ entries: number | string }>`SELECT * FROM platform_trace`.execute(db.kysely)).rows;
    const text = JSON.stringify(rows);
    expect(rows.reduce((sum, r) => sum + Number(r.entries), 0)).toBeGreaterThan(50);
    for (const [name, secret] of Object.entries(secrets)) {
      expect(text.includes(secret), `${name} is stored in the trace`).toBe(false);
      expect(text.includes(secret.slice(-12)), `the end of ${name} is stored in the trace`).toBe(false);
    }
  });

  it('holds none of those kept nowhere else in clear in the SQLite file', async ({ skip }) => {
    const { db } = rig.t.hamlet.platform;
    if (!db.sqlite) return skip();
    await db.sqlite.run((raw) => raw.pragma('wal_checkpoint(TRUNCATE)'));
    const file = readFileSync(path.join(rig.t.dataDir, 'hamlet.sqlite')).toString('latin1');
    for (const name of onlyInTrace) expect(file.includes(secrets[name]), `${name} is in the database file`).toBe(false);
  });
});
