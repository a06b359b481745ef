// mail_threads: one row per conversation in an inbox, with counters and unions kept by filing.
import { page, type MailDb } from './mail-db.js';
import type { Cursor, ThreadFilters, ThreadRow, Tx } from './tables.js';

export class ThreadStore {
  constructor(private readonly m: MailDb) {}

  get(threadId: string, trx: Tx = this.m.db) {
    return trx.selectFrom('mail_threads').selectAll().where('thread_id', '=', threadId).executeTakeFirst();
  }

  /** The thread row, locked for the rest of the transaction on PostgreSQL (SQLite locks the whole file). */
  forUpdate(threadId: string, trx: Tx) {
    let q = trx.selectFrom('mail_threads').selectAll().where('thread_id', '=', threadId);
    if (this.m.dialect === 'postgres') q = q.forUpdate();
    return q.executeTakeFirst();
  }

  async insert(row: ThreadRow, trx: Tx): Promise<void> {
    await trx.insertInto('mail_threads').values(row).execute();
  }

  async update(threadId: string, set: Partial<ThreadRow>, trx: Tx): Promise<void> {
    await trx.updateTable('mail_threads').set(set).where('thread_id', '=', threadId).execute();
  }

  /** Removes the row of a thread whose last message went (inside the caller's transaction). */
  async deleteEmpty(threadId: string, trx: Tx): Promise<void> {
    await trx.deleteFrom('mail_threads').where('thread_id', '=', threadId).execute();
  }

  /** Deletes a thread with its messages and their raw copies. */
  async delete(threadId: string, inboxId: string): Promise<void> {
    await this.m.transaction(async (trx) => {
      this.m.touch(trx, inboxId);
      await trx
        .deleteFrom('mail_raw')
        .where('id', 'in', trx.selectFrom('mail_messages').select('id').where('thread_id', '=', threadId))
        .execute();
      await trx.deleteFrom('mail_messages').where('thread_id', '=', threadId).execute();
      await trx.deleteFrom('mail_threads').where('thread_id', '=', threadId).execute();
    });
  }

  list(inboxIds: string | string[], f: ThreadFilters, opts: { limit: number; cursor?: Cursor }) {
    let q = this.m.db.selectFrom('mail_threads').selectAll();
    for (const t of f.terms ?? [])
      q = q.where(this.m.containsFolded(['senders', 'recipients', 'subject', 'preview'], t));
    q =
      typeof inboxIds === 'string'
        ? q.where('inbox_id', '=', inboxIds)
        : q.where('inbox_id', 'in', inboxIds.length ? inboxIds : ['']);
    for (const l of f.labels ?? []) q = q.where(this.m.hasLabel(l));
    for (const l of f.exclude) q = q.where(this.m.hasLabel(l, true));
    if (f.before) q = q.where('timestamp', '<', f.before);
    if (f.after) q = q.where('timestamp', '>', f.after);
    for (const s of f.senders ?? []) q = q.where(this.m.containsFolded(['senders'], s));
    for (const s of f.recipients ?? []) q = q.where(this.m.containsFolded(['recipients'], s));
    for (const s of f.subject ?? []) q = q.where(this.m.containsFolded(['subject'], s));
    return page(q, 'timestamp', 'thread_id', { ...opts, ascending: f.ascending }).execute();
  }
}
