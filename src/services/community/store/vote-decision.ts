// The decision of one vote (votes.ts): from the target row read under lock and the agent's
// intent, the new vote, what to call it, the new counters, and the writes needed. Pure, so the
// two executors (Kysely in votes.ts, prepared statements in votes-sqlite.ts) share it.
import { hotRank } from '../ranking/ranking.js';
import { refusal } from './errors.js';
import type { VoteTarget } from './tables.js';

/** `set` is the contract's idempotent /vote; `toggle` is Moltbook's /upvote and /downvote. */
export type VoteIntent = { mode: 'set'; value: -1 | 0 | 1 } | { mode: 'toggle'; value: -1 | 1 };

export type VoteAction = 'upvoted' | 'downvoted' | 'removed' | 'changed' | 'unchanged';

type VoteValue = -1 | 0 | 1;

export interface VoteOutcome {
  action: VoteAction;
  value: VoteValue;
  upvotes: number;
  downvotes: number;
  score: number;
  authorName: string;
  /** The post the item belongs to (itself for a post), for cache invalidation. */
  postId: string;
  /** The post's community, for a vote on a post (cache invalidation). */
  communityId?: string;
  /** For a post: its rank keys before and after the vote (which cached pages it can change). */
  ranks?: { before: { hot: number; score: number }; after: { hot: number; score: number } };
}

/** What the transaction read under lock. */
export interface LockedTarget {
  author_id: string;
  author_name: string;
  upvotes: number;
  downvotes: number;
  created_at: string;
  post_id: string;
  /** Set for posts only. */
  community_id: string | null;
  vote: number | null;
}

/** The whole decision: the new vote, what to call it, the new counters, and the writes needed. */
export function decideVote(target: LockedTarget | undefined, type: VoteTarget, agentId: string, intent: VoteIntent) {
  if (!target) throw refusal('not_found', type === 'post' ? 'Post not found' : 'Comment not found');
  if (target.author_id === agentId) throw refusal('invalid', 'Cannot vote on your own content');
  const before = (target.vote ?? 0) as VoteValue;
  const after: VoteValue = intent.mode === 'toggle' && before === intent.value ? 0 : intent.value;
  const upvotes = target.upvotes + (after === 1 ? 1 : 0) - (before === 1 ? 1 : 0);
  const downvotes = target.downvotes + (after === -1 ? 1 : 0) - (before === -1 ? 1 : 0);
  const action: VoteAction =
    after === before
      ? 'unchanged'
      : after === 0
        ? 'removed'
        : before !== 0
          ? 'changed'
          : after === 1
            ? 'upvoted'
            : 'downvoted';
  const write: 'none' | 'insert' | 'delete' | 'update' =
    after === before ? 'none' : before === 0 ? 'insert' : after === 0 ? 'delete' : 'update';
  const score = upvotes - downvotes;
  const outcome: VoteOutcome = {
    action,
    value: after,
    upvotes,
    downvotes,
    score,
    authorName: target.author_name,
    postId: target.post_id,
    communityId: target.community_id ?? undefined,
  };
  let hot: number | undefined;
  if (type === 'post') {
    const createdMs = Date.parse(target.created_at);
    const scoreBefore = target.upvotes - target.downvotes;
    hot = hotRank(score, createdMs);
    outcome.ranks = { before: { hot: hotRank(scoreBefore, createdMs), score: scoreBefore }, after: { hot, score } };
  }
  return { outcome, write, karmaDelta: after - before, hot };
}
