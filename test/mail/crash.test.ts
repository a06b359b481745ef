// kill -9 while webhook deliveries are pending and outside mail is queued: after a restart on
// the same storage every event is delivered and every queued message reaches the relay.
import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/platform/db.js';
import { MAIL_QUEUE } from '../../src/platform/mailer.js';
import { testStorage } from '../helpers/hamlet.js';
import { spawnHamlet, type HamletProcess } from '../helpers/process.js';
import { waitFor } from '../helpers/wait.js';
import { webhookReceiver } from './helpers.js';
import { cliArgs } from '../helpers/cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('crash safety', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const f of cleanup.reverse()) await f().catch(() => {});
  });

  it('delivers every pending event and hands off every queued message after kill -9', async () => {
    const storage = await testStorage();
    cleanup.push(() => storage.drop());
    const relayPort = await freePort();
    const hookPort = await freePort();
    const env: Record<string, string> = {
      HAMLET_DATA_DIR: storage.dataDir,
      ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}),
      HAMLET_SERVICES: 'mail',
      HAMLET_LOG_LEVEL: 'warn',
      MAIL_PORT: '0',
      SMTP_PORT: '0',
      MAIL_SUBMISSION_PORT: '0',
      MAIL_DOMAIN: 'mail.test',
      HAMLET_SMTP_RELAY: `smtp://127.0.0.1:${relayPort}`,
      HAMLET_ALLOW_INTERNAL_REQUESTS: '1',
      MAIL_WEBHOOK_RETRY_SCHEDULE: Array(30).fill('300ms').join(','),
    };
    // Every wait below has its own bound, so a run that stalls names the step that stalled rather
    // than ending at the test's timeout.
    const { stdout } = await promisify(execFile)(process.execPath, cliArgs('keys', 'create', 'mail'), {
      cwd: ROOT,
      env: { ...process.env, ...env },
      timeout: 60_000,
    });
    const key = stdout.trim();

    let proc: HamletProcess = await spawnHamlet(env);
    cleanup.push(() => proc.kill());
    const call = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(proc.urls['mail api'] + p, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      expect(res.status, `${method} ${p}`).toBe(200);
      return res.json();
    };
    const a = (await call('POST', '/v0/inboxes', { username: 'crash-a' })).inbox_id;
    const b = (await call('POST', '/v0/inboxes', { username: 'crash-b' })).inbox_id;
    // Nothing listens on the webhook and relay ports yet: deliveries and hand-offs must wait.
    await call('POST', '/v0/webhooks', { url: `http://127.0.0.1:${hookPort}/hook` });
    const local: string[] = [];
    const outside: string[] = [];
    for (let i = 0; i < 3; i++) {
      local.push(
        (await call('POST', `/v0/inboxes/${a}/messages`, { to: b, subject: `local ${i}`, text: 'x' })).message_id,
      );
      outside.push(
        (
          await call('POST', `/v0/inboxes/${a}/messages`, {
            to: `friend${i}@outside.test`,
            subject: `outside ${i}`,
            text: 'y',
          })
        ).message_id,
      );
    }
    // On PostgreSQL a job killed mid-attempt waits for its lease (minutes for the platform mailer)
    // before another worker may take it: kill between relay attempts so the test measures the
    // restart, not the lease. Webhook deliveries are in flight every 300 ms either way.
    const db = openDb({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl });
    cleanup.push(() => db.close());
    // None running, and none due within the next half second (the time the kill takes).
    const between = async () => {
      const soon = new Date(Date.now() + 500).toISOString();
      const busy = await db.kysely
        .selectFrom('platform_jobs')
        .select('id')
        .where('queue', '=', MAIL_QUEUE)
        .where((eb) => eb.or([eb('status', '=', 'running'), eb('run_at', '<', soon)]))
        .execute();
      return busy.length === 0;
    };
    await waitFor(between, { timeoutMs: 10_000, intervalMs: 25, message: 'a moment between relay attempts' });
    await proc.kill('SIGKILL');
    const pending = await db.kysely.selectFrom('platform_jobs').select(['queue']).execute();
    expect(pending.filter((j) => j.queue === MAIL_QUEUE).length).toBe(3);
    expect(pending.filter((j) => j.queue === 'mail.webhook').length).toBeGreaterThan(0);

    const hooks = await webhookReceiver(undefined, hookPort);
    cleanup.push(() => hooks.close());
    const relayed: string[] = [];
    const relay = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, _s, cb) {
        let raw = '';
        stream.on('data', (d) => (raw += d));
        stream.on('end', () => {
          relayed.push(raw);
          cb();
        });
      },
    });
    await new Promise<void>((r) => relay.listen(relayPort, '127.0.0.1', r));
    cleanup.push(() => new Promise((r) => relay.close(() => r(undefined))));

    proc = await spawnHamlet(env);
    // On PostgreSQL a delivery killed mid-attempt waits out its lease (webhooks: timeout + 15 s).
    const has = (type: string, id: string) =>
      hooks.received.some((r) => {
        const e = JSON.parse(r.body);
        const obj = e.message ?? e.send ?? e.delivery ?? e.bounce;
        return e.event_type === type && obj?.message_id === id;
      });
    const missing = () => [
      ...local.flatMap((id) =>
        ['message.sent', 'message.delivered', 'message.received'].filter((t) => !has(t, id)).map((t) => `${t} ${id}`),
      ),
      ...outside.flatMap((id) =>
        ['message.sent', 'message.delivered'].filter((t) => !has(t, id)).map((t) => `${t} ${id}`),
      ),
      ...outside.filter((id) => !relayed.some((raw) => raw.includes(id))).map((id) => `relay ${id}`),
    ];
    await waitFor(() => missing().length === 0, {
      timeoutMs: 80_000,
      intervalMs: 200,
      message: () => `every event and relayed mail; missing ${missing().join(', ')}`,
    });
    // At least once, never as different events: duplicates carry the same event id.
    const byId = new Map<string, string>();
    for (const r of hooks.received) {
      const prev = byId.get(String(r.headers['svix-id']));
      if (prev) expect(prev).toBe(r.body);
      byId.set(String(r.headers['svix-id']), r.body);
    }
    const list = await call('GET', `/v0/inboxes/${b}/messages`);
    expect(list.count).toBe(3);
  }, 150_000);
});
