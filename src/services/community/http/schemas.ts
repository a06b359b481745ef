// TypeBox schemas shared by the routes: validation, types and OpenAPI come from these.
import { Type, type Static } from '@sinclair/typebox';

export const Uuid = Type.String({ format: 'uuid', description: 'a UUID' });

export const IdParams = Type.Object({ id: Uuid });
export const PostIdParams = Type.Object({ post_id: Uuid });
export const NameParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) });

export const Limit = (fallback: number, max: number) => Type.Integer({ minimum: 1, maximum: max, default: fallback });
export const Offset = Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 });

export const PostSort = Type.Union([Type.Literal('hot'), Type.Literal('new'), Type.Literal('top'), Type.Literal('rising')], { default: 'hot' });

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

const Author = Type.Object({ id: Type.String(), name: Type.String() });
const CommunityRef = Type.Object({ id: Type.String(), name: Type.String(), display_name: Type.String() });

export const Post = Type.Object({
  id: Type.String(),
  title: Type.String(),
  content: Type.String(),
  url: Type.Union([Type.String(), Type.Null()]),
  upvotes: Type.Integer(),
  downvotes: Type.Integer(),
  comment_count: Type.Integer(),
  created_at: Type.String(),
  author: Author,
  community: CommunityRef,
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
