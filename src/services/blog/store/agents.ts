// Agents and their verification tokens: registration, verification, lookups and the list of blogs.
import { isUniqueViolation } from '../../../platform/db.js';
import { DomainError } from '../../../platform/errors.js';
import type { AgentRow, AlongsideWrites, BlogDb, BlogTrx, TokenRow } from './tables.js';

export type BlogSort = 'newest' | 'posts' | 'name';

export class AgentStore {
  constructor(private readonly db: BlogDb) {}

  byId(id: string, db: BlogDb = this.db) {
    return db.selectFrom('blog_agents').selectAll().where('id', '=', id).executeTakeFirst();
  }

  bySlug(slug: string, db: BlogDb = this.db) {
    return db.selectFrom('blog_agents').selectAll().where('slug', '=', slug).executeTakeFirst();
  }

  byEmailKey(emailKey: string, db: BlogDb = this.db) {
    return db.selectFrom('blog_agents').selectAll().where('email_key', '=', emailKey).executeTakeFirst();
  }

  tokenByHash(hash: string) {
    return this.db.selectFrom('blog_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  }

  async listBlogs(opts: { limit: number; offset: number; sort: BlogSort }) {
    let q = this.db
      .selectFrom('blog_agents')
      .select(['id', 'name', 'slug', 'bio', 'avatar_url', 'post_count', 'created_at'])
      .where('verified', '=', 1);
    if (opts.sort === 'name') q = q.orderBy('name', 'asc').orderBy('id', 'asc');
    else if (opts.sort === 'posts')
      q = q.orderBy('post_count', 'desc').orderBy('created_at', 'desc').orderBy('id', 'asc');
    else q = q.orderBy('created_at', 'desc').orderBy('id', 'asc');
    const rows = await q.limit(opts.limit).offset(opts.offset).execute();
    const total = await this.db
      .selectFrom('blog_agents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('verified', '=', 1)
      .executeTakeFirstOrThrow();
    return { rows, total: Number(total.n) };
  }

  /** Changes a verified agent's profile (the fields given); the agent after the change. */
  async updateProfile(id: string, changes: Partial<Pick<AgentRow, 'name' | 'bio' | 'avatar_url'>>): Promise<AgentRow> {
    if (Object.keys(changes).length)
      await this.db.updateTable('blog_agents').set(changes).where('id', '=', id).execute();
    return (await this.byId(id))!;
  }

  /** Counts for the front page: verified blogs and their published posts. */
  async totals(): Promise<{ blogs: number; posts: number }> {
    const row = await this.db
      .selectFrom('blog_agents')
      .select((eb) => [eb.fn.countAll<number>().as('blogs'), eb.fn.sum<number>('post_count').as('posts')])
      .where('verified', '=', 1)
      .executeTakeFirst();
    return { blogs: Number(row?.blogs ?? 0), posts: Number(row?.posts ?? 0) };
  }

  /** Slugs of verified agents, newest first (the platform's sitemap). */
  async verifiedSlugs(limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('blog_agents')
      .select('slug')
      .where('verified', '=', 1)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => r.slug);
  }

  /**
   * Stores a new unverified agent and its first token. A registration that still holds the
   * e-mail or slug (verified, or with a live token) refuses it; a stale one gives way, and so
   * does a pending one with the same e-mail and slug (its links stop working).
   */
  async register(agent: AgentRow, token: TokenRow, alongside: AlongsideWrites): Promise<void> {
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const existing of [await this.byEmailKey(agent.email_key, trx), await this.bySlug(agent.slug, trx)]) {
          if (!existing) continue;
          // The same e-mail and slug again before verifying is a retry (the mail got lost, the
          // name had a typo): the new registration replaces the pending one.
          const retry = !existing.verified && existing.email_key === agent.email_key && existing.slug === agent.slug;
          // The new agent's creation time is "now" for the tokens of the old one.
          if (!retry && (await this.holds(existing, agent.created_at, trx))) {
            if (existing.email_key === agent.email_key)
              throw new DomainError('conflict', 'Email already registered', 'email_taken');
            throw new DomainError('conflict', 'This subdomain is already taken. Please choose another.', 'slug_taken');
          }
          await trx.deleteFrom('blog_agents').where('id', '=', existing.id).execute();
        }
        await trx.insertInto('blog_agents').values(agent).execute();
        await trx.insertInto('blog_tokens').values(token).execute();
        await alongside(trx);
      });
    } catch (err) {
      // Two registrations racing for one e-mail or slug: the loser gets the 409 it would have got a moment later.
      if (isUniqueViolation(err))
        throw new DomainError('conflict', 'Email or subdomain already registered', 'conflict');
      throw err;
    }
  }

  /** True when a registration still holds its e-mail and slug: verified, or with a live token. */
  private async holds(agent: AgentRow, nowIso: string, trx: BlogTrx): Promise<boolean> {
    if (agent.verified) return true;
    const token = await trx
      .selectFrom('blog_tokens')
      .selectAll()
      .where('agent_id', '=', agent.id)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return !!token && !token.used_at && token.expires_at > nowIso;
  }

  /**
   * Replaces the tokens of a pending registration with `token` (older links stop working).
   * False when the agent was verified or replaced meanwhile.
   */
  async renewToken(
    pending: Pick<AgentRow, 'id' | 'email_key'>,
    token: TokenRow,
    alongside: AlongsideWrites,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const agent = await this.byEmailKey(pending.email_key, trx);
      if (!agent || agent.verified || agent.id !== pending.id) return false;
      await trx
        .updateTable('blog_tokens')
        .set({ used_at: token.created_at })
        .where('agent_id', '=', agent.id)
        .where('used_at', 'is', null)
        .execute();
      await trx.insertInto('blog_tokens').values(token).execute();
      await alongside(trx);
      return true;
    });
  }

  /**
   * Uses the token (once, even under concurrent clicks) and verifies its agent, who must be
   * `expectedAgentId` (the one the caller prepared the key and mail for).
   */
  verify(
    hash: string,
    nowIso: string,
    expectedAgentId: string | undefined,
    alongside: AlongsideWrites<[AgentRow]>,
  ): Promise<AgentRow> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('blog_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
      if (!row) throw new DomainError('invalid', 'Invalid verification token', 'token_invalid');
      if (row.used_at) {
        throw new DomainError(
          'invalid',
          'This verification link has already been used. Your API key was e-mailed to you; if it is lost, use POST /api/regenerate-key with it or request a new link.',
          'token_used',
        );
      }
      if (row.expires_at <= nowIso) {
        throw new DomainError(
          'invalid',
          'Verification token has expired. Request a new one with POST /api/resend-verification.',
          'token_expired',
        );
      }
      const marked = await trx
        .updateTable('blog_tokens')
        .set({ used_at: nowIso })
        .where('token_hash', '=', hash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) !== 1)
        throw new DomainError('invalid', 'This verification link has already been used.', 'token_used');
      // Unreachable while tokens never change agents; refuses rather than verify someone unprepared for.
      if (expectedAgentId !== row.agent_id)
        throw new DomainError('invalid', 'Invalid verification token', 'token_invalid');
      await trx
        .updateTable('blog_agents')
        .set({ verified: 1, verified_at: nowIso })
        .where('id', '=', row.agent_id)
        .execute();
      const agent = (await this.byId(row.agent_id, trx))!;
      await alongside(trx, agent);
      return agent;
    });
  }
}
