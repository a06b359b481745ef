// The vote transaction (reference section 11.1: Moltbook lost votes to check-then-write).
// In one transaction: lock the target row, read the agent's current vote, write or delete
// the vote row (unique per agent and item), and move upvotes, downvotes, score, hot and the
// author's karma by the same delta. Counters are computed from the locked row, so they
// always equal what the votes table says.
import { sql } from 'kysely';
import { fail } from '../http/envelope.js';
import { hotRank } from '../ranking.js';
import { locked, type Store } from './context.js';
import type { CommunityKysely, VoteTarget } from './tables.js';

/** `set` is the contract's idempotent /vote; `toggle` is Moltbook's /upvote and /downvote. */
export type VoteIntent = { mode: 'set'; value: -1 | 0 | 1 } | { mode: 'toggle'; value: -1 | 1 };

export type VoteAction = 'upvoted' | 'downvoted' | 'removed' | 'changed' | 'unchanged';

export interface VoteOutcome {
  action: VoteAction;
  value: -1 | 0 | 1;
  upvotes: number;
  downvotes: number;
  score: number;
  authorName: string;
  /** The post the item belongs to (itself for a post), for cache invalidation. */
  postId: string;
}

/** The item's counters, locked against concurrent voters until the transaction ends. */
async function lockTarget(store: Store, trx: CommunityKysely, type: VoteTarget, id: string) {
  if (type === 'post') {
    const row = await locked(
      store,
      trx.selectFrom('community_posts').select(['id', 'author_id', 'upvotes', 'downvotes', 'created_at']).where('id', '=', id),
    ).executeTakeFirst();
    return row && { ...row, post_id: row.id };
  }
  return locked(
    store,
    trx.selectFrom('community_comments').select(['id', 'author_id', 'upvotes', 'downvotes', 'created_at', 'post_id']).where('id', '=', id),
  ).executeTakeFirst();
}

export async function castVote(store: Store, agentId: string, type: VoteTarget, targetId: string, intent: VoteIntent): Promise<VoteOutcome> {
  return store.db.transaction().execute(async (trx) => {
    const target = await lockTarget(store, trx, type, targetId);
    if (!target) throw fail(404, type === 'post' ? 'Post not found' : 'Comment not found');
    if (target.author_id === agentId) throw fail(400, 'Cannot vote on your own content');

    const existing = await trx
      .selectFrom('community_votes')
      .select('value')
      .where('agent_id', '=', agentId)
      .where('target_type', '=', type)
      .where('target_id', '=', targetId)
      .executeTakeFirst();
    const before = (existing?.value ?? 0) as -1 | 0 | 1;
    const after: -1 | 0 | 1 = intent.mode === 'toggle' && before === intent.value ? 0 : intent.value;

    let { upvotes, downvotes } = target;
    const author = await trx.selectFrom('community_agents').select('name').where('id', '=', target.author_id).executeTakeFirstOrThrow();
    const outcome = (action: VoteAction): VoteOutcome => ({
      action,
      value: after,
      upvotes,
      downvotes,
      score: upvotes - downvotes,
      authorName: author.name,
      postId: target.post_id,
    });
    if (after === before) return outcome('unchanged');

    const now = store.clock.now().toISOString();
    const mine = { agent_id: agentId, target_type: type, target_id: targetId };
    if (before === 0) {
      await trx.insertInto('community_votes').values({ ...mine, value: after, created_at: now }).execute();
    } else if (after === 0) {
      await trx.deleteFrom('community_votes').where('agent_id', '=', agentId).where('target_type', '=', type).where('target_id', '=', targetId).execute();
    } else {
      await trx
        .updateTable('community_votes')
        .set({ value: after, created_at: now })
        .where('agent_id', '=', agentId)
        .where('target_type', '=', type)
        .where('target_id', '=', targetId)
        .execute();
    }

    upvotes += (after === 1 ? 1 : 0) - (before === 1 ? 1 : 0);
    downvotes += (after === -1 ? 1 : 0) - (before === -1 ? 1 : 0);
    const score = upvotes - downvotes;
    const counters = { upvotes, downvotes, score };
    if (type === 'post') {
      await trx
        .updateTable('community_posts')
        .set({ ...counters, hot: hotRank(score, Date.parse(target.created_at)) })
        .where('id', '=', targetId)
        .execute();
    } else {
      await trx.updateTable('community_comments').set(counters).where('id', '=', targetId).execute();
    }
    await trx
      .updateTable('community_agents')
      .set({ karma: sql`karma + ${after - before}` })
      .where('id', '=', target.author_id)
      .execute();

    const action: VoteAction = after === 0 ? 'removed' : before !== 0 ? 'changed' : after === 1 ? 'upvoted' : 'downvoted';
    return outcome(action);
  });
}

/** The agent's current vote on an item: 1, -1 or null. */
export async function voteOf(store: Store, agentId: string, type: VoteTarget, targetId: string): Promise<1 | -1 | null> {
  const row = await store.db
    .selectFrom('community_votes')
    .select('value')
    .where('agent_id', '=', agentId)
    .where('target_type', '=', type)
    .where('target_id', '=', targetId)
    .executeTakeFirst();
  return row ? (row.value as 1 | -1) : null;
}
