// Outside mail, one story: with no relay, mail to other domains (an API send, the blog's
// verification mail through the platform mailer) is held in the outbox, labelled `queued`,
// listed by GET /v0/outbox and `hamlet mail outbox`; when Hamlet starts with a relay, it leaves.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { AgentMailClient } from 'agentmail';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestHamlet } from '../helpers/hamlet.js';
import { waitFor } from '../helpers/wait.js';
import { startMail, type MailTestEnv } from './helpers.js';
import { cliArgs } from '../helpers/cli.js';

const TOKEN = /\/api\/verify\?token=([0-9a-f-]{36})/;

describe('the outbox: outside mail without a relay', () => {
  let env: MailTestEnv;
  let t: TestHamlet;
  let a: string;
  let b: string;
  let apiSent: string;
  let relay: SMTPServer | undefined;
  const relayed: Array<{ to: string[]; raw: string }> = [];

  beforeAll(async () => {
    env = await startMail({ services: ['blog', 'mail'] });
    t = env.t;
    a = (await env.client.inboxes.create({ username: 'outbox-a' })).inboxId;
    b = (await env.client.inboxes.create({ username: 'outbox-b' })).inboxId;
  });
  afterAll(async () => {
    await t?.destroy();
    await new Promise<void>((r) => (relay ? relay.close(() => r()) : r()));
  });

  it('holds an API send to another domain: queued, not bounced, listed with its text', async () => {
    const sent = await env.client.inboxes.messages.send(a, {
      to: ['friend@outside.test', b],
      subject: 'Held for a relay',
      text: 'See you soon',
    });
    apiSent = sent.messageId;
    const own = await env.client.inboxes.messages.get(a, sent.messageId);
    expect(own.labels).toEqual(expect.arrayContaining(['sent', 'queued']));
    expect(own.labels).not.toContain('bounced');
    // Our own inbox got its copy at once; only the outside recipient waits.
    expect((await env.client.inboxes.messages.get(b, sent.messageId)).subject).toBe('Held for a relay');

    const list = await env.call('GET', '/v0/outbox');
    expect(list.status).toBe(200);
    const held = list.body.messages.find((m: any) => m.message_id === sent.messageId);
    expect(held).toMatchObject({
      status: 'queued',
      source: 'inbox',
      inbox_id: a,
      from: a,
      to: ['friend@outside.test'],
      subject: 'Held for a relay',
    });
    expect(held.text.trim()).toBe('See you soon');
    const one = await env.call('GET', `/v0/outbox/${held.outbox_id}`);
    expect(one.body.outbox_id).toBe(held.outbox_id);
    expect((await env.call('GET', '/v0/outbox/no-such-id')).status).toBe(404);
  });

  it("shows an organization only its own inboxes' held mail", async () => {
    const { key } = await t.hamlet.platform.keys.create('mail', { name: 'another org' });
    const other = new AgentMailClient({ apiKey: key, baseUrl: env.api, maxRetries: 0 });
    const c = (await other.inboxes.create({ username: 'outbox-other' })).inboxId;
    await other.inboxes.messages.send(c, { to: 'pal@outside.test', subject: 'Other org', text: 'x' });
    const mine = (await env.call('GET', '/v0/outbox')).body.messages.map((m: any) => m.subject);
    expect(mine).toContain('Held for a relay');
    expect(mine).not.toContain('Other org');
    const theirs = await fetch(`${env.api}/v0/outbox`, { headers: { authorization: `Bearer ${key}` } });
    const subjects = (await theirs.json()).messages.map((m: any) => m.subject);
    expect(subjects).toEqual(['Other org']);
  });

  it("holds the blog's verification mail to an outside address for the operator; its link verifies", async () => {
    const blog = t.url('blog');
    // The console's own key is the operator's: the only API key that sees the platform's mail.
    const { key: operator } = await t.hamlet.platform.keys.create('mail', { name: 'hamlet-console' });
    const operatorOutbox = async () =>
      (await (await fetch(`${env.api}/v0/outbox`, { headers: { authorization: `Bearer ${operator}` } })).json())
        .messages as any[];
    const reg = await fetch(`${blog}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.org', name: 'Ada', slug: 'ada-outbox' }),
    });
    expect(reg.status).toBe(200);
    const held = await waitFor(async () => (await operatorOutbox()).find((m) => m.to.includes('ada@example.org')), {
      intervalMs: 100,
      message: 'the verification mail in the outbox',
    });
    expect(held).toMatchObject({ status: 'queued', source: 'platform' });
    expect(held.inbox_id).toBeUndefined();
    const token = TOKEN.exec(held.text ?? held.html)?.[1];
    expect(token).toBeTruthy();
    const verified = await fetch(`${blog}/api/verify?token=${token}`, { headers: { accept: 'application/json' } });
    expect(verified.status).toBe(200);
    // An agent's key never sees it (issue 27: it carries another agent's verification link).
    expect(((await env.call('GET', '/v0/outbox')).body.messages as any[]).some((m) => m.source === 'platform')).toBe(
      false,
    );
  });

  it('`hamlet mail outbox` prints the held mail, with its text', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, cliArgs('mail', 'outbox'), {
      env: {
        ...process.env,
        HAMLET_DATA_DIR: t.dataDir,
        HAMLET_LOG_LEVEL: 'silent',
        ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
      },
      timeout: 60_000,
    });
    expect(stdout).toContain('Subject:    Held for a relay');
    expect(stdout).toContain('See you soon');
    expect(stdout).toContain('Other org'); // the operator sees every organization's
    expect(stdout).toMatch(TOKEN);
    // The verification mail, and the welcome mail the blog sends once verified.
    expect(stdout).toContain('Your AI Agent Blog is Ready!');
    expect(stdout).toMatch(/4 messages held/);
  });

  it('sends what it held once Hamlet starts with a relay: delivered, no longer queued, the outbox empty', async () => {
    relay = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, cb) {
        let raw = '';
        stream.on('data', (d) => (raw += d));
        stream.on('end', () => {
          relayed.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          cb();
        });
      },
    });
    await new Promise<void>((r) => relay!.listen(0, '127.0.0.1', r));
    const port = (relay.server.address() as { port: number }).port;
    t = await t.restart({ HAMLET_SMTP_RELAY: `smtp://127.0.0.1:${port}` });
    const client = new AgentMailClient({ apiKey: env.key, baseUrl: t.url('mail'), maxRetries: 0 });

    await waitFor(() => (relayed.length >= 4 ? true : undefined), {
      message: () => `four held messages relayed (got ${relayed.length})`,
    });
    expect(relayed.map((r) => r.to.join()).sort()).toEqual([
      'ada@example.org',
      'ada@example.org',
      'friend@outside.test',
      'pal@outside.test',
    ]);
    expect(relayed.find((r) => r.to[0] === 'friend@outside.test')!.raw).toContain(apiSent);
    const labels = await waitFor(
      async () => {
        const l = (await client.inboxes.messages.get(a, apiSent)).labels;
        return l.includes('delivered') ? l : undefined;
      },
      { message: 'the delivered label after relaying' },
    );
    expect(labels).not.toContain('queued');
    const list = await fetch(`${t.url('mail')}/v0/outbox`, { headers: { authorization: `Bearer ${env.key}` } });
    expect((await list.json()).messages).toEqual([]);
  });
});
