// The inbox mail service (contract 001 part A, AgentMail-compatible): inboxes, messages,
// threads and webhooks over HTTP under /v0, and real mail over SMTP.
import { randomBytes } from 'node:crypto';
import { createApp, listen } from '../../platform/http.js';
import { defineService, type Platform } from '../../platform/service.js';
import { MailCache } from './cache.js';
import { readMailSettings, type MailSettings } from './settings.js';
import { installAuth, installLimits, type MailContext } from './context.js';
import { DownloadLinks } from './downloads.js';
import { DRAFT_SEND_QUEUE, Drafts, type DraftJob } from './drafts.js';
import { mailEnvelope } from './errors.js';
import { Filing } from './filing.js';
import { LiveStream } from './live.js';
import { migrations } from './migrations.js';
import { subscribeRelayOutcomes } from './relay-outcomes.js';
import { draftRoutes } from './routes/drafts.js';
import { inboxRoutes } from './routes/inboxes.js';
import { messageRoutes } from './routes/messages.js';
import { threadRoutes } from './routes/threads.js';
import { webhookRoutes } from './routes/webhooks.js';
import { Sending } from './sending.js';
import { createSmtpServer } from './smtp.js';
import { Store } from './store.js';
import { deliveryHandler } from './webhooks/deliver.js';
import { MailEvents, WEBHOOK_QUEUE, type DeliveryJob } from './webhooks/events.js';

const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

/** What the job handlers and the HTTP side share; built once per process by `queues`. */
function createCore(platform: Platform, config: MailSettings) {
  const store = new Store(platform.db);
  const cache = new MailCache(platform.events);
  store.onChange = (inboxIds) => cache.changed(inboxIds);
  const events = new MailEvents(store, platform.jobs, platform.events);
  const filing = new Filing(store, events, platform.clock);
  const sending = new Sending(platform, store, filing, events, config);
  const drafts = new Drafts(store, sending, platform.jobs, () => platform.clock.now());
  return { config, store, cache, events, filing, sending, drafts };
}
type MailCore = ReturnType<typeof createCore>;

/** Webhook deliveries and scheduled draft sends, in every process that runs jobs. */
async function queues(platform: Platform, config: MailSettings) {
  const core = createCore(platform, config);
  const { store, drafts } = core;
  // Mail to our own domains goes to our own SMTP server (its real port is known after listen).
  platform.mailer.deliverLocally({ domains: config.domains, port: config.smtpPort });
  const schedule = config.webhookRetryScheduleMs;
  platform.jobs.register<DeliveryJob>(
    WEBHOOK_QUEUE,
    deliveryHandler(store, platform.clock, platform.logger, { allowInternal: platform.config.allowInternalRequests, timeoutMs: config.webhookTimeoutMs }),
    { concurrency: 16, leaseMs: config.webhookTimeoutMs + 15_000, maxAttempts: schedule.length + 1, backoffMs: (attempt) => schedule[Math.min(attempt, schedule.length) - 1] ?? schedule[schedule.length - 1]! },
  );
  platform.jobs.register<DraftJob>(DRAFT_SEND_QUEUE, (job) => drafts.runScheduled(job), { concurrency: 4, maxAttempts: 5 });
  return {
    core,
    async stop() {
      core.cache.close();
      core.events.close();
    },
  };
}

async function start(platform: Platform, config: MailSettings, core: MailCore) {
  const { store, cache, events, filing, sending, drafts } = core;
  const domains = () => config.domains;

  // JSON bodies carry attachments as base64: a 6 MB message is a little over 6 MB of JSON.
  const app = await createApp({
    service: 'mail',
    logger: platform.logger,
    envelope: mailEnvelope,
    bodyLimit: config.maxMessageBytes,
    http: platform.config.http,
    openapi: { title: 'Hamlet mail', version: '1.0.0', description: 'AgentMail-compatible inboxes, messages, threads and webhooks' },
  });
  installAuth(app, platform);
  const sendLimit = await installLimits(app, platform);
  const live = new LiveStream(platform.events, platform.clock, { budget: platform.websockets, maxBufferedBytes: config.wsMaxBufferedBytes, logger: platform.logger.child({ service: 'mail' }) });
  events.live = live;
  await live.register(app);

  let apiUrl = '';
  const secret = await store.secret('download_links', () => randomBytes(32).toString('base64url'));
  const links = new DownloadLinks(secret, () => config.publicUrl ?? apiUrl);
  const ctx: MailContext = { platform, store, filing, sending, events, config, links, domains, sendLimit, cache, drafts };
  inboxRoutes(app, ctx);
  messageRoutes(app, ctx);
  threadRoutes(app, ctx);
  webhookRoutes(app, ctx);
  draftRoutes(app, ctx);

  const unsubscribe = subscribeRelayOutcomes(platform, store, filing, events);

  const smtp = createSmtpServer({
    store,
    inbox: async (id, trx) => {
      const hit = cache.inbox(id);
      if (hit) return hit;
      const row = await store.inbox(id, trx);
      if (row) cache.setInbox(row);
      return row;
    },
    filing,
    config,
    logger: platform.logger.child({ service: 'mail', part: 'smtp' }),
    isLocalDomain: (address) => platform.mailer.isLocal(address),
  });
  smtp.on('error', (err) => platform.logger.error({ err }, 'smtp server error'));
  await new Promise<void>((resolve, reject) => {
    smtp.server.once('error', reject);
    smtp.listen(config.smtpPort, platform.config.host, () => resolve());
  });
  const address = smtp.server.address();
  const smtpPort = typeof address === 'object' && address ? address.port : config.smtpPort;
  // With port 0 (tests) the platform mailer must learn the real port to deliver local mail.
  platform.mailer.deliverLocally({ port: smtpPort });

  apiUrl = await listen(app, platform.config.host, config.port);
  const smtpHost = apiUrl.replace(/^http:\/\//, '').replace(/:\d+$/, '');

  // Idempotency keys expire 24 h after use.
  const pruneTimer = setInterval(() => {
    store.pruneIdempotency(new Date(platform.clock.ms() - IDEMPOTENCY_TTL_MS).toISOString()).catch((err) => platform.logger.warn({ err }, 'mail: pruning expired idempotency keys failed'));
  }, 3_600_000);
  pruneTimer.unref();

  return {
    urls: { api: apiUrl, smtp: `smtp://${smtpHost}:${smtpPort}` },
    async stop() {
      clearInterval(pruneTimer);
      unsubscribe();
      live.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await app.close();
    },
  };
}

export default defineService({ name: 'mail', migrations, adminKeys: true, settings: readMailSettings, queues, start });
