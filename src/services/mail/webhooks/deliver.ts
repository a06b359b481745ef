// Delivering one event to one webhook: signed the Svix / Standard Webhooks way, POSTed
// through the SSRF-guarded fetch, retried on the Svix schedule by the durable job table.
// Failures are logged and shown on the webhook (last_delivery_status, _error, _attempts); a
// success is written only when it changes the status, so a healthy webhook costs no write.
import { Webhook } from 'standardwebhooks';
import type { Clock } from '../../../platform/clock.js';
import { PermanentError } from '../../../platform/errors.js';
import type { JobInfo } from '../../../platform/jobs.js';
import type { Logger } from '../../../platform/logger.js';
import { outboundFetch } from '../../../platform/outbound.js';
import type { MailStore, WebhookRow } from '../store/index.js';
import type { DeliveryJob } from './events.js';

export interface DeliveryOptions {
  allowInternal: boolean;
  timeoutMs: number;
}

export function deliveryHandler(store: MailStore, clock: Clock, logger: Logger, opts: DeliveryOptions) {
  return async (job: DeliveryJob, info: JobInfo): Promise<void> => {
    const hook = await store.webhooks.get(job.webhook_id);
    // Deleted or disabled since the event: nothing to deliver, and nothing to retry.
    if (!hook || hook.enabled !== 1) return;
    try {
      await deliver(hook, job, clock, logger, opts);
    } catch (err) {
      const final = err instanceof PermanentError || info.attempt >= info.maxAttempts;
      const message = (err as Error).message;
      logger.warn(
        { webhook: hook.webhook_id, url: hook.url, event: job.event_id, attempt: info.attempt, final, err: message },
        final ? 'webhook delivery failed for good' : 'webhook delivery failed, will retry',
      );
      await store.webhooks.recordDelivery(hook.webhook_id, {
        last_delivery_status: final ? 'failed' : 'retrying',
        last_delivery_attempts: info.attempt,
        last_delivery_error: message,
        last_error_at: clock.now().toISOString(),
      });
      throw err;
    }
    if (hook.last_delivery_status !== 'succeeded')
      await store.webhooks.recordDelivery(hook.webhook_id, {
        last_delivery_status: 'succeeded',
        last_delivery_attempts: info.attempt,
      });
  };
}

async function deliver(
  hook: WebhookRow,
  job: DeliveryJob,
  clock: Clock,
  logger: Logger,
  opts: DeliveryOptions,
): Promise<void> {
  const now = clock.now();
  const signature = new Webhook(hook.secret).sign(job.event_id, now, job.body);
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const custom = hook.headers ? (JSON.parse(hook.headers) as Record<string, string>) : {};
  let res;
  try {
    res = await outboundFetch(
      hook.url,
      {
        method: 'POST',
        redirect: 'manual', // a 3xx is a failed delivery, as with Svix
        headers: {
          ...custom,
          'content-type': 'application/json',
          'user-agent': 'Hamlet-Mail-Webhooks/1.0',
          'svix-id': job.event_id,
          'svix-timestamp': timestamp,
          'svix-signature': signature,
          'webhook-id': job.event_id,
          'webhook-timestamp': timestamp,
          'webhook-signature': signature,
        },
        body: job.body,
      },
      { allowInternal: opts.allowInternal, timeoutMs: opts.timeoutMs },
    );
  } catch (err) {
    const e = err as Error & { code?: string };
    if (e.code === 'EBLOCKED') throw new PermanentError(e.message);
    throw new Error(`delivery to ${hook.url} failed: ${e.message}`, { cause: err });
  }
  // The body is not needed; drain it so the connection is reused. Not a write: a body that
  // cannot be cancelled changes nothing about the delivery, which the status decides.
  await res.body?.cancel().catch(() => {});
  if (res.status >= 200 && res.status < 300) return;
  if (res.headers.get('webhook-delivery') === 'abort-message') {
    logger.info({ webhook: hook.webhook_id, event: job.event_id }, 'receiver aborted the delivery');
    return;
  }
  throw new Error(`delivery to ${hook.url} answered ${res.status}`);
}
