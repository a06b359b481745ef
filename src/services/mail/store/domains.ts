// mail_domains: custom domains with their DKIM keys and verification state.
import { refusingDuplicates } from './duplicates.js';
import { page, type MailDb } from './mail-db.js';
import type { Cursor, DomainRow, Tx } from './tables.js';

export class DomainStore {
  constructor(private readonly m: MailDb) {}

  get(domainId: string) {
    return this.m.db.selectFrom('mail_domains').selectAll().where('domain_id', '=', domainId).executeTakeFirst();
  }

  byName(domain: string) {
    return this.m.db.selectFrom('mail_domains').selectAll().where('domain', '=', domain).executeTakeFirst();
  }

  /** Every domain of every organization (the SMTP side and the signer need them all). */
  all() {
    return this.m.db.selectFrom('mail_domains').selectAll().execute();
  }

  /** Throws DomainError('conflict', code 'duplicate') when the domain is already added. */
  async insert(row: DomainRow): Promise<void> {
    await refusingDuplicates(
      () => this.m.db.insertInto('mail_domains').values(row).execute(),
      `Domain ${row.domain} is already added`,
      { field: 'domain', code: 'ALREADY_EXISTS' },
    );
  }

  async update(domainId: string, set: Partial<DomainRow>, trx: Tx = this.m.db): Promise<void> {
    await trx.updateTable('mail_domains').set(set).where('domain_id', '=', domainId).execute();
  }

  async delete(domainId: string): Promise<void> {
    await this.m.db.deleteFrom('mail_domains').where('domain_id', '=', domainId).execute();
  }

  list(where: { orgId: string; podId?: string }, opts: { limit: number; cursor?: Cursor; ascending?: boolean }) {
    let q = this.m.db.selectFrom('mail_domains').selectAll().where('org_id', '=', where.orgId);
    if (where.podId) q = q.where('pod_id', '=', where.podId);
    return page(q, 'created_at', 'domain_id', opts).execute();
  }
}
