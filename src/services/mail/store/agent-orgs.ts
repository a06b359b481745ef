// mail_agent_orgs: organizations an agent signed up for itself (POST /v0/agent/sign-up), with
// the person attached to them, the code that person was mailed and the day's send count.
import type { MailDb } from './mail-db.js';
import type { AgentOrgRow, Tx } from './tables.js';

export class AgentOrgStore {
  constructor(private readonly m: MailDb) {}

  get(orgId: string, trx: Tx = this.m.db) {
    return trx.selectFrom('mail_agent_orgs').selectAll().where('org_id', '=', orgId).executeTakeFirst();
  }

  /** The row, locked for the rest of the transaction on PostgreSQL (a code check and a send count must not race). */
  getForUpdate(orgId: string, trx: Tx) {
    let q = trx.selectFrom('mail_agent_orgs').selectAll().where('org_id', '=', orgId);
    if (this.m.dialect === 'postgres') q = q.forUpdate();
    return q.executeTakeFirst();
  }

  /** The organization a person's address was attached to (addresses are stored lower-case). */
  byHuman(email: string, trx: Tx = this.m.db) {
    return trx
      .selectFrom('mail_agent_orgs')
      .selectAll()
      .where('human_email', '=', email)
      .orderBy('created_at')
      .executeTakeFirst();
  }

  async insert(row: AgentOrgRow, trx: Tx): Promise<void> {
    await trx.insertInto('mail_agent_orgs').values(row).execute();
  }

  async update(orgId: string, set: Partial<AgentOrgRow>, trx: Tx): Promise<void> {
    await trx.updateTable('mail_agent_orgs').set(set).where('org_id', '=', orgId).execute();
  }
}
