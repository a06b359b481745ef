// AgentID's tables: mail_providers (the sites an inbox can sign in to), mail_sign_ins (sign-ins
// under way), mail_sign_in_keys (the public-key credentials they mint) and mail_accounts (one
// inbox signed in at one provider).
import { sql } from 'kysely';
import { page, type MailDb } from './mail-db.js';
import type { AccountRow, Cursor, ProviderRow, SignInKeyRow, SignInRow, Tx } from './tables.js';

/** What a list of accounts or keys may see: an organization, narrowed to a pod or an inbox. */
export interface Visible {
  orgId: string;
  podId?: string;
  inboxId?: string;
}

export class AgentIdStore {
  constructor(private readonly m: MailDb) {}

  provider(providerId: string, trx: Tx = this.m.db) {
    return trx.selectFrom('mail_providers').selectAll().where('provider_id', '=', providerId).executeTakeFirst();
  }

  async insertProvider(row: ProviderRow): Promise<void> {
    await this.m.db.insertInto('mail_providers').values(row).execute();
  }

  /**
   * Listed providers, most popular first (most accounts, then by name), from `offset`; with
   * `prefix`, only those whose name starts with it (case-insensitive).
   */
  listedProviders(opts: { offset: number; limit: number; prefix?: string }) {
    let q = this.m.db
      .selectFrom('mail_providers as p')
      .selectAll('p')
      .select((eb) =>
        eb
          .selectFrom('mail_accounts as a')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('a.provider_id', '=', 'p.provider_id')
          .as('accounts'),
      )
      .where('p.listed', '=', 1);
    // A prefix compared as text (no LIKE: its wildcards would need escaping in both dialects).
    if (opts.prefix)
      q = q.where(sql<string>`substr(lower(p.name), 1, ${opts.prefix.length})`, '=', opts.prefix.toLowerCase());
    return q
      .orderBy('accounts', 'desc')
      .orderBy('p.name')
      .orderBy('p.provider_id')
      .offset(opts.offset)
      .limit(opts.limit + 1)
      .execute();
  }

  signIn(token: string, trx: Tx = this.m.db) {
    let q = trx.selectFrom('mail_sign_ins').selectAll().where('token', '=', token);
    if (this.m.dialect === 'postgres' && trx !== this.m.db) q = q.forUpdate();
    return q.executeTakeFirst();
  }

  async insertSignIn(row: SignInRow, trx: Tx = this.m.db): Promise<void> {
    await trx.insertInto('mail_sign_ins').values(row).execute();
  }

  async updateSignIn(token: string, set: Partial<SignInRow>, trx: Tx): Promise<void> {
    await trx.updateTable('mail_sign_ins').set(set).where('token', '=', token).execute();
  }

  /** Sign-ins past their time, gone once nobody can finish them. */
  async dropExpiredSignIns(now: string): Promise<void> {
    await this.m.db
      .deleteFrom('mail_sign_ins')
      .where('expires_at', '<', now)
      .where('status', '!=', 'completed')
      .execute();
  }

  key(apiKeyId: string, trx: Tx = this.m.db) {
    return trx.selectFrom('mail_sign_in_keys').selectAll().where('api_key_id', '=', apiKeyId).executeTakeFirst();
  }

  async insertKey(row: SignInKeyRow, trx: Tx): Promise<void> {
    await trx.insertInto('mail_sign_in_keys').values(row).execute();
  }

  async updateKey(apiKeyId: string, set: Partial<SignInKeyRow>, trx: Tx): Promise<void> {
    await trx.updateTable('mail_sign_in_keys').set(set).where('api_key_id', '=', apiKeyId).execute();
  }

  async deleteKey(apiKeyId: string): Promise<void> {
    await this.m.db.deleteFrom('mail_sign_in_keys').where('api_key_id', '=', apiKeyId).execute();
  }

  keys(where: Visible, opts: { limit: number; cursor?: Cursor; ascending?: boolean }) {
    return page(
      this.narrowed(this.m.db.selectFrom('mail_sign_in_keys').selectAll(), where),
      'created_at',
      'api_key_id',
      opts,
    ).execute();
  }

  account(accountId: string) {
    return this.m.db.selectFrom('mail_accounts').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  }

  accountOf(providerId: string, inboxId: string, trx: Tx) {
    return trx
      .selectFrom('mail_accounts')
      .selectAll()
      .where('provider_id', '=', providerId)
      .where('inbox_id', '=', inboxId)
      .executeTakeFirst();
  }

  /** The organization's accounts at a provider (its sign-up limit counts them). */
  async accountsOfOrgAt(orgId: string, providerId: string, trx: Tx): Promise<number> {
    const r = await trx
      .selectFrom('mail_accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', orgId)
      .where('provider_id', '=', providerId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async insertAccount(row: AccountRow, trx: Tx): Promise<void> {
    await trx.insertInto('mail_accounts').values(row).execute();
  }

  async countSignIn(accountId: string, at: string, trx: Tx): Promise<void> {
    await trx
      .updateTable('mail_accounts')
      .set((eb) => ({ last_signed_in_at: at, sign_in_count: eb('sign_in_count', '+', 1) }))
      .where('account_id', '=', accountId)
      .execute();
  }

  /** Accounts most recent sign-in first (or oldest first), optionally at one provider. */
  accounts(where: Visible & { providerId?: string }, opts: { limit: number; cursor?: Cursor; ascending?: boolean }) {
    let q = this.narrowed(this.m.db.selectFrom('mail_accounts').selectAll(), where);
    if (where.providerId) q = q.where('provider_id', '=', where.providerId);
    return page(q, 'last_signed_in_at', 'account_id', opts).execute();
  }

  private narrowed<Q extends { where: (...args: any[]) => any }>(q: Q, where: Visible): Q {
    let out: any = q.where('org_id', '=', where.orgId);
    if (where.podId) out = out.where('pod_id', '=', where.podId);
    if (where.inboxId) out = out.where('inbox_id', '=', where.inboxId);
    return out as Q;
  }
}
