// The mail store: the only code that reads or writes the mail_ tables, one class per table
// group, sharing one MailDb (transactions, change reports, after-commit work). It states
// refusals as DomainError (platform/errors.ts), never in HTTP terms.
import type { Db } from '../../../platform/db.js';
import { DraftStore } from './drafts.js';
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
export type * from './tables.js';
export type { OutboxItemRow } from './outbox.js';

export class MailStore {
  readonly inboxes: InboxStore;
  readonly messages: MessageStore;
  readonly threads: ThreadStore;
  readonly webhooks: WebhookStore;
  readonly drafts: DraftStore;
  readonly idempotency: IdempotencyStore;
  readonly secrets: SecretStore;
  readonly outbox: OutboxStore;
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
