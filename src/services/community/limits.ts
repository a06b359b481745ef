// The request limits of the API (Decision 9): every authenticated route shares one count per
// key; sign-ups count per client address. Posting quotas are counted in store/quotas.ts.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LimitDetails, RateLimits } from '../../platform/ratelimit.js';
import { byBearerKey } from '../../platform/ratelimit.js';
import { QuotaExceeded } from './store/quotas.js';

/** Moltbook's 429 fields beside the envelope: retry_after in seconds, and the production names. */
export const retryDetails: LimitDetails = ({ ttlMs }) => {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  return {
    retry_after: seconds,
    retry_after_seconds: seconds,
    retry_after_minutes: Math.ceil(seconds / 60),
    hint: `Try again in ${seconds} seconds`,
  };
};

export function requestLimit(limits: RateLimits) {
  return limits.route('community_requests', '100/1m', {
    key: byBearerKey,
    description: 'API requests per key (all authenticated routes together)',
    details: retryDetails,
  });
}

/**
 * The posting quotas' numbers (HAMLET_RATE_COMMUNITY_POSTS / _COMMENTS / _DM_REQUESTS / _DM_MESSAGES): declared as platform
 * rate limits so they are configured like every other, but counted by the stores from the
 * stored rows (store/quotas.ts).
 */
export function postingQuotas(limits: RateLimits) {
  const quota = (what: string, fallback: string, description = what) =>
    limits.setting(`community_${what}`, fallback, `${description} per agent (counted from stored ${description})`);
  return {
    posts: quota('posts', '1/30m'),
    comments: quota('comments', '50/1h'),
    dmRequests: quota('dm_requests', '10/1h', 'DM chat requests'),
    dmMessages: quota('dm_messages', '60/1m', 'DM messages'),
  };
}

/**
 * Moltbook sends X-RateLimit-Reset as a Unix time in seconds (as the posting quotas here do);
 * the counting plugin sends the seconds left. This turns the latter into the former.
 */
export function absoluteResetHeader(nowMs: () => number) {
  return async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const reset = reply.getHeader('x-ratelimit-reset');
    if (reset !== undefined && Number(reset) < 1e9)
      reply.header('x-ratelimit-reset', String(Math.ceil(nowMs() / 1000) + Number(reset)));
    return payload;
  };
}

/**
 * Moltbook's rate-limit headers on a refused post or comment (a used-up posting quota);
 * Retry-After comes from the platform, as for every "limited" refusal naming its wait.
 */
export async function quotaHeaders(_request: FastifyRequest, reply: FastifyReply, error: Error): Promise<void> {
  if (!(error instanceof QuotaExceeded)) return;
  reply.headers({
    'x-ratelimit-limit': String(error.max),
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': String(error.resetAtSeconds),
  });
}
