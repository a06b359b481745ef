// What the mail service's job handlers and its HTTP and SMTP sides share, built once per process
// by `queues` (index.ts). Every object gets its collaborators through its constructor.
import type { Platform } from '../../platform/service.js';
import { MailCache } from './cache.js';
import { Drafts } from './drafts/drafts.js';
import { LiveStream } from './live/stream.js';
import { MessageChanges } from './messages/changes.js';
import { Outbox } from './outbox/outbox.js';
import { Filing } from './messages/filing.js';
import { Sending } from './sending/sending.js';
import type { MailSettings } from './settings.js';
import { MailStore, type InboxRow, type Tx } from './store/index.js';
import { MailEvents } from './webhooks/events.js';
import { Trash } from './trash/trash.js';
import { ReceiveLists } from './lists/check.js';
import { Domains } from './domains/domains.js';
import { AgentRules } from './agents/rules.js';

export function createCore(platform: Platform, config: MailSettings) {
  const logger = platform.logger.child({ service: 'mail' });
  const cache = new MailCache(platform.events);
  const store = new MailStore(platform.db, { onChange: (inboxIds) => cache.changed(inboxIds), logger });
  // Job handlers publish events too (a scheduled draft's message.sent), so the live stream's
  // publishing side lives here; `start` adds its WebSocket route.
  const live = new LiveStream(platform.events, platform.clock, {
    budget: platform.websockets,
    maxBufferedBytes: config.wsMaxBufferedBytes,
    logger,
  });
  const events = new MailEvents(store, platform.jobs, platform.events, live);
  const receiveLists = new ReceiveLists(store, platform.events);
  const filing = new Filing(store, events, platform.clock, receiveLists, platform.trace);
  const changes = new MessageChanges(store, filing);
  const outbox = new Outbox(store, filing, platform.mailer, platform.clock, logger);
  const customDomains = new Domains(store, platform, config, events);
  const agentRules = new AgentRules(store, platform.events);
  const sending = new Sending(platform, store, filing, events, config, outbox, agentRules, customDomains);
  const drafts = new Drafts(store, sending, platform.jobs, () => platform.clock.now());
  const trash = new Trash(store, changes, drafts);

  /** An inbox by address, from the cache when it holds it (every API request and every RCPT asks). */
  async function inbox(inboxId: string, trx?: Tx): Promise<InboxRow | undefined> {
    const hit = cache.inbox(inboxId);
    if (hit) return hit;
    const generation = cache.generation(inboxId);
    const row = await store.inboxes.get(inboxId, trx);
    if (row) cache.setInbox(row, generation);
    return row;
  }

  function close(): void {
    live.close();
    events.close();
    receiveLists.close();
    customDomains.close();
    cache.close();
    agentRules.close();
  }

  return {
    config,
    logger,
    store,
    cache,
    live,
    events,
    filing,
    changes,
    sending,
    outbox,
    drafts,
    trash,
    receiveLists,
    customDomains,
    agentRules,
    inbox,
    close,
  };
}

export type MailCore = ReturnType<typeof createCore>;
