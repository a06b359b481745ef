// mail_messages and their raw copies (mail_raw, compressed).
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { InboxEventStore } from './inbox-events.js';
import { page, type MailDb } from './mail-db.js';
import {
  MESSAGE_ITEM_COLUMNS,
  type Cursor,
  type MessageFilters,
  type MessageItemRow,
  type MessageRow,
  type Tx,
} from './tables.js';

export class MessageStore {
  /** Every change of a message's labels is also a line of its inbox's event log. */
  private readonly events: InboxEventStore;

  constructor(private readonly m: MailDb) {
    this.events = new InboxEventStore(m);
  }

  get(inboxId: string, messageId: string, trx: Tx = this.m.db) {
    return trx
      .selectFrom('mail_messages')
      .selectAll()
      .where('inbox_id', '=', inboxId)
      .where('message_id', '=', messageId)
      .executeTakeFirst();
  }

  byId(id: string, trx: Tx = this.m.db) {
    return trx.selectFrom('mail_messages').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The message row, locked for the rest of the transaction on PostgreSQL (SQLite locks the whole file). */
  byIdForUpdate(id: string, trx: Tx) {
    let q = trx.selectFrom('mail_messages').selectAll().where('id', '=', id);
    if (this.m.dialect === 'postgres') q = q.forUpdate();
    return q.executeTakeFirst();
  }

  byMessageIds(inboxId: string, messageIds: string[]) {
    if (!messageIds.length) return Promise.resolve([] as MessageItemRow[]);
    return this.m.db
      .selectFrom('mail_messages')
      .select(MESSAGE_ITEM_COLUMNS)
      .where('inbox_id', '=', inboxId)
      .where('message_id', 'in', messageIds)
      .execute();
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

  async insert(row: MessageRow, raw: Buffer, trx: Tx): Promise<void> {
    this.m.touch(trx, row.inbox_id);
    await trx.insertInto('mail_messages').values(row).execute();
    await this.events.labelsChanged(trx, row, [], JSON.parse(row.labels) as string[], row.created_at);
    // Compressed: mail is text and shrinks severalfold, and the bytes written decide ingest speed.
    await trx
      .insertInto('mail_raw')
      .values({ id: row.id, raw: deflateRawSync(raw, { level: 1 }) })
      .execute();
  }

  /** Sets a message's labels; `row.labels` are the ones it had (the inbox's event log records the difference). */
  async setLabels(
    row: Pick<MessageRow, 'id' | 'inbox_id' | 'message_id' | 'labels'>,
    labels: string[],
    now: string,
    trx: Tx,
  ): Promise<void> {
    this.m.touch(trx, row.inbox_id);
    await trx
      .updateTable('mail_messages')
      .set({ labels: JSON.stringify(labels), updated_at: now })
      .where('id', '=', row.id)
      .execute();
    await this.events.labelsChanged(trx, row, JSON.parse(row.labels) as string[], labels, now);
  }

  async delete(row: Pick<MessageRow, 'id' | 'inbox_id'>, trx: Tx): Promise<void> {
    this.m.touch(trx, row.inbox_id);
    await trx.deleteFrom('mail_raw').where('id', '=', row.id).execute();
    await trx.deleteFrom('mail_messages').where('id', '=', row.id).execute();
  }

  async raw(id: string, trx: Tx = this.m.db): Promise<Buffer | undefined> {
    const row = await trx.selectFrom('mail_raw').select('raw').where('id', '=', id).executeTakeFirst();
    return row ? inflateRawSync(row.raw) : undefined;
  }

  list(inboxIds: string | string[], f: MessageFilters, opts: { limit: number; cursor?: Cursor }) {
    let q = this.m.db
      .selectFrom('mail_messages')
      .select([...MESSAGE_ITEM_COLUMNS, ...(f.terms ? (['text_body'] as const) : [])]);
    for (const t of f.terms ?? [])
      q = q.where(this.m.containsFolded(['from_addr', 'to_addrs', 'cc_addrs', 'bcc_addrs', 'subject', 'text_body'], t));
    q =
      typeof inboxIds === 'string'
        ? q.where('inbox_id', '=', inboxIds)
        : q.where('inbox_id', 'in', inboxIds.length ? inboxIds : ['']);
    for (const l of f.labels ?? []) q = q.where(this.m.hasLabel(l));
    for (const l of f.exclude) q = q.where(this.m.hasLabel(l, true));
    if (f.before) q = q.where('timestamp', '<', f.before);
    if (f.after) q = q.where('timestamp', '>', f.after);
    for (const s of f.from ?? []) q = q.where(this.m.containsFolded(['from_addr'], s));
    for (const s of f.to ?? []) q = q.where(this.m.containsFolded(['to_addrs', 'cc_addrs', 'bcc_addrs'], s));
    for (const s of f.subject ?? []) q = q.where(this.m.containsFolded(['subject'], s));
    return page(q, 'timestamp', 'id', { ...opts, ascending: f.ascending }).execute();
  }

  /** Messages of a thread, newest page first (the caller reverses a page to ascending order). */
  pageOfThread(threadId: string, opts: { limit: number; cursor?: Cursor }) {
    const q = this.m.db.selectFrom('mail_messages').selectAll().where('thread_id', '=', threadId);
    return page(q, 'timestamp', 'id', opts).execute();
  }

  allOfThread(threadId: string, trx: Tx) {
    return trx.selectFrom('mail_messages').selectAll().where('thread_id', '=', threadId).execute();
  }

  labelSetsOfThread(threadId: string, trx: Tx) {
    return trx.selectFrom('mail_messages').select(['labels']).where('thread_id', '=', threadId).execute();
  }

  /** What a thread's counters are derived from, oldest first. */
  summariesOfThread(threadId: string, trx: Tx) {
    return trx
      .selectFrom('mail_messages')
      .select([
        'message_id',
        'labels',
        'from_addr',
        'to_addrs',
        'cc_addrs',
        'bcc_addrs',
        'size',
        'timestamp',
        'preview',
      ])
      .where('thread_id', '=', threadId)
      .orderBy('timestamp')
      .orderBy('id')
      .execute();
  }
}
