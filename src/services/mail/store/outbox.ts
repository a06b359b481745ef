// mail_outbox: mail to other domains held while no relay is set (see outbox/outbox.ts).
import type { ExpressionBuilder } from 'kysely';
import { page, type MailDb } from './mail-db.js';
import type { Cursor, MailTables, OutboxRow, Tx } from './tables.js';

/** A list row: everything but the raw bytes. */
const ITEM_COLUMNS = [
  'outbox_id',
  'org_id',
  'inbox_id',
  'message_row_id',
  'message_id',
  'mail_from',
  'rcpt_to',
  'subject',
  'text_body',
  'html_body',
  'meta',
  'created_at',
] as const;
export type OutboxItemRow = Pick<OutboxRow, (typeof ITEM_COLUMNS)[number]>;

/**
 * Who reads the outbox through the API: an organization's key, narrowed to its pod or inbox
 * when the key is scoped. The platform's own mail (no organization: a blog's verification link,
 * then its API key) is the operator's alone (platform/keys.ts isOperatorKey).
 */
export interface OutboxViewer {
  orgId: string;
  podId?: string;
  inboxId?: string;
  operator: boolean;
}

/** The held mail a viewer may read, as a condition on mail_outbox. */
function visibleTo(v: OutboxViewer) {
  return (eb: ExpressionBuilder<MailTables, 'mail_outbox'>) => {
    const own = [eb('org_id', '=', v.orgId)];
    if (v.inboxId) own.push(eb('inbox_id', '=', v.inboxId));
    if (v.podId)
      own.push(eb('inbox_id', 'in', eb.selectFrom('mail_inboxes').select('inbox_id').where('pod_id', '=', v.podId)));
    return v.operator ? eb.or([eb.and(own), eb('org_id', 'is', null)]) : eb.and(own);
  };
}

export class OutboxStore {
  constructor(private readonly m: MailDb) {}

  /** Inserts a held message; one with the same id already held is left as it is. */
  async insert(row: OutboxRow, trx: Tx = this.m.db): Promise<void> {
    await trx
      .insertInto('mail_outbox')
      .values(row)
      .onConflict((oc) => oc.column('outbox_id').doNothing())
      .execute();
  }

  /** Held mail a viewer may read, newest first; no viewer: everything (the operator's CLI). */
  list(opts: { viewer?: OutboxViewer; limit: number; cursor?: Cursor; ascending?: boolean }): Promise<OutboxItemRow[]> {
    let q = this.m.db.selectFrom('mail_outbox').select(ITEM_COLUMNS);
    if (opts.viewer) q = q.where(visibleTo(opts.viewer));
    return page(q, 'created_at', 'outbox_id', opts).execute();
  }

  /** One held message, if the viewer may read it. */
  visible(outboxId: string, viewer: OutboxViewer): Promise<OutboxItemRow | undefined> {
    return this.m.db
      .selectFrom('mail_outbox')
      .select(ITEM_COLUMNS)
      .where('outbox_id', '=', outboxId)
      .where(visibleTo(viewer))
      .executeTakeFirst();
  }

  get(outboxId: string, trx: Tx = this.m.db): Promise<OutboxRow | undefined> {
    return trx.selectFrom('mail_outbox').selectAll().where('outbox_id', '=', outboxId).executeTakeFirst();
  }

  /** Ids of every held message, oldest first (what a relay sends when it appears). */
  async ids(): Promise<string[]> {
    return (
      await this.m.db.selectFrom('mail_outbox').select('outbox_id').orderBy('created_at').orderBy('outbox_id').execute()
    ).map((r) => r.outbox_id);
  }

  /** Takes a held message out; false when another process took it first. */
  async take(outboxId: string, trx: Tx): Promise<boolean> {
    const r = await trx.deleteFrom('mail_outbox').where('outbox_id', '=', outboxId).executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  }
}
