// All SQL of the mail service. Nothing else reads or writes the mail_ tables.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Db } from '../../platform/db.js';

export interface InboxRow {
  inbox_id: string;
  org_id: string;
  pod_id: string;
  display_name: string | null;
  client_id: string | null;
  metadata: string | null;
  created_at: string;
  updated_at: string;
}

export interface MessageRow {
  id: string;
  inbox_id: string;
  message_id: string;
  thread_id: string;
  labels: string;
  timestamp: string;
  from_addr: string;
  to_addrs: string;
  cc_addrs: string | null;
  bcc_addrs: string | null;
  reply_to: string | null;
  subject: string | null;
  preview: string | null;
  text_body: string | null;
  html_body: string | null;
  extracted_text: string | null;
  extracted_html: string | null;
  attachments: string | null;
  in_reply_to: string | null;
  refs: string | null;
  headers: string | null;
  size: number;
  created_at: string;
  updated_at: string;
}

export interface ThreadRow {
  thread_id: string;
  inbox_id: string;
  subject: string | null;
  preview: string | null;
  labels: string;
  senders: string;
  recipients: string;
  attachments: string | null;
  last_message_id: string;
  message_count: number;
  size: number;
  timestamp: string;
  received_timestamp: string | null;
  sent_timestamp: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookRow {
  webhook_id: string;
  org_id: string;
  url: string;
  event_types: string;
  inbox_ids: string | null;
  pod_ids: string | null;
  secret: string;
  enabled: number;
  client_id: string | null;
  headers: string | null;
  created_at: string;
  updated_at: string;
}

export interface DraftRow {
  draft_id: string;
  inbox_id: string;
  org_id: string;
  client_id: string | null;
  body: string;
  labels: string;
  send_at: string | null;
  send_status: string | null;
  created_at: string;
  updated_at: string;
}

export interface MailTables {
  mail_drafts: DraftRow;
  mail_inboxes: InboxRow;
  mail_messages: MessageRow;
  mail_threads: ThreadRow;
  mail_raw: { id: string; raw: Buffer };
  mail_webhooks: WebhookRow;
  mail_idempotency: { org_id: string; key: string; request_hash: string; response: string; created_at: string };
  mail_secrets: { name: string; value: string };
}

export type Tx = Kysely<MailTables>;

/** Columns of a message list row (MessageItem): no bodies. */
const MESSAGE_ITEM_COLUMNS = [
  'id', 'inbox_id', 'thread_id', 'message_id', 'labels', 'timestamp', 'from_addr', 'to_addrs', 'cc_addrs', 'bcc_addrs',
  'subject', 'preview', 'attachments', 'in_reply_to', 'refs', 'size', 'created_at', 'updated_at',
] as const;
export type MessageItemRow = Pick<MessageRow, (typeof MESSAGE_ITEM_COLUMNS)[number]>;

/** A keyset cursor position: the sort value and the id that breaks ties. */
export type Cursor = [sortKey: string, id: string];

export interface MessageFilters {
  /** Search terms: each must occur (any case) in the sender, recipients, subject or text. */
  terms?: string[];
  labels?: string[];
  before?: string;
  after?: string;
  ascending?: boolean;
  /** Labels that hide a message unless asked for (trash, spam, blocked, unauthenticated). */
  exclude: string[];
  from?: string[];
  to?: string[];
  subject?: string[];
}

export interface ThreadFilters extends Omit<MessageFilters, 'from' | 'to' | 'terms'> {
  /** Search terms: each must occur (any case) in the senders, recipients, subject or preview. */
  terms?: string[];
  senders?: string[];
  recipients?: string[];
}

export class Store {
  readonly db: Kysely<MailTables>;

  constructor(private readonly platformDb: Db) {
    this.db = platformDb.kysely as Kysely<MailTables>;
  }

  get dialect() {
    return this.platformDb.dialect;
  }

  /** Called after a commit with the inboxes whose messages or threads it changed (caches listen). */
  onChange: (inboxIds: string[]) => Promise<void> = async () => {};
  private readonly touched = new WeakMap<object, Set<string>>();
  private readonly commitHooks = new WeakMap<object, Array<() => Promise<void>>>();

  async transaction<T>(fn: (trx: Tx) => Promise<T>): Promise<T> {
    const inboxes = new Set<string>();
    const hooks: Array<() => Promise<void>> = [];
    const result = await this.db.transaction().execute((trx) => {
      this.touched.set(trx, inboxes);
      this.commitHooks.set(trx, hooks);
      return fn(trx);
    });
    if (inboxes.size) await this.onChange([...inboxes]);
    for (const hook of hooks) await hook().catch(() => {});
    return result;
  }

  /** Runs `fn` once `trx` has committed (at once outside a transaction); never if it rolls back. */
  afterCommit(trx: Tx, fn: () => Promise<void>): void {
    const hooks = this.commitHooks.get(trx);
    if (hooks) hooks.push(fn);
    else void fn().catch(() => {});
  }

  /** Notes that a write in `trx` changed an inbox's contents (reported once it commits). */
  private touch(trx: Tx, inboxId: string): void {
    const set = this.touched.get(trx);
    if (set) set.add(inboxId);
    else void this.onChange([inboxId]);
  }

  /** Case-sensitive substring test that needs no LIKE escaping (labels as JSON text). */
  private contains(column: string, needle: string): RawBuilder<boolean> {
    return this.dialect === 'postgres'
      ? sql<boolean>`strpos(${sql.ref(column)}, ${needle}) > 0`
      : sql<boolean>`instr(${sql.ref(column)}, ${needle}) > 0`;
  }

  /** Case-insensitive substring test over one or more columns. */
  private containsFolded(columns: string[], needle: string): RawBuilder<boolean> {
    const joined = sql.join(columns.map((c) => sql`coalesce(${sql.ref(c)}, '')`), sql` || ' ' || `);
    return this.dialect === 'postgres'
      ? sql<boolean>`strpos(lower(${joined}), ${needle.toLowerCase()}) > 0`
      : sql<boolean>`instr(lower(${joined}), ${needle.toLowerCase()}) > 0`;
  }

  // ---- secrets

  async secret(name: string, create: () => string): Promise<string> {
    const row = await this.db.selectFrom('mail_secrets').select('value').where('name', '=', name).executeTakeFirst();
    if (row) return row.value;
    await this.db.insertInto('mail_secrets').values({ name, value: create() }).onConflict((oc) => oc.column('name').doNothing()).execute();
    const again = await this.db.selectFrom('mail_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
    return again.value;
  }

  // ---- inboxes

  inbox(inboxId: string, trx: Tx = this.db) {
    return trx.selectFrom('mail_inboxes').selectAll().where('inbox_id', '=', inboxId).executeTakeFirst();
  }

  inboxesByIds(ids: string[], trx: Tx = this.db) {
    if (!ids.length) return Promise.resolve([] as InboxRow[]);
    return trx.selectFrom('mail_inboxes').selectAll().where('inbox_id', 'in', ids).execute();
  }

  inboxByClientId(orgId: string, clientId: string) {
    return this.db.selectFrom('mail_inboxes').selectAll().where('org_id', '=', orgId).where('client_id', '=', clientId).executeTakeFirst();
  }

  async insertInbox(row: InboxRow): Promise<void> {
    await this.db.insertInto('mail_inboxes').values(row).execute();
  }

  async updateInbox(inboxId: string, set: Partial<InboxRow>): Promise<void> {
    await this.db.updateTable('mail_inboxes').set(set).where('inbox_id', '=', inboxId).execute();
    await this.onChange([inboxId]);
  }

  /** Deletes an inbox with its messages, threads and raw copies. */
  async deleteInbox(inboxId: string): Promise<void> {
    await this.transaction(async (trx) => {
      await trx.deleteFrom('mail_raw').where('id', 'in', trx.selectFrom('mail_messages').select('id').where('inbox_id', '=', inboxId)).execute();
      await trx.deleteFrom('mail_messages').where('inbox_id', '=', inboxId).execute();
      await trx.deleteFrom('mail_threads').where('inbox_id', '=', inboxId).execute();
      await trx.deleteFrom('mail_inboxes').where('inbox_id', '=', inboxId).execute();
      this.touch(trx, inboxId);
    });
  }

  listInboxes(orgId: string, opts: { limit: number; cursor?: Cursor; ascending?: boolean; q?: string }) {
    let q = this.db.selectFrom('mail_inboxes').selectAll().where('org_id', '=', orgId);
    if (opts.q) q = q.where(this.containsFolded(['inbox_id', 'display_name'], opts.q));
    return this.page(q, 'created_at', 'inbox_id', opts).execute();
  }

  // ---- messages

  message(inboxId: string, messageId: string, trx: Tx = this.db) {
    return trx.selectFrom('mail_messages').selectAll().where('inbox_id', '=', inboxId).where('message_id', '=', messageId).executeTakeFirst();
  }

  messageById(id: string, trx: Tx = this.db) {
    return trx.selectFrom('mail_messages').selectAll().where('id', '=', id).executeTakeFirst();
  }

  messagesByIds(inboxId: string, messageIds: string[]) {
    if (!messageIds.length) return Promise.resolve([] as MessageItemRow[]);
    return this.db.selectFrom('mail_messages').select(MESSAGE_ITEM_COLUMNS).where('inbox_id', '=', inboxId).where('message_id', 'in', messageIds).execute();
  }

  /** The thread of the first of `messageIds` found in the inbox (they come newest first). */
  async threadOfAny(inboxId: string, messageIds: string[], trx: Tx): Promise<string | undefined> {
    if (!messageIds.length) return undefined;
    const rows = await trx
      .selectFrom('mail_messages')
      .select(['message_id', 'thread_id'])
      .where('inbox_id', '=', inboxId)
      .where('message_id', 'in', messageIds.slice(0, 100))
      .execute();
    for (const id of messageIds) {
      const hit = rows.find((r) => r.message_id === id);
      if (hit) return hit.thread_id;
    }
    return undefined;
  }

  async insertMessage(row: MessageRow, raw: Buffer, trx: Tx): Promise<void> {
    this.touch(trx, row.inbox_id);
    await trx.insertInto('mail_messages').values(row).execute();
    // Compressed: mail is text and shrinks severalfold, and the bytes written decide ingest speed.
    await trx.insertInto('mail_raw').values({ id: row.id, raw: deflateRawSync(raw, { level: 1 }) }).execute();
  }

  async setMessageLabels(row: Pick<MessageRow, 'id' | 'inbox_id'>, labels: string[], now: string, trx: Tx): Promise<void> {
    this.touch(trx, row.inbox_id);
    await trx.updateTable('mail_messages').set({ labels: JSON.stringify(labels), updated_at: now }).where('id', '=', row.id).execute();
  }

  async deleteMessage(row: Pick<MessageRow, 'id' | 'inbox_id'>, trx: Tx): Promise<void> {
    this.touch(trx, row.inbox_id);
    await trx.deleteFrom('mail_raw').where('id', '=', row.id).execute();
    await trx.deleteFrom('mail_messages').where('id', '=', row.id).execute();
  }

  async raw(id: string, trx: Tx = this.db): Promise<Buffer | undefined> {
    const row = await trx.selectFrom('mail_raw').select('raw').where('id', '=', id).executeTakeFirst();
    return row ? inflateRawSync(row.raw) : undefined;
  }

  listMessages(inboxIds: string | string[], f: MessageFilters, opts: { limit: number; cursor?: Cursor }) {
    let q = this.db.selectFrom('mail_messages').select([...MESSAGE_ITEM_COLUMNS, ...(f.terms ? (['text_body'] as const) : [])]);
    for (const t of f.terms ?? []) q = q.where(this.containsFolded(['from_addr', 'to_addrs', 'cc_addrs', 'bcc_addrs', 'subject', 'text_body'], t));
    q = typeof inboxIds === 'string' ? q.where('inbox_id', '=', inboxIds) : q.where('inbox_id', 'in', inboxIds.length ? inboxIds : ['']);
    for (const l of f.labels ?? []) q = q.where(this.contains('labels', JSON.stringify(l)));
    for (const l of f.exclude) q = q.where(sql<boolean>`not ${this.contains('labels', JSON.stringify(l))}`);
    if (f.before) q = q.where('timestamp', '<', f.before);
    if (f.after) q = q.where('timestamp', '>', f.after);
    for (const s of f.from ?? []) q = q.where(this.containsFolded(['from_addr'], s));
    for (const s of f.to ?? []) q = q.where(this.containsFolded(['to_addrs', 'cc_addrs', 'bcc_addrs'], s));
    for (const s of f.subject ?? []) q = q.where(this.containsFolded(['subject'], s));
    return this.page(q, 'timestamp', 'id', { ...opts, ascending: f.ascending }).execute();
  }

  /** Messages of a thread, newest page first (the caller reverses a page to ascending order). */
  threadMessages(threadId: string, opts: { limit: number; cursor?: Cursor }) {
    const q = this.db.selectFrom('mail_messages').selectAll().where('thread_id', '=', threadId);
    return this.page(q, 'timestamp', 'id', opts).execute();
  }

  threadMessageRows(threadId: string, trx: Tx) {
    return trx.selectFrom('mail_messages').selectAll().where('thread_id', '=', threadId).execute();
  }

  threadLabelSets(threadId: string, trx: Tx) {
    return trx.selectFrom('mail_messages').select(['labels']).where('thread_id', '=', threadId).execute();
  }

  // ---- threads

  thread(threadId: string, trx: Tx = this.db) {
    return trx.selectFrom('mail_threads').selectAll().where('thread_id', '=', threadId).executeTakeFirst();
  }

  /** The thread row, locked for the rest of the transaction on PostgreSQL (SQLite locks the whole file). */
  threadForUpdate(threadId: string, trx: Tx) {
    let q = trx.selectFrom('mail_threads').selectAll().where('thread_id', '=', threadId);
    if (this.dialect === 'postgres') q = q.forUpdate();
    return q.executeTakeFirst();
  }

  async insertThread(row: ThreadRow, trx: Tx): Promise<void> {
    await trx.insertInto('mail_threads').values(row).execute();
  }

  async updateThread(threadId: string, set: Partial<ThreadRow>, trx: Tx): Promise<void> {
    await trx.updateTable('mail_threads').set(set).where('thread_id', '=', threadId).execute();
  }

  async deleteThread(threadId: string, inboxId: string): Promise<void> {
    await this.transaction(async (trx) => {
      this.touch(trx, inboxId);
      await trx.deleteFrom('mail_raw').where('id', 'in', trx.selectFrom('mail_messages').select('id').where('thread_id', '=', threadId)).execute();
      await trx.deleteFrom('mail_messages').where('thread_id', '=', threadId).execute();
      await trx.deleteFrom('mail_threads').where('thread_id', '=', threadId).execute();
    });
  }

  listThreads(inboxIds: string | string[], f: ThreadFilters, opts: { limit: number; cursor?: Cursor }) {
    let q = this.db.selectFrom('mail_threads').selectAll();
    for (const t of f.terms ?? []) q = q.where(this.containsFolded(['senders', 'recipients', 'subject', 'preview'], t));
    q = typeof inboxIds === 'string' ? q.where('inbox_id', '=', inboxIds) : q.where('inbox_id', 'in', inboxIds.length ? inboxIds : ['']);
    for (const l of f.labels ?? []) q = q.where(this.contains('labels', JSON.stringify(l)));
    for (const l of f.exclude) q = q.where(sql<boolean>`not ${this.contains('labels', JSON.stringify(l))}`);
    if (f.before) q = q.where('timestamp', '<', f.before);
    if (f.after) q = q.where('timestamp', '>', f.after);
    for (const s of f.senders ?? []) q = q.where(this.containsFolded(['senders'], s));
    for (const s of f.recipients ?? []) q = q.where(this.containsFolded(['recipients'], s));
    for (const s of f.subject ?? []) q = q.where(this.containsFolded(['subject'], s));
    return this.page(q, 'timestamp', 'thread_id', { ...opts, ascending: f.ascending }).execute();
  }

  orgInboxIds(orgId: string): Promise<string[]> {
    return this.db
      .selectFrom('mail_inboxes')
      .select('inbox_id')
      .where('org_id', '=', orgId)
      .execute()
      .then((rows) => rows.map((r) => r.inbox_id));
  }

  // ---- webhooks

  webhook(webhookId: string) {
    return this.db.selectFrom('mail_webhooks').selectAll().where('webhook_id', '=', webhookId).executeTakeFirst();
  }

  webhookByClientId(orgId: string, clientId: string) {
    return this.db.selectFrom('mail_webhooks').selectAll().where('org_id', '=', orgId).where('client_id', '=', clientId).executeTakeFirst();
  }

  enabledWebhooks(orgId: string, trx: Tx = this.db) {
    return trx.selectFrom('mail_webhooks').selectAll().where('org_id', '=', orgId).where('enabled', '=', 1).execute();
  }

  async insertWebhook(row: WebhookRow): Promise<void> {
    await this.db.insertInto('mail_webhooks').values(row).execute();
  }

  async updateWebhook(webhookId: string, set: Partial<WebhookRow>): Promise<void> {
    await this.db.updateTable('mail_webhooks').set(set).where('webhook_id', '=', webhookId).execute();
  }

  async deleteWebhook(webhookId: string): Promise<void> {
    await this.db.deleteFrom('mail_webhooks').where('webhook_id', '=', webhookId).execute();
  }

  listWebhooks(orgId: string, opts: { limit: number; cursor?: Cursor; ascending?: boolean }) {
    const q = this.db.selectFrom('mail_webhooks').selectAll().where('org_id', '=', orgId);
    return this.page(q, 'created_at', 'webhook_id', opts).execute();
  }

  // ---- drafts

  draft(draftId: string, trx: Tx = this.db) {
    return trx.selectFrom('mail_drafts').selectAll().where('draft_id', '=', draftId).executeTakeFirst();
  }

  draftByClientId(orgId: string, clientId: string) {
    return this.db.selectFrom('mail_drafts').selectAll().where('org_id', '=', orgId).where('client_id', '=', clientId).executeTakeFirst();
  }

  async insertDraft(row: DraftRow, trx: Tx = this.db): Promise<void> {
    await trx.insertInto('mail_drafts').values(row).execute();
  }

  async updateDraft(draftId: string, set: Partial<DraftRow>, trx: Tx = this.db): Promise<void> {
    await trx.updateTable('mail_drafts').set(set).where('draft_id', '=', draftId).execute();
  }

  async deleteDraft(draftId: string, trx: Tx = this.db): Promise<void> {
    await trx.deleteFrom('mail_drafts').where('draft_id', '=', draftId).execute();
  }

  listDrafts(where: { inboxId?: string; orgId?: string }, opts: { limit: number; cursor?: Cursor; ascending?: boolean }) {
    let q = this.db.selectFrom('mail_drafts').selectAll();
    if (where.inboxId) q = q.where('inbox_id', '=', where.inboxId);
    if (where.orgId) q = q.where('org_id', '=', where.orgId);
    return this.page(q, 'updated_at', 'draft_id', opts).execute();
  }

  // ---- idempotency

  idempotencyRecord(orgId: string, key: string, trx: Tx = this.db) {
    return trx.selectFrom('mail_idempotency').selectAll().where('org_id', '=', orgId).where('key', '=', key).executeTakeFirst();
  }

  async insertIdempotency(orgId: string, key: string, requestHash: string, response: unknown, now: string, trx: Tx): Promise<void> {
    await trx.insertInto('mail_idempotency').values({ org_id: orgId, key, request_hash: requestHash, response: JSON.stringify(response), created_at: now }).execute();
  }

  async pruneIdempotency(olderThan: string): Promise<void> {
    await this.db.deleteFrom('mail_idempotency').where('created_at', '<', olderThan).execute();
  }

  // ---- paging

  /**
   * Keyset paging on (sortKey, id): newest first unless ascending, one extra row fetched so the
   * caller knows whether a next page exists.
   */
  private page<Q extends { where: any; orderBy: any; limit: any }>(
    q: Q,
    sortKey: string,
    idKey: string,
    opts: { limit: number; cursor?: Cursor; ascending?: boolean },
  ): Q {
    const dir = opts.ascending ? 'asc' : 'desc';
    const cmp = opts.ascending ? '>' : '<';
    let out: any = q;
    if (opts.cursor) {
      const [k, id] = opts.cursor;
      out = out.where((eb: any) => eb.or([eb(sortKey, cmp, k), eb.and([eb(sortKey, '=', k), eb(idKey, cmp, id)])]));
    }
    return out.orderBy(sortKey, dir).orderBy(idKey, dir).limit(opts.limit + 1);
  }
}
