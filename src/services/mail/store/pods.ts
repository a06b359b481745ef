// mail_pods: the organization's pods (organization → pods → inboxes).
import { refusingDuplicates } from './duplicates.js';
import { page, type MailDb } from './mail-db.js';
import type { Cursor, PodRow } from './tables.js';

export class PodStore {
  constructor(private readonly m: MailDb) {}

  get(podId: string) {
    return this.m.db.selectFrom('mail_pods').selectAll().where('pod_id', '=', podId).executeTakeFirst();
  }

  byClientId(orgId: string, clientId: string) {
    return this.m.db
      .selectFrom('mail_pods')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
  }

  /** Writes the row unless it exists (the default pod is written the first time it is needed). */
  async ensure(row: PodRow): Promise<void> {
    await this.m.db
      .insertInto('mail_pods')
      .values(row)
      .onConflict((oc) => oc.column('pod_id').doNothing())
      .execute();
  }

  /** Throws DomainError('conflict', code 'duplicate') when the client_id is taken. */
  async insert(row: PodRow): Promise<void> {
    await refusingDuplicates(
      () => this.m.db.insertInto('mail_pods').values(row).execute(),
      'A pod with this client_id already exists',
      { field: 'client_id', code: 'ALREADY_EXISTS' },
    );
  }

  async delete(podId: string): Promise<void> {
    await this.m.db.deleteFrom('mail_pods').where('pod_id', '=', podId).execute();
  }

  list(orgId: string, opts: { limit: number; cursor?: Cursor; ascending?: boolean }) {
    const q = this.m.db.selectFrom('mail_pods').selectAll().where('org_id', '=', orgId);
    return page(q, 'created_at', 'pod_id', opts).execute();
  }

  async count(orgId: string): Promise<number> {
    const row = await this.m.db
      .selectFrom('mail_pods')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
