// Mail events: AgentMail's event types and payload envelopes. An event is recorded in the
// transaction of the change that causes it, as one durable delivery job per matching webhook,
// so it survives a crash together with that change and keeps one event id across retries.
import type { EventBus } from '../../../platform/events.js';
import type { Jobs } from '../../../platform/jobs.js';
import { randomBase62 } from '../../../platform/ids.js';
import { MAIL_RECEIVED, type MailReceived } from '../../../platform/topics.js';
import type { MailStore, Tx, WebhookRow } from '../store/index.js';

export const EVENT_TYPES = [
  'message.received',
  'message.received.spam',
  'message.received.blocked',
  'message.received.unauthenticated',
  'message.sent',
  'message.delivered',
  'message.bounced',
  'message.complained',
  'message.rejected',
  'message.opened',
  'domain.verified',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const WEBHOOK_QUEUE = 'mail.webhook';
const WEBHOOKS_CHANGED_TOPIC = 'mail.webhooks.changed';

export interface DeliveryJob {
  webhook_id: string;
  event_id: string;
  /** The exact JSON body, fixed when the event happened. */
  body: string;
}

/** Payloads above this lose their text and html bodies (AgentMail's 1 MB cap). */
const MAX_PAYLOAD_BYTES = 1024 * 1024;

/** Where events go in real time besides webhooks (live/stream.ts). */
export interface LiveFeed {
  /** Whether some instance has a live subscriber for the organization. */
  wants(orgId: string): boolean;
  publish(e: EventScope & { eventType: string; body: string }): Promise<void>;
}

export interface EventScope {
  orgId: string;
  inboxId: string;
  podId: string;
}

export class MailEvents {
  // Enabled webhooks per organization: every event reads them, few requests change them.
  private readonly hooks = new Map<string, WebhookRow[]>();
  readonly close: () => void;

  constructor(
    private readonly store: MailStore,
    private readonly jobs: Jobs,
    private readonly bus: EventBus,
    /** The live WebSocket stream: hears events of organizations someone is subscribed to. */
    private readonly live: LiveFeed,
  ) {
    this.close = bus.subscribe<{ orgId: string }>(WEBHOOKS_CHANGED_TOPIC, (m) => {
      this.hooks.delete(m.orgId);
    });
  }

  /** Call after a webhook of the organization was created, changed or deleted. */
  async webhooksChanged(orgId: string): Promise<void> {
    this.hooks.delete(orgId);
    await this.bus.publish(WEBHOOKS_CHANGED_TOPIC, { orgId });
  }

  private async webhooksOf(orgId: string, trx: Tx): Promise<WebhookRow[]> {
    let list = this.hooks.get(orgId);
    if (!list) {
      list = await this.store.webhooks.enabledOfOrg(orgId, trx);
      if (this.hooks.size > 10_000) this.hooks.clear();
      this.hooks.set(orgId, list);
    }
    return list;
  }

  /**
   * Records an event: one delivery job per enabled webhook that wants it, in `trx`. The payload
   * is built only when some webhook wants the event (most mail has no listener).
   */
  async emit(trx: Tx, scope: EventScope, eventType: EventType, objects: () => Record<string, unknown>): Promise<void> {
    const targets = (await this.webhooksOf(scope.orgId, trx)).filter((hook) => {
      if (!(JSON.parse(hook.event_types) as string[]).includes(eventType)) return false;
      const inboxes = hook.inbox_ids ? (JSON.parse(hook.inbox_ids) as string[]) : [];
      if (inboxes.length && !inboxes.includes(scope.inboxId)) return false;
      const pods = hook.pod_ids ? (JSON.parse(hook.pod_ids) as string[]) : [];
      return !pods.length || pods.includes(scope.podId);
    });
    const live = this.live.wants(scope.orgId) ? this.live : undefined;
    if (!targets.length && !live) return;
    const eventId = `evt_${randomBase62(24)}`;
    const payload: Record<string, unknown> = { type: 'event', event_type: eventType, event_id: eventId, ...objects() };
    let body = JSON.stringify(payload);
    if (Buffer.byteLength(body) > MAX_PAYLOAD_BYTES && payload.message && typeof payload.message === 'object') {
      const {
        text: _t,
        html: _h,
        extracted_text: _et,
        extracted_html: _eh,
        ...rest
      } = payload.message as Record<string, unknown>;
      body = JSON.stringify({ ...payload, message: rest });
    }
    for (const hook of targets) {
      const job: DeliveryJob = { webhook_id: hook.webhook_id, event_id: eventId, body };
      await this.jobs.enqueue(WEBHOOK_QUEUE, job, {}, trx);
    }
    // The live stream is best effort and real time: it hears the event once it is committed.
    if (live) this.store.afterCommit(trx, () => live.publish({ ...scope, eventType, body }));
  }

  /** Tells the rest of Hamlet (the console's live pages) on the platform bus that mail arrived, once committed. */
  announceReceived(trx: Tx, message: MailReceived): void {
    this.store.afterCommit(trx, () => this.bus.publish(MAIL_RECEIVED, message));
  }
}

/** A webhook created without a list gets every type (the project's decision), stored explicitly. */
export const defaultEventTypes = (): string[] => [...EVENT_TYPES];
