// The request limits of the API (Decision 9): every authenticated route shares one count per
// key; sign-ups count per client address. Posting quotas live in quotas.ts.
import type { LimitDetails, RateLimits } from '../../../platform/ratelimit.js';
import { byBearerKey } from '../../../platform/ratelimit.js';

/** Moltbook's 429 fields beside the envelope: retry_after in seconds, and the production names. */
export const retryDetails: LimitDetails = ({ ttlMs }) => {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  return { retry_after: seconds, retry_after_seconds: seconds, retry_after_minutes: Math.ceil(seconds / 60), hint: `Try again in ${seconds} seconds` };
};

export function requestLimit(limits: RateLimits) {
  return limits.route('community_requests', '100/1m', {
    key: byBearerKey,
    description: 'API requests per key (all authenticated routes together)',
    details: retryDetails,
  });
}
