// The mail store: the only code that reads or writes the mail_ tables, one class per table
// group, sharing one MailDb (transactions, change reports, after-commit work). It states
// refusals as DomainError (platform/errors.ts), never in HTTP terms.
import type { Db } from '../../../platform/db.js';
import { AgentOrgStore } from './agent-orgs.js';
import { AgentIdStore } from './agentid.js';
import { ApiKeyStore } from './api-keys.js';
import { InboxEventStore } from './inbox-events.js';
import { DomainStore } from './domains.js';
import { DraftStore } from './drafts.js';
import { ListStore } from './lists.js';
import { MetricsStore } from './metrics.js';
import { PodStore } from './pods.js';
import { InboxStore } from './inboxes.js';
import { IdempotencyStore, SecretStore } from './keys.js';
import { MailDb, type StoreHooks } from './mail-db.js';
import { MessageStore } from './messages.js';
import { OutboxStore } from './outbox.js';
import { ThreadStore } from './threads.js';
import type { Tx } from './tables.js';
import { WebhookStore } from './webhooks.js';

export { isDuplicate } from './duplicates.js';
export type { StoreHooks } from './mail-db.js';
export type { ListKey } from './lists.js';
export type * from './tables.js';
export type { OutboxItemRow, OutboxViewer } from './outbox.js';

export class MailStore {
  readonly inboxes: InboxStore;
  readonly messages: MessageStore;
  readonly threads: ThreadStore;
  readonly webhooks: WebhookStore;
  readonly drafts: DraftStore;
  readonly idempotency: IdempotencyStore;
  readonly secrets: SecretStore;
  readonly outbox: OutboxStore;
  readonly pods: PodStore;
  readonly domains: DomainStore;
  readonly lists: ListStore;
  readonly apiKeys: ApiKeyStore;
  readonly metrics: MetricsStore;
  readonly inboxEvents: InboxEventStore;
  readonly agentOrgs: AgentOrgStore;
  readonly agentId: AgentIdStore;
  private readonly m: MailDb;

  constructor(db: Db, hooks: StoreHooks) {
    this.m = new MailDb(db, hooks);
    this.inboxes = new InboxStore(this.m);
    this.messages = new MessageStore(this.m);
    this.threads = new ThreadStore(this.m);
    this.webhooks = new WebhookStore(this.m);
    this.drafts = new DraftStore(this.m);
    this.idempotency = new IdempotencyStore(this.m);
    this.secrets = new SecretStore(this.m);
    this.outbox = new OutboxStore(this.m);
    this.pods = new PodStore(this.m);
    this.domains = new DomainStore(this.m);
    this.lists = new ListStore(this.m);
    this.apiKeys = new ApiKeyStore(this.m);
    this.metrics = new MetricsStore(this.m);
    this.inboxEvents = new InboxEventStore(this.m);
    this.agentOrgs = new AgentOrgStore(this.m);
    this.agentId = new AgentIdStore(this.m);
  }

  /** The database outside any transaction, for reads that take a Tx argument. */
  readOnly(): Tx {
    return this.m.db;
  }

  /** Runs `fn` in one transaction; the caches hear the inboxes it changed once it commits. */
  transaction<T>(fn: (trx: Tx) => Promise<T>): Promise<T> {
    return this.m.transaction(fn);
  }

  /** Runs `fn` once `trx` has committed (at once outside a transaction); never if it rolls back. */
  afterCommit(trx: Tx, fn: () => Promise<void>): void {
    this.m.afterCommit(trx, fn);
  }
}
