// mail_drafts: messages being written, until sent (then deleted) or scheduled.
import { refusingDuplicates } from './duplicates.js';
import { page, type MailDb } from './mail-db.js';
import type { Cursor, DraftRow, Tx } from './tables.js';
import { TRASH } from '../labels.js';

export class DraftStore {
  constructor(private readonly m: MailDb) {}

  get(draftId: string, trx: Tx = this.m.db) {
    return trx.selectFrom('mail_drafts').selectAll().where('draft_id', '=', draftId).executeTakeFirst();
  }

  byClientId(orgId: string, clientId: string) {
    return this.m.db
      .selectFrom('mail_drafts')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
  }

  /** Throws DomainError('conflict', code 'duplicate') when the client_id is taken. */
  async insert(row: DraftRow, trx: Tx = this.m.db): Promise<void> {
    await refusingDuplicates(
      () => trx.insertInto('mail_drafts').values(row).execute(),
      'A draft with this client_id already exists',
      { field: 'client_id', code: 'ALREADY_EXISTS' },
    );
  }

  async update(draftId: string, set: Partial<DraftRow>, trx: Tx = this.m.db): Promise<void> {
    await trx.updateTable('mail_drafts').set(set).where('draft_id', '=', draftId).execute();
  }

  async delete(draftId: string, trx: Tx = this.m.db): Promise<void> {
    await trx.deleteFrom('mail_drafts').where('draft_id', '=', draftId).execute();
  }

  list(
    where: { inboxId?: string; orgId?: string; inboxIds?: string[] },
    opts: { limit: number; cursor?: Cursor; ascending?: boolean; includeTrash?: boolean },
  ) {
    let q = this.m.db.selectFrom('mail_drafts').selectAll();
    if (where.inboxIds) q = q.where('inbox_id', 'in', where.inboxIds.length ? where.inboxIds : ['']);
    if (!opts.includeTrash) q = q.where(this.m.hasLabel(TRASH, true));
    if (where.inboxId) q = q.where('inbox_id', '=', where.inboxId);
    if (where.orgId) q = q.where('org_id', '=', where.orgId);
    return page(q, 'updated_at', 'draft_id', opts).execute();
  }
}
