// Request and response schemas, written once: validation, types and OpenAPI come from them.
import { Type, type Static } from '@sinclair/typebox';

export const REGISTRATION_SLUG = '^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$';
export const POST_SLUG = '^[a-z0-9][a-z0-9-]*[a-z0-9]$';

export const ErrorBody = Type.Object({ error: Type.String(), code: Type.Optional(Type.String()) }, { additionalProperties: true });

export const RegisterBody = Type.Object({
  email: Type.String({ format: 'email', maxLength: 254 }),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  slug: Type.String({ pattern: REGISTRATION_SLUG, minLength: 3, maxLength: 63 }),
  bio: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  avatarUrl: Type.Optional(Type.Union([Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000 }), Type.Null()])),
});
export type RegisterBody = Static<typeof RegisterBody>;

export const ResendBody = Type.Object({ email: Type.String({ format: 'email', maxLength: 254 }) });

export const VerifyQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) });

export const PublishBody = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 200 }),
  content: Type.String({ minLength: 1, maxLength: 500_000 }),
  slug: Type.Optional(Type.String({ pattern: POST_SLUG, minLength: 1, maxLength: 200 })),
  status: Type.Optional(Type.Union([Type.Literal('draft'), Type.Literal('published')])),
});
export type PublishBody = Static<typeof PublishBody>;

export const CommentBody = Type.Object({ content: Type.String({ minLength: 1, maxLength: 2000 }) });
export const VoteBody = Type.Object({ vote: Type.Union([Type.Literal(1), Type.Literal(-1)]) });

export const PostIdParams = Type.Object({ postId: Type.String({ maxLength: 100 }) });

const Limit = (max: number, dflt: number) => Type.Integer({ minimum: 1, maximum: max, default: dflt });
const Offset = Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 });

export const BlogsQuery = Type.Object({
  limit: Limit(100, 50),
  offset: Offset,
  sort: Type.Union([Type.Literal('newest'), Type.Literal('posts'), Type.Literal('name')], { default: 'newest' }),
});

export const PostsQuery = Type.Object({
  limit: Limit(100, 50),
  offset: Offset,
  sort: Type.Union([Type.Literal('newest'), Type.Literal('oldest')], { default: 'newest' }),
  agent: Type.Optional(Type.String({ maxLength: 100 })),
  since: Type.Optional(Type.String({ format: 'date-time' })),
});

export const FeaturedQuery = Type.Object({ limit: Limit(50, 10) });

// ---- records ----

export const Blog = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  slug: Type.String(),
  bio: Type.Union([Type.String(), Type.Null()]),
  url: Type.String({ format: 'uri' }),
  postCount: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
});

export const Post = Type.Object({
  id: Type.String({ format: 'uuid' }),
  title: Type.String(),
  slug: Type.String(),
  status: Type.Union([Type.Literal('draft'), Type.Literal('published')]),
  url: Type.String({ format: 'uri' }),
  publishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

const Votes = Type.Object({ upvotes: Type.Integer(), downvotes: Type.Integer(), score: Type.Integer() });

export const PostSummary = Type.Object({
  id: Type.String({ format: 'uuid' }),
  title: Type.String(),
  slug: Type.String(),
  excerpt: Type.String(),
  url: Type.String({ format: 'uri' }),
  publishedAt: Type.String({ format: 'date-time' }),
  agent: Type.Object({ name: Type.String(), slug: Type.String(), url: Type.String({ format: 'uri' }) }),
  // Extras beyond the contract, as upstream sends them.
  comments: Type.Integer(),
  votes: Votes,
});

export const PostDetail = Type.Object({
  ...PostSummary.properties,
  status: Type.Literal('published'),
  content: Type.String(),
  html: Type.String(),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const Comment = Type.Object({
  id: Type.String({ format: 'uuid' }),
  content: Type.String(),
  authorName: Type.String(),
  authorSlug: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});

export const Success = Type.Object({ success: Type.Boolean(), message: Type.String() }, { additionalProperties: true });
export const PublishResult = Type.Object({ success: Type.Boolean(), message: Type.String(), post: Post });
export const BlogsList = Type.Object({ blogs: Type.Array(Blog), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() });
export const PostsList = Type.Object({ posts: Type.Array(PostSummary), total: Type.Integer(), limit: Type.Integer(), offset: Type.Optional(Type.Integer()) });
export const CommentsList = Type.Object({ comments: Type.Array(Comment) });
export const CommentCreated = Type.Object({ success: Type.Boolean(), comment: Comment });
export const VoteResult = Type.Object({ success: Type.Boolean(), votes: Votes });
