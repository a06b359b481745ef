// mail_inboxes: one row per address; deleting one takes its messages, threads and raw copies along.
import { refusingDuplicates } from './duplicates.js';
import { page, type MailDb } from './mail-db.js';
import type { Cursor, InboxRow, Tx } from './tables.js';

export class InboxStore {
  constructor(private readonly m: MailDb) {}

  get(inboxId: string, trx: Tx = this.m.db) {
    return trx.selectFrom('mail_inboxes').selectAll().where('inbox_id', '=', inboxId).executeTakeFirst();
  }

  byIds(ids: string[], trx: Tx = this.m.db) {
    if (!ids.length) return Promise.resolve([] as InboxRow[]);
    return trx.selectFrom('mail_inboxes').selectAll().where('inbox_id', 'in', ids).execute();
  }

  byClientId(orgId: string, clientId: string) {
    return this.m.db
      .selectFrom('mail_inboxes')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
  }

  /** Throws DomainError('conflict', code 'duplicate') when the address or client_id is taken. */
  async insert(row: InboxRow, trx: Tx = this.m.db): Promise<void> {
    await refusingDuplicates(
      () => trx.insertInto('mail_inboxes').values(row).execute(),
      `Inbox ${row.inbox_id} already exists`,
      { field: 'username', code: 'ALREADY_EXISTS' },
    );
  }

  async update(inboxId: string, set: Partial<InboxRow>): Promise<void> {
    await this.m.db.updateTable('mail_inboxes').set(set).where('inbox_id', '=', inboxId).execute();
    await this.m.changed([inboxId]);
  }

  /** Deletes an inbox with its messages, threads and raw copies. */
  async delete(inboxId: string): Promise<void> {
    await this.m.transaction(async (trx) => {
      await trx
        .deleteFrom('mail_raw')
        .where('id', 'in', trx.selectFrom('mail_messages').select('id').where('inbox_id', '=', inboxId))
        .execute();
      await trx.deleteFrom('mail_messages').where('inbox_id', '=', inboxId).execute();
      await trx.deleteFrom('mail_threads').where('inbox_id', '=', inboxId).execute();
      await trx.deleteFrom('mail_inbox_events').where('inbox_id', '=', inboxId).execute();
      await trx.deleteFrom('mail_inboxes').where('inbox_id', '=', inboxId).execute();
      this.m.touch(trx, inboxId);
    });
  }

  list(
    orgId: string,
    opts: { limit: number; cursor?: Cursor; ascending?: boolean; q?: string; podId?: string; inboxId?: string },
  ) {
    let q = this.m.db.selectFrom('mail_inboxes').selectAll().where('org_id', '=', orgId);
    if (opts.podId) q = q.where('pod_id', '=', opts.podId);
    if (opts.inboxId) q = q.where('inbox_id', '=', opts.inboxId);
    if (opts.q) q = q.where(this.m.containsFolded(['inbox_id', 'display_name'], opts.q));
    return page(q, 'created_at', 'inbox_id', opts).execute();
  }

  async idsOfOrg(orgId: string): Promise<string[]> {
    const rows = await this.m.db.selectFrom('mail_inboxes').select('inbox_id').where('org_id', '=', orgId).execute();
    return rows.map((r) => r.inbox_id);
  }

  /** The inboxes of an organization, of one of its pods, or one inbox (a scoped key or route). */
  async idsOfScope(scope: { orgId: string; podId?: string; inboxId?: string }): Promise<string[]> {
    let q = this.m.db.selectFrom('mail_inboxes').select('inbox_id').where('org_id', '=', scope.orgId);
    if (scope.podId) q = q.where('pod_id', '=', scope.podId);
    if (scope.inboxId) q = q.where('inbox_id', '=', scope.inboxId);
    return (await q.execute()).map((r) => r.inbox_id);
  }

  async countOfPod(podId: string): Promise<number> {
    const row = await this.m.db
      .selectFrom('mail_inboxes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('pod_id', '=', podId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async countOfOrg(orgId: string): Promise<number> {
    const row = await this.m.db
      .selectFrom('mail_inboxes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
