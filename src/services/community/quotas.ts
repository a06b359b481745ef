// Posting quotas (reference Decision 9: 1 post per 30 minutes, 50 comments per hour, per
// agent). They are counted from the agent's own rows inside the create transaction, so:
// only a post or comment that was actually created uses up quota (a 400 or 404 costs
// nothing, unlike Moltbook's server); counts survive restarts and are shared by every
// instance; and the manual clock of the tests moves them. The numbers are platform rate
// limits, overridable with HAMLET_RATE_COMMUNITY_POSTS / HAMLET_RATE_COMMUNITY_COMMENTS.
import type { RateLimitSetting } from '../../config.js';
import { fail } from './http/envelope.js';
import type { CommunityKysely } from './store/tables.js';

export interface Quota {
  table: 'community_posts' | 'community_comments';
  setting: RateLimitSetting | undefined;
  what: string;
}

/** Throws a 429 in Moltbook's form when the agent has used up the quota at `nowMs`. */
export async function enforceQuota(trx: CommunityKysely, quota: Quota, authorId: string, nowMs: number): Promise<void> {
  const s = quota.setting;
  if (!s) return;
  const since = new Date(nowMs - s.windowMs).toISOString();
  const recent = await trx
    .selectFrom(quota.table)
    .select('created_at')
    .where('author_id', '=', authorId)
    .where('created_at', '>', since)
    .orderBy('created_at', 'desc')
    .limit(s.max)
    .execute();
  if (recent.length < s.max) return;
  // The window frees a slot when the oldest counted item leaves it.
  const freeAtMs = Date.parse(recent[recent.length - 1]!.created_at) + s.windowMs;
  const seconds = Math.max(1, Math.ceil((freeAtMs - nowMs) / 1000));
  throw fail(
    429,
    `${quota.what} limit reached: ${s.max} per ${describeWindow(s.windowMs)}`,
    `Try again in ${seconds} seconds`,
    { retry_after: seconds, retry_after_seconds: seconds, retry_after_minutes: Math.ceil(seconds / 60) },
    {
      'retry-after': String(seconds),
      'x-ratelimit-limit': String(s.max),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.ceil(freeAtMs / 1000)),
    },
  );
}

function describeWindow(ms: number): string {
  for (const [unit, size] of [['day', 86_400_000], ['hour', 3_600_000], ['minute', 60_000], ['second', 1000]] as const) {
    if (ms % size === 0) return ms === size ? unit : `${ms / size} ${unit}s`;
  }
  return `${ms} ms`;
}
