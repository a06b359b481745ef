// The platform mailer: real RFC 5322 over SMTP; the mail service's domains go to our own SMTP
// port, everything else to HAMLET_SMTP_RELAY; without a relay mail waits in the durable queue
// (and the log says why); a refused hand-off is retried and survives a restart.
import { Writable } from 'node:stream';
import { afterAll, expect, it } from 'vitest';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { MAIL_QUEUE } from '../../src/platform/mailer.js';
import { MAIL_FAILED } from '../../src/platform/topics.js';
import { closePlatform, openPlatform } from '../../src/server.js';
import { testEnv, testStorage } from '../helpers/hamlet.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';
import { waitFor } from '../helpers/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

function capturingLogger() {
  const lines: string[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({ write: (chunk, _e, cb) => (lines.push(chunk.toString()), cb()) }),
  );
  return { logger, lines };
}

async function platformWith(env: Record<string, string>) {
  const storage = await testStorage();
  cleanups.push(() => storage.drop());
  const { logger, lines } = capturingLogger();
  const config = loadConfig(testEnv(storage, ['blog'], env));
  const platform = await openPlatform(config, { logger });
  platform.mailer.registerWorker();
  await platform.jobs.start();
  cleanups.push(() => closePlatform(platform));
  return { platform, lines, storage, config };
}

it('routes own-domain mail to our SMTP port and the rest to the relay', async () => {
  const local = await startSmtpSink();
  const relay = await startSmtpSink();
  cleanups.push(
    () => local.close(),
    () => relay.close(),
  );
  const { platform } = await platformWith({ HAMLET_SMTP_RELAY: relay.url });
  // What the mail service does at start: claim its domains, say where its SMTP server listens.
  platform.mailer.deliverLocally({ domains: ['agents.test'], port: local.port });
  const { messageId } = await platform.mailer.send({
    from: 'a@blog.localhost',
    to: ['inbox@agents.test', 'person@elsewhere.org'],
    subject: 'Grüße ✓',
    text: 'hello',
  });
  const atLocal = await local.waitFor(() => true);
  const atRelay = await relay.waitFor(() => true);
  expect(atLocal.envelope.to).toEqual(['inbox@agents.test']);
  expect(atRelay.envelope.to).toEqual(['person@elsewhere.org']);
  // One message, composed once: the same Message-ID on both routes, a proper encoded subject.
  expect(atLocal.parsed.messageId).toBe(messageId);
  expect(atRelay.parsed.messageId).toBe(messageId);
  expect(atRelay.parsed.subject).toBe('Grüße ✓');
  expect(atRelay.raw).toMatch(/^Subject: =\?UTF-8\?/m);
});

it('keeps mail queued without a relay, says why in the log, and sends it once a relay exists', async () => {
  const { platform, lines, storage } = await platformWith({});
  await platform.mailer.send({ from: 'a@blog.localhost', to: 'someone@example.org', subject: 'waiting', text: 'x' });
  const mailJobs = () =>
    platform.db.kysely
      .selectFrom('platform_jobs')
      .select(['status', 'attempts', 'last_error'])
      .where('queue', '=', MAIL_QUEUE)
      .execute();
  // The worker has looked at the job once it wrote down (in the job and the log) why it could not send.
  const rows = await waitFor(
    async () => {
      const found = await mailJobs();
      return found.some((r) => r.last_error) && lines.join('').includes('HAMLET_SMTP_RELAY is not set') && found;
    },
    { message: 'the mail job and the log to say why it waits' },
  );
  expect(rows).toEqual([{ status: 'pending', attempts: 0, last_error: 'HAMLET_SMTP_RELAY is not set' }]);
  expect(lines.join('')).toContain('HAMLET_SMTP_RELAY is not set');
  await closePlatform(platform);

  // Restart with a relay and the job moved to now: the waiting mail goes out.
  const relay = await startSmtpSink();
  cleanups.push(() => relay.close());
  const config = loadConfig(testEnv(storage, ['blog'], { HAMLET_SMTP_RELAY: relay.url }));
  const again = await openPlatform(config, { logger: capturingLogger().logger });
  cleanups.push(() => closePlatform(again));
  await again.db.kysely
    .updateTable('platform_jobs')
    .set({ run_at: new Date(0).toISOString() })
    .execute();
  again.mailer.registerWorker();
  await again.jobs.start();
  const m = await relay.waitFor(() => true);
  expect(m.parsed.subject).toBe('waiting');
});

it('retries a temporary refusal and reports a permanent one', async () => {
  const relay = await startSmtpSink();
  cleanups.push(() => relay.close());
  const { platform } = await platformWith({ HAMLET_SMTP_RELAY: relay.url });
  const failed: unknown[] = [];
  platform.events.subscribe(MAIL_FAILED, (o) => void failed.push(o));

  relay.refuse(451, 'try again later');
  await platform.mailer.send(
    { from: 'a@blog.localhost', to: 'temp@example.org', subject: 'temp', text: 'x' },
    { meta: { id: 1 } },
  );
  // The first attempt is refused: wait until the job is back to pending (attempts made: 1).
  const row = await waitFor(
    async () => {
      const job = await platform.db.kysely.selectFrom('platform_jobs').selectAll().executeTakeFirstOrThrow();
      return job.status === 'pending' && job.attempts === 1 && job;
    },
    { intervalMs: 50, message: 'the refused job back to pending after one attempt' },
  );
  expect(row).toMatchObject({ status: 'pending', attempts: 1 });
  expect(row.last_error).toMatch(/451/);
  relay.refuse(undefined);
  await platform.db.kysely
    .updateTable('platform_jobs')
    .set({ run_at: new Date(0).toISOString() })
    .execute();
  platform.jobs.wake();
  expect((await relay.waitFor(() => true)).parsed.subject).toBe('temp');

  relay.refuse(550, 'no such user');
  await platform.mailer.send(
    { from: 'a@blog.localhost', to: 'gone@example.org', subject: 'perm', text: 'x' },
    { meta: { id: 2 } },
  );
  await waitFor(() => failed.length > 0, { message: 'the permanent failure event' });
  expect(failed).toEqual([
    expect.objectContaining({
      meta: { id: 2 },
      responseCode: 550,
      envelope: { from: 'a@blog.localhost', to: ['gone@example.org'] },
    }),
  ]);
});
