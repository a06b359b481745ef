// Posting quotas (reference Decision 9: 1 post per 30 minutes, 50 comments per hour, per
// agent). They are counted from the agent's own rows inside the create transaction, so:
// only a post or comment that was actually created uses up quota (a 400 or 404 costs
// nothing, unlike Moltbook's server); counts survive restarts and are shared by every
// instance; and the manual clock of the tests moves them. The numbers are platform rate
// limits, overridable with HAMLET_RATE_COMMUNITY_POSTS / HAMLET_RATE_COMMUNITY_COMMENTS.
import type { RateLimitSetting } from '../../../platform/settings.js';
import { DomainError } from '../../../platform/errors.js';
import type { CommunityKysely } from './tables.js';

export interface Quota {
  table: 'community_posts' | 'community_comments' | 'community_dm_conversations' | 'community_dm_messages';
  /** The column naming whose quota a row uses up (author_id unless said). */
  column?: 'author_id' | 'requester_id' | 'sender_id';
  /** undefined: no quota. */
  setting: RateLimitSetting | undefined;
  what: string;
}

/** A quota used up; the HTTP layer adds Moltbook's rate-limit headers from its fields. */
export class QuotaExceeded extends DomainError {
  constructor(
    what: string,
    readonly max: number,
    windowMs: number,
    /** Seconds until a slot frees. */
    readonly retryAfterSeconds: number,
    /** When a slot frees, in Unix seconds. */
    readonly resetAtSeconds: number,
  ) {
    const seconds = retryAfterSeconds;
    super('limited', `${what} limit reached: ${max} per ${describeWindow(windowMs)}`, undefined, {
      hint: `Try again in ${seconds} seconds`,
      retry_after: seconds,
      retry_after_seconds: seconds,
      retry_after_minutes: Math.ceil(seconds / 60),
    });
  }
}

/** Throws QuotaExceeded when the agent has used up the quota at `nowMs`. */
export async function enforceQuota(trx: CommunityKysely, quota: Quota, authorId: string, nowMs: number): Promise<void> {
  const s = quota.setting;
  if (!s) return;
  const since = new Date(nowMs - s.windowMs).toISOString();
  const recent = await trx
    .selectFrom(quota.table as 'community_posts')
    .select('created_at')
    .where((quota.column ?? 'author_id') as 'author_id', '=', authorId)
    .where('created_at', '>', since)
    // Rows stamped after now were made before the clock was set back: counted, they would hold
    // the quota shut for as long as the jump back.
    .where('created_at', '<=', new Date(nowMs).toISOString())
    .orderBy('created_at', 'desc')
    .limit(s.max)
    .execute();
  if (recent.length < s.max) return;
  // The window frees a slot when the oldest counted item leaves it.
  const freeAtMs = Date.parse(recent[recent.length - 1].created_at) + s.windowMs;
  const seconds = Math.max(1, Math.ceil((freeAtMs - nowMs) / 1000));
  throw new QuotaExceeded(quota.what, s.max, s.windowMs, seconds, Math.ceil(freeAtMs / 1000));
}

function describeWindow(ms: number): string {
  for (const [unit, size] of [
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
    ['second', 1000],
  ] as const) {
    if (ms % size === 0) return ms === size ? unit : `${ms / size} ${unit}s`;
  }
  return `${ms} ms`;
}
