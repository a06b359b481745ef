// The vote transaction (reference section 11.1: Moltbook lost votes to check-then-write).
// In one transaction: lock the target row, read the agent's current vote, write or delete
// the vote row (unique per agent and item), and move upvotes, downvotes, score, hot and the
// author's karma by the same delta. Counters are computed from the locked row, so they
// always equal what the votes table says.
//
// The decision is made once, here; two executors carry it out: Kysely (PostgreSQL, and
// SQLite when the connection is busy) and synchronous prepared statements on the embedded
// SQLite handle, which are several times faster (votes-sqlite.ts); both import the decision
// from vote-decision.ts.
import { sql } from 'kysely';
import type { Clock } from '../../../platform/clock.js';
import type { Db, Dialect } from '../../../platform/db.js';
import type { SqliteAccess } from '../../../platform/sqlite.js';
import { locked } from './sql.js';
import type { CommunityKysely, VoteTarget } from './tables.js';
import { decideVote, type LockedTarget, type VoteIntent, type VoteOutcome } from './vote-decision.js';
import { castVoteSqlite } from './votes-sqlite.js';

export class VoteStore {
  private readonly db: CommunityKysely;
  private readonly dialect: Dialect;
  /** The raw SQLite handle in embedded mode, for the vote hot path (see votes-sqlite.ts). */
  private readonly sqlite?: SqliteAccess;

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    this.db = db.kysely as CommunityKysely;
    this.dialect = db.dialect;
    this.sqlite = db.sqlite;
  }

  /** Whether votes run one at a time in this process, in commit order (embedded SQLite). */
  get serialized(): boolean {
    return this.sqlite !== undefined;
  }

  async cast(agentId: string, type: VoteTarget, targetId: string, intent: VoteIntent): Promise<VoteOutcome> {
    // The embedded handle is shared with Kysely: `run` waits for any transaction open on it,
    // so the synchronous transaction can never interleave with another.
    if (this.sqlite) return this.sqlite.run((db) => castVoteSqlite(db, this.clock, agentId, type, targetId, intent));
    return this.db.transaction().execute(async (trx) => {
      const target = await this.lockTarget(trx, agentId, type, targetId);
      const d = decideVote(target, type, agentId, intent);
      if (d.write === 'none') return d.outcome;
      const now = this.clock.now().toISOString();
      if (d.write === 'insert') {
        await trx
          .insertInto('community_votes')
          .values({
            agent_id: agentId,
            target_type: type,
            target_id: targetId,
            value: d.outcome.value,
            created_at: now,
          })
          .execute();
      } else if (d.write === 'delete') {
        await trx
          .deleteFrom('community_votes')
          .where('agent_id', '=', agentId)
          .where('target_type', '=', type)
          .where('target_id', '=', targetId)
          .execute();
      } else {
        await trx
          .updateTable('community_votes')
          .set({ value: d.outcome.value, created_at: now })
          .where('agent_id', '=', agentId)
          .where('target_type', '=', type)
          .where('target_id', '=', targetId)
          .execute();
      }
      const counters = { upvotes: d.outcome.upvotes, downvotes: d.outcome.downvotes, score: d.outcome.score };
      if (type === 'post') {
        await trx
          .updateTable('community_posts')
          .set({ ...counters, hot: d.hot! })
          .where('id', '=', targetId)
          .execute();
      } else {
        await trx.updateTable('community_comments').set(counters).where('id', '=', targetId).execute();
      }
      await trx
        .updateTable('community_agents')
        .set({ karma: sql`karma + ${d.karmaDelta}` })
        .where('id', '=', target!.author_id)
        .execute();
      return d.outcome;
    });
  }

  /** The agent's current vote on an item: 1, -1 or null (read in `db`, a transaction if given). */
  async voteOf(
    agentId: string,
    type: VoteTarget,
    targetId: string,
    db: CommunityKysely = this.db,
  ): Promise<1 | -1 | null> {
    const row = await db
      .selectFrom('community_votes')
      .select('value')
      .where('agent_id', '=', agentId)
      .where('target_type', '=', type)
      .where('target_id', '=', targetId)
      .executeTakeFirst();
    return row ? (row.value as 1 | -1) : null;
  }

  /**
   * The item's counters, locked against concurrent voters, then the agent's current vote.
   * The vote is read in its own statement on purpose: under READ COMMITTED a statement that
   * waited for the row lock re-checks the locked row but not rows it joined, so a vote joined
   * into the locking statement could be stale (and the insert would then collide).
   */
  private async lockTarget(
    trx: CommunityKysely,
    agentId: string,
    type: VoteTarget,
    id: string,
  ): Promise<LockedTarget | undefined> {
    const table = type === 'post' ? 'community_posts' : 'community_comments';
    const row = await locked(
      this.dialect,
      trx
        .selectFrom(`${table} as t` as 'community_posts as t')
        .innerJoin('community_agents as a', 'a.id', 't.author_id')
        .select(['t.author_id', 'a.name as author_name', 't.upvotes', 't.downvotes', 't.created_at'])
        .select(type === 'post' ? sql<string>`t.id`.as('post_id') : sql<string>`t.post_id`.as('post_id'))
        .select(
          type === 'post'
            ? sql<string | null>`t.community_id`.as('community_id')
            : sql<string | null>`null`.as('community_id'),
        )
        .where('t.id', '=', id),
      ['t'],
    ).executeTakeFirst();
    if (!row) return undefined;
    return { ...row, vote: await this.voteOf(agentId, type, id, trx) };
  }
}
