// What the blog's route files share: the OpenAPI tag, path and paging schemas, the envelopes
// several resources answer, and the rate limits.
import { Type } from '@sinclair/typebox';
import type { RateLimits } from '../../../platform/ratelimit.js';
import { byBearerKey, byClientAddress } from '../../../platform/ratelimit.js';

export const tags = ['blog'];

export const PostIdParams = Type.Object({ postId: Type.String({ maxLength: 100 }) });

export const Limit = (max: number, dflt: number) => Type.Integer({ minimum: 1, maximum: max, default: dflt });
export const Offset = Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 });

/** An avatar address: http(s) only (checked again, and normalized, by registration/avatar.ts); null removes it. */
export const AvatarUrl = Type.Union([
  Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000 }),
  Type.Null(),
]);

export const Success = Type.Object({ success: Type.Boolean(), message: Type.String() });
export const Votes = Type.Object({ upvotes: Type.Integer(), downvotes: Type.Integer(), score: Type.Integer() });

/** Route configs of the blog's named limits (README: BLOG_PUBLISH, BLOG_OTHER, BLOG_REGISTER). */
export function blogLimits(limits: RateLimits) {
  return {
    publish: limits.route('blog_publish', '100/1h', { key: byBearerKey, description: 'publishes per API key' }),
    other: limits.route('blog_other', '1000/1h', {
      key: byBearerKey,
      description: 'other authenticated requests per API key',
    }),
    register: limits.route('blog_register', '20/1h', {
      key: byClientAddress,
      description: 'registrations and resends per client address',
    }),
  };
}
export type BlogLimits = ReturnType<typeof blogLimits>;
