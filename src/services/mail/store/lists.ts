// mail_list_entries: allow and block lists by organization, pod or inbox and direction.
import { refusingDuplicates } from './duplicates.js';
import type { MailDb } from './mail-db.js';
import type { ListEntryRow, Tx } from './tables.js';

export interface ListKey {
  orgId: string;
  podId: string;
  inboxId: string;
  direction: string;
  listType: string;
}

export class ListStore {
  constructor(private readonly m: MailDb) {}

  private where(k: ListKey) {
    return this.m.db
      .selectFrom('mail_list_entries')
      .selectAll()
      .where('org_id', '=', k.orgId)
      .where('pod_id', '=', k.podId)
      .where('inbox_id', '=', k.inboxId)
      .where('direction', '=', k.direction)
      .where('list_type', '=', k.listType);
  }

  get(k: ListKey, entry: string) {
    return this.where(k).where('entry', '=', entry).executeTakeFirst();
  }

  /** Ordered by entry ascending (AgentMail's order); `after` is the last entry of the previous page. */
  list(k: ListKey, opts: { limit: number; after?: string }) {
    let q = this.where(k);
    if (opts.after !== undefined) q = q.where('entry', '>', opts.after);
    return q
      .orderBy('entry')
      .limit(opts.limit + 1)
      .execute();
  }

  /** Throws DomainError('conflict', code 'duplicate') when the entry is already on the list. */
  async insert(row: ListEntryRow): Promise<void> {
    await refusingDuplicates(
      () => this.m.db.insertInto('mail_list_entries').values(row).execute(),
      `${row.entry} is already on this list`,
      { field: 'entry', code: 'ALREADY_EXISTS' },
    );
  }

  async delete(k: ListKey, entry: string): Promise<number> {
    const r = await this.m.db
      .deleteFrom('mail_list_entries')
      .where('org_id', '=', k.orgId)
      .where('pod_id', '=', k.podId)
      .where('inbox_id', '=', k.inboxId)
      .where('direction', '=', k.direction)
      .where('list_type', '=', k.listType)
      .where('entry', '=', entry)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Every receive entry of an organization (few; cached by lists/check.ts). */
  receiveEntries(orgId: string, trx: Tx = this.m.db) {
    return trx
      .selectFrom('mail_list_entries')
      .select(['pod_id', 'inbox_id', 'list_type', 'entry'])
      .where('org_id', '=', orgId)
      .where('direction', '=', 'receive')
      .execute();
  }
}
