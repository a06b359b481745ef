// The running part of the inbox mail service (contract 001 part A, AgentMail-compatible): inboxes, messages,
// threads and webhooks over HTTP under /v0, and real mail over SMTP.
import { listen } from '../../platform/http.js';
import type { Platform } from '../../platform/service.js';
import { createCore, type MailCore } from './core.js';
import { DRAFT_SEND_QUEUE, type DraftJob } from './drafts/drafts.js';
import { MailApiKeys } from './api-keys/keys.js';
import { createMailApp } from './http/index.js';
import { subscribeRelayOutcomes } from './sending/relay-outcomes.js';
import type { MailSettings } from './settings.js';
import { startSmtp } from './smtp/server.js';
import { deliveryHandler } from './webhooks/deliver.js';
import { WEBHOOK_QUEUE, type DeliveryJob } from './webhooks/events.js';
import { reloadMailAfterRestore } from './world.js';

const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

/** Webhook deliveries and scheduled draft sends, in every process that runs jobs. */
export async function queues(platform: Platform, config: MailSettings) {
  const core = createCore(platform, config);
  // Mail to our own domains goes to our own SMTP server (its real port is known after listen).
  platform.mailer.deliverLocally({ domains: config.domains, port: config.smtpPort });
  // Mail to other domains with no relay: held in the outbox, where the API and the CLI show it.
  platform.mailer.holdOutsideMail((mail) => core.outbox.holdPlatformMail(mail));
  // Verified custom domains take mail too (domains/domains.ts).
  await core.customDomains.load();
  const schedule = config.webhookRetryScheduleMs;
  platform.jobs.register<DeliveryJob>(
    WEBHOOK_QUEUE,
    deliveryHandler(core.store, platform.clock, platform.logger, {
      allowInternal: platform.config.allowInternalRequests,
      timeoutMs: config.webhookTimeoutMs,
    }),
    {
      concurrency: 16,
      leaseMs: config.webhookTimeoutMs + 15_000,
      maxAttempts: schedule.length + 1,
      backoffMs: (attempt) => schedule[Math.min(attempt, schedule.length) - 1] ?? schedule[schedule.length - 1],
    },
  );
  platform.jobs.register<DraftJob>(DRAFT_SEND_QUEUE, (job) => core.drafts.runScheduled(job), {
    concurrency: 4,
    maxAttempts: 5,
  });
  return {
    core,
    stop: async () => {
      platform.mailer.holdOutsideMail(undefined);
      core.close();
    },
  };
}

export async function start(platform: Platform, config: MailSettings, core: MailCore) {
  let apiUrl = '';
  const apiKeys = new MailApiKeys(core.store, platform);
  const app = await createMailApp(platform, {
    core,
    settings: config,
    apiKeys,
    baseUrl: () => config.publicUrl ?? apiUrl,
  });

  const unsubscribe = subscribeRelayOutcomes(platform, core.store, core.filing, core.events);
  const reload = reloadMailAfterRestore({ core, apiKeys });
  const smtp = await startSmtp(core, platform);
  apiUrl = await listen(app, platform.config.host, config.port);
  // Started with a relay: what was held while there was none leaves now.
  await core.outbox
    .release()
    .catch((err) => core.logger.error({ err }, 'mail: handing held mail to the relay failed; it stays in the outbox'));
  const smtpHost = apiUrl.replace(/^http:\/\//, '').replace(/:\d+$/, '');

  // Idempotency keys expire 24 h after use: pruned hourly of clock time.
  const stopPruning = platform.timers.every(3_600_000, () =>
    core.store.idempotency
      .prune(new Date(platform.clock.ms() - IDEMPOTENCY_TTL_MS).toISOString())
      .catch((err) => core.logger.warn({ err }, 'mail: pruning expired idempotency keys failed')),
  );

  return {
    urls: {
      api: apiUrl,
      smtp: `smtp://${smtpHost}:${smtp.port}`,
      submission: `smtp://${smtpHost}:${smtp.submissionPort}`,
    },
    reload,
    async stop() {
      stopPruning();
      unsubscribe();
      apiKeys.close();
      core.live.disconnectAll();
      await smtp.close();
      await app.close();
    },
  };
}
