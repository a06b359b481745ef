// mail_outbox: mail to other domains held while no relay is set (see outbox/outbox.ts).
import { page, type MailDb } from './mail-db.js';
import type { Cursor, OutboxRow, Tx } from './tables.js';

/** A list row: everything but the raw bytes. */
const ITEM_COLUMNS = ['outbox_id', 'org_id', 'inbox_id', 'message_row_id', 'message_id', 'mail_from', 'rcpt_to', 'subject', 'text_body', 'html_body', 'meta', 'created_at'] as const;
export type OutboxItemRow = Pick<OutboxRow, (typeof ITEM_COLUMNS)[number]>;

export class OutboxStore {
  constructor(private readonly m: MailDb) {}

  /** Inserts a held message; one with the same id already held is left as it is. */
  async insert(row: OutboxRow, trx: Tx = this.m.db): Promise<void> {
    await trx.insertInto('mail_outbox').values(row).onConflict((oc) => oc.column('outbox_id').doNothing()).execute();
  }

  /**
   * Held mail an organization may read, newest first: its inboxes' mail and the platform's own
   * (which has no organization). `orgId` undefined: everything (the operator's CLI).
   */
  list(opts: { orgId?: string; limit: number; cursor?: Cursor; ascending?: boolean }): Promise<OutboxItemRow[]> {
    let q = this.m.db.selectFrom('mail_outbox').select(ITEM_COLUMNS);
    if (opts.orgId !== undefined) q = q.where((eb) => eb.or([eb('org_id', '=', opts.orgId!), eb('org_id', 'is', null)]));
    return page(q, 'created_at', 'outbox_id', opts).execute();
  }

  get(outboxId: string, trx: Tx = this.m.db): Promise<OutboxRow | undefined> {
    return trx.selectFrom('mail_outbox').selectAll().where('outbox_id', '=', outboxId).executeTakeFirst();
  }

  /** Ids of every held message, oldest first (what a relay sends when it appears). */
  async ids(): Promise<string[]> {
    return (await this.m.db.selectFrom('mail_outbox').select('outbox_id').orderBy('created_at').orderBy('outbox_id').execute()).map((r) => r.outbox_id);
  }

  /** Takes a held message out; false when another process took it first. */
  async take(outboxId: string, trx: Tx): Promise<boolean> {
    const r = await trx.deleteFrom('mail_outbox').where('outbox_id', '=', outboxId).executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  }
}
