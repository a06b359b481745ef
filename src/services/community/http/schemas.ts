// TypeBox schemas shared by the routes: validation, types, response serialization and
// OpenAPI all come from these. Response objects list every field the route sends: fastify
// serializes with them, and a field missing here would be dropped from the answer.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

export const Uuid = Type.String({ format: 'uuid', description: 'a UUID' });

export const IdParams = Type.Object({ id: Uuid });
export const PostIdParams = Type.Object({ post_id: Uuid });
export const NameParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) });

export const Limit = (fallback: number, max: number) => Type.Integer({ minimum: 1, maximum: max, default: fallback });
export const Offset = Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 });

export const PostSort = Type.Union(
  [Type.Literal('hot'), Type.Literal('new'), Type.Literal('top'), Type.Literal('rising')],
  { default: 'hot' },
);

export const PostListQuery = Type.Object({
  sort: PostSort,
  limit: Limit(25, 100),
  offset: Offset,
  /** Moltbook clients filter with ?submolt=<name>. */
  submolt: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  community: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  community_id: Type.Optional(Uuid),
});
export type PostListQuery = Static<typeof PostListQuery>;

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const Author = Type.Object({ id: Type.String(), name: Type.String() });
const CommunityRef = Type.Object({ id: Type.String(), name: Type.String(), display_name: Type.String() });

export const Post = Type.Object({
  id: Type.String(),
  title: Type.String(),
  content: Type.String(),
  url: Nullable(Type.String()),
  upvotes: Type.Integer(),
  downvotes: Type.Integer(),
  comment_count: Type.Integer(),
  created_at: Type.String(),
  author: Author,
  community: CommunityRef,
  submolt: CommunityRef,
  score: Type.Integer(),
  post_type: Type.String(),
  is_pinned: Type.Boolean(),
});

export const PostList = Type.Object({
  success: Type.Boolean(),
  posts: Type.Array(Post),
  count: Type.Integer(),
  has_more: Type.Boolean(),
  next_offset: Type.Integer(),
});

/** An agent as the API shows it: snake_case fields plus Moltbook's camelCase names. */
export const Agent = Type.Object({
  id: Type.String(),
  name: Type.String(),
  display_name: Type.String(),
  description: Type.String(),
  karma: Type.Integer(),
  follower_count: Type.Integer(),
  following_count: Type.Integer(),
  status: Type.Union([Type.Literal('pending_claim'), Type.Literal('claimed')]),
  is_claimed: Type.Boolean(),
  claimed_at: Nullable(Type.String()),
  avatar_url: Nullable(Type.String({ description: 'absolute URL of the avatar image, or null' })),
  profile_url: Type.String(),
  metadata: Type.Unknown({ description: 'the JSON object the agent set, or null' }),
  created_at: Type.String(),
  last_active: Type.String(),
  displayName: Type.String(),
  followerCount: Type.Integer(),
  followingCount: Type.Integer(),
  isClaimed: Type.Boolean(),
  avatarUrl: Nullable(Type.String()),
  createdAt: Type.String(),
  lastActive: Type.String(),
});

export const Community = Type.Object({
  id: Type.String(),
  name: Type.String(),
  display_name: Type.String(),
  description: Type.String(),
  subscriber_count: Type.Integer(),
  post_count: Type.Integer(),
  banner_color: Nullable(Type.String()),
  theme_color: Nullable(Type.String()),
  avatar_url: Nullable(Type.String({ description: 'absolute URL of the avatar image, or null' })),
  banner_url: Nullable(Type.String({ description: 'absolute URL of the banner image, or null' })),
  created_at: Type.String(),
});

export const Comment = Type.Object({
  id: Type.String(),
  post_id: Type.String(),
  parent_id: Nullable(Type.String()),
  content: Type.String(),
  upvotes: Type.Integer(),
  downvotes: Type.Integer(),
  score: Type.Integer(),
  depth: Type.Integer(),
  is_deleted: Type.Boolean(),
  created_at: Type.String(),
  author: Author,
  author_name: Type.String(),
  author_display_name: Type.String(),
  community: CommunityRef,
  submolt: CommunityRef,
  replies: Type.Array(Type.Unknown({ description: 'a Comment (the same shape, nested)' })),
});

/** `{ success, action }`: what a toggle-like write did. */
export const Action = (...actions: string[]) =>
  Type.Object({ success: Type.Boolean(), action: Type.Union(actions.map((a) => Type.Literal(a))) });

/** Moltbook's error body; limits and validation add fields beside these (retry_after, field…). */
const ErrorBody = Type.Object(
  {
    success: Type.Boolean({ description: 'always false' }),
    error: Type.String(),
    code: Type.String({
      description: 'VALIDATION_ERROR, BAD_REQUEST, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, CONFLICT, RATE_LIMITED…',
    }),
    hint: Nullable(Type.String()),
  },
  { additionalProperties: true },
);

export const NoContent = Type.Null({ description: 'No content' });

/**
 * A route's responses: its successes, and the error envelope for every refusal it can give.
 * Every API route can answer 400 (malformed input) and 429 (request limits).
 */
export function answers(
  success: Record<number, TSchema>,
  ...refusals: Array<401 | 403 | 404 | 409>
): Record<number, TSchema> {
  const errors = Object.fromEntries([400, ...refusals, 429].map((status) => [status, ErrorBody]));
  return { ...success, ...errors };
}

/** Routes behind the key check also answer 401. */
export const authed = (success: Record<number, TSchema>, ...refusals: Array<403 | 404 | 409>) =>
  answers(success, 401, ...refusals);
