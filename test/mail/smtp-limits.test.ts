// Fair shares of the SMTP port (issue 10, observation 4): one address holding many idle
// connections cannot take the slots of other clients, the blog's verification mail included;
// sessions that only chatter (NOOP, RSET, HELP, VRFY) or sit idle are closed after a bound.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/platform/settings.js';
import { readSettings } from '../../src/platform/settings.js';
import { readMailSettings } from '../../src/services/mail/settings.js';
import { waitFor, withDeadline } from '../helpers/wait.js';
import { smtpSend, smtpSession, startMail, type MailTestEnv } from './helpers.js';

/** A raw connection that reads the greeting and then just holds its slot. */
interface Holder {
  socket: net.Socket;
  greeting: string;
  closed: Promise<void>;
}

function hold(port: number, localAddress: string): Promise<Holder> {
  const greeted = new Promise<Holder>((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    let text = '';
    socket.on('error', () => {});
    socket.on('data', (d) => {
      text += d.toString('latin1');
      const line = /^(\d{3} [^\r\n]*)\r?\n/.exec(text);
      if (line) resolve({ socket, greeting: line[1], closed });
    });
    socket.once('close', () => resolve({ socket, greeting: text.trim() || '(closed without a reply)', closed }));
    socket.once('connect', () => {});
  });
  return withDeadline(greeted, 10_000, `the SMTP greeting for ${localAddress}`);
}

const message = (to: string, subject: string) =>
  [
    `From: someone@outside.test`,
    `To: ${to}`,
    `Subject: ${subject}`,
    `Message-ID: <${subject.replace(/\W/g, '')}@outside.test>`,
    '',
    'Hello.',
    '',
  ].join('\r\n');

describe('one address cannot starve the others', () => {
  let env: MailTestEnv;
  const holders: Holder[] = [];
  beforeAll(async () => {
    // Default limits: the fairness must hold without tuning.
    env = await startMail({ services: ['blog', 'mail'] });
  });
  afterAll(async () => {
    for (const h of holders) h.socket.destroy();
    await env?.t.destroy();
  });

  it('refuses one address past its share, while other addresses and the platform mailer are served', async () => {
    const defaults = readSettings(readMailSettings, {});
    // The observed attack: 200 connections from one address, each greeted and then held with NOOPs.
    holders.push(...(await Promise.all(Array.from({ length: 200 }, () => hold(env.smtpPort, '127.0.0.3')))));
    const accepted = holders.filter((h) => h.greeting.startsWith('220'));
    const refused = holders.filter((h) => h.greeting.startsWith('421'));
    expect(accepted.length).toBe(defaults.smtpMaxPerAddress);
    expect(refused.length).toBe(200 - defaults.smtpMaxPerAddress);
    expect(refused[0].greeting).toMatch(/your address/i);
    for (const h of accepted) h.socket.write('EHLO holder.test\r\nNOOP\r\n');

    // A client from another address is served in full.
    const inbox = (await env.client.inboxes.create({ username: 'fair' })).inboxId;
    expect(
      await smtpSend(
        env.smtpPort,
        'someone@outside.test',
        [inbox],
        message(inbox, 'from another address'),
        '127.0.0.2',
      ),
    ).toMatch(/^250/);

    // The blog's verification mail goes through the platform mailer (from 127.0.0.1) and arrives.
    const blog = env.t.url('blog');
    const reg = await fetch(`${blog}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: inbox, name: 'Fair Agent', slug: 'fair-agent' }),
    });
    expect(reg.status).toBeLessThan(300);
    const token = await waitFor(
      async () => {
        for (const item of (await env.client.inboxes.messages.list(inbox)).messages) {
          const m = await env.client.inboxes.messages.get(inbox, item.messageId);
          const found = /\/api\/verify\?token=([0-9a-f-]{36})/.exec(`${m.text ?? ''} ${m.html ?? ''}`)?.[1];
          if (found) return found;
        }
        return undefined;
      },
      { timeoutMs: 15_000, intervalMs: 100, message: 'the verification mail in the inbox' },
    );
    expect(token).toBeTruthy();

    // The holders still have their slots (the limit refuses newcomers, it does not evict).
    const s = await smtpSession(env.smtpPort, '127.0.0.1', '127.0.0.3');
    expect(s.greeting).toMatch(/^421/);
    // A slot given back is free again for that address.
    const first = accepted[0];
    first.socket.destroy();
    await first.closed;
    await expect
      .poll(
        async () => {
          const again = await hold(env.smtpPort, '127.0.0.3');
          holders.push(again);
          return again.greeting.slice(0, 3);
        },
        { timeout: 5000, interval: 100 },
      )
      .toBe('220');
  });
});

describe('idle and chattering sessions are closed', () => {
  let env: MailTestEnv;
  let inbox: string;
  beforeAll(async () => {
    env = await startMail({ env: { MAIL_SMTP_IDLE_TIMEOUT: '1s', MAIL_SMTP_MAX_NOOPS: '5' } });
    inbox = (await env.client.inboxes.create({ username: 'idle' })).inboxId;
  });
  afterAll(async () => env?.t.destroy());

  it('closes a session that keeps itself alive with NOOPs but sends no message', async () => {
    // One NOOP every 400 ms stays under the NOOP count within the 1 s, so only the time bound can end it.
    const s = await smtpSession(env.smtpPort);
    const closed = new Promise<number>((resolve, reject) => {
      const started = Date.now();
      // smtpSession keeps its socket private; a reply that never comes is the close.
      const noop = async () => {
        const reply = await withDeadline(s.cmd('NOOP'), 2000, 'a NOOP reply').catch(() => 'none');
        if (!reply.startsWith('250')) {
          clearInterval(tick);
          resolve(Date.now() - started);
        }
      };
      const tick = setInterval(() => {
        noop().catch((err: unknown) => {
          clearInterval(tick);
          reject(err);
        });
      }, 400);
    });
    await s.cmd('EHLO idler.test');
    const after = await closed;
    // Bounded: the 1 s idle timeout plus slack for a busy machine, far below the old 60 s.
    expect(after).toBeLessThan(8000);
  });

  it('counts NOOP, RSET, HELP and VRFY between messages and closes past the limit', async () => {
    const s = await smtpSession(env.smtpPort);
    await s.cmd('EHLO chatter.test');
    const replies: string[] = [];
    for (const c of ['NOOP', 'RSET', 'HELP', 'VRFY x', 'NOOP']) replies.push(await s.cmd(c));
    expect(replies.every((r) => !r.startsWith('421'))).toBe(true);
    expect(await s.cmd('NOOP')).toMatch(/^421 .*too many/i);
  });

  it('keeps a session that delivers messages, and resets its counts after each one', async () => {
    const s = await smtpSession(env.smtpPort);
    await s.cmd('EHLO worker.test');
    // 2.4 s in all, longer than the idle timeout, but each message is progress.
    for (let i = 0; i < 6; i++) {
      for (let n = 0; n < 4; n++) expect(await s.cmd('NOOP')).toMatch(/^250/);
      expect(await s.cmd('MAIL FROM:<worker@outside.test>')).toMatch(/^250/);
      expect(await s.cmd(`RCPT TO:<${inbox}>`)).toMatch(/^250/);
      expect(await s.data(message(inbox, `steady ${i}`))).toMatch(/^250/);
      await new Promise((r) => setTimeout(r, 400)); // the subject: a slow but steady client
    }
    await s.close();
  });
});

describe('SMTP limit settings', () => {
  it('parses and validates them', () => {
    expect(
      readSettings(readMailSettings, {
        MAIL_SMTP_MAX_CONNECTIONS: '50',
        MAIL_SMTP_MAX_PER_ADDRESS: '5',
        MAIL_SMTP_IDLE_TIMEOUT: '45s',
        MAIL_SMTP_MAX_NOOPS: '7',
      }),
    ).toMatchObject({
      smtpMaxConnections: 50,
      smtpMaxPerAddress: 5,
      smtpIdleTimeoutMs: 45_000,
      smtpMaxNoops: 7,
    });
    try {
      readSettings(readMailSettings, {
        MAIL_SMTP_MAX_CONNECTIONS: '0',
        MAIL_SMTP_MAX_PER_ADDRESS: 'many',
        MAIL_SMTP_IDLE_TIMEOUT: 'soon',
        MAIL_SMTP_MAX_NOOPS: '-1',
      });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).problems).toHaveLength(4);
    }
    // A per-address share larger than the whole is reported, not silently accepted.
    expect(() =>
      readSettings(readMailSettings, { MAIL_SMTP_MAX_CONNECTIONS: '10', MAIL_SMTP_MAX_PER_ADDRESS: '20' }),
    ).toThrow(ConfigError);
  });
});
