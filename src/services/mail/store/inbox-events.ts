// mail_inbox_events: AgentMail's log of label changes per inbox (label.added, label.removed),
// written by the message store whenever a message's labels change, in the same transaction.
import { page, type MailDb } from './mail-db.js';
import { sortableId } from './sortable-ids.js';
import type { Cursor, InboxEventRow, Tx } from './tables.js';

export class InboxEventStore {
  constructor(private readonly m: MailDb) {}

  /** Records what changed between a message's labels `before` and `after` (a new message: before is empty). */
  async labelsChanged(
    trx: Tx,
    msg: { inbox_id: string; message_id: string },
    before: readonly string[],
    after: readonly string[],
    at: string,
  ): Promise<void> {
    const ms = Date.parse(at);
    const rows: InboxEventRow[] = [
      ...after.filter((l) => !before.includes(l)).map((label) => ({ label, event_type: 'label.added' as const })),
      ...before.filter((l) => !after.includes(l)).map((label) => ({ label, event_type: 'label.removed' as const })),
    ].map((e) => ({
      event_id: sortableId(ms),
      inbox_id: msg.inbox_id,
      message_id: msg.message_id,
      event_type: e.event_type,
      label: e.label,
      event_at: at,
    }));
    if (rows.length) await trx.insertInto('mail_inbox_events').values(rows).execute();
  }

  list(inboxId: string, opts: { limit: number; cursor?: Cursor; ascending?: boolean }) {
    // The cursor's sort key is the id itself: ids sort in the order the events happened.
    return page(
      this.m.db.selectFrom('mail_inbox_events').selectAll().where('inbox_id', '=', inboxId),
      'event_id',
      'event_id',
      opts,
    ).execute();
  }
}
