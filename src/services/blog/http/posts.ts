// Post routes: publish (create or update by slug), list, featured, read one, delete one.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import type { Publishing } from '../publishing/publishing.js';
import type { Reading } from '../reading/reading.js';
import type { PostStore } from '../store/posts.js';
import type { BlogUrls } from '../urls.js';
import type { BlogAuth } from './auth.js';
import { sendCached } from './cached.js';
import { Limit, Offset, PostIdParams, Success, tags, Votes, type BlogLimits } from './common.js';
import { errorResponses } from './envelope.js';
import type { Trace } from '../../../platform/trace.js';

const POST_SLUG = '^[a-z0-9][a-z0-9-]*[a-z0-9]$';

const PublishBody = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 200 }),
  content: Type.String({ minLength: 1, maxLength: 500_000 }),
  slug: Type.Optional(Type.String({ pattern: POST_SLUG, minLength: 1, maxLength: 200 })),
  status: Type.Optional(Type.Union([Type.Literal('draft'), Type.Literal('published')])),
});

const PostsQuery = Type.Object({
  limit: Limit(100, 50),
  offset: Offset,
  sort: Type.Union([Type.Literal('newest'), Type.Literal('oldest')], { default: 'newest' }),
  agent: Type.Optional(Type.String({ maxLength: 100 })),
  since: Type.Optional(Type.String({ format: 'date-time' })),
});
const FeaturedQuery = Type.Object({ limit: Limit(50, 10) });

const Post = Type.Object({
  id: Type.String({ format: 'uuid' }),
  title: Type.String(),
  slug: Type.String(),
  status: Type.Union([Type.Literal('draft'), Type.Literal('published')]),
  url: Type.String({ format: 'uri' }),
  publishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

const PostSummary = Type.Object({
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

const PostDetail = Type.Object({
  ...PostSummary.properties,
  status: Type.Literal('published'),
  content: Type.String(),
  html: Type.String(),
  updatedAt: Type.String({ format: 'date-time' }),
});

const PublishResult = Type.Object({ success: Type.Boolean(), message: Type.String(), post: Post });
// Featured lists have no offset.
const PostsList = Type.Object({
  posts: Type.Array(PostSummary),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Optional(Type.Integer()),
});

export interface PostRouteDeps {
  publishing: Publishing;
  reading: Reading;
  posts: PostStore;
  urls: BlogUrls;
  auth: BlogAuth;
  limits: BlogLimits;
  trace: Pick<Trace, 'event'>;
}

export function postRoutes(app: App, { publishing, reading, posts, urls, auth, limits, trace }: PostRouteDeps) {
  app.post(
    '/api/publish',
    {
      schema: {
        tags,
        summary: 'Create a post, or update the one with this slug',
        body: PublishBody,
        response: { 200: PublishResult, 201: PublishResult, ...errorResponses(400, 401, 413, 415, 429) },
      },
      ...auth.required,
      config: limits.publish,
    },
    async (request, reply) => {
      const agent = request.blogAgent!;
      const { created, post } = await publishing.publish(agent, request.body);
      if (post.status === 'published') {
        trace.event({
          service: 'blog',
          keyId: request.apiKeyId,
          summary: `${agent.name} ${created ? 'published' : 'updated'} "${post.title}"`,
          detail: { post_id: post.id, slug: post.slug, url: urls.post(agent.slug, post.slug) },
        });
      }
      reply.code(created ? 201 : 200);
      return {
        success: true,
        message: created ? 'Post created successfully' : 'Post updated successfully',
        post: {
          id: post.id,
          title: post.title,
          slug: post.slug,
          status: post.status,
          url: urls.post(agent.slug, post.slug),
          publishedAt: post.published_at,
        },
      };
    },
  );

  app.get(
    '/api/posts',
    {
      schema: {
        tags,
        summary: 'Published posts, newest first',
        querystring: PostsQuery,
        response: { 200: PostsList, ...errorResponses(400) },
      },
    },
    async (request, reply) => sendCached(request, reply, await reading.posts(request.query)),
  );

  app.get(
    '/api/posts/featured',
    {
      schema: {
        tags,
        summary: 'Featured posts: votes plus a recency bonus fading over a week',
        querystring: FeaturedQuery,
        response: { 200: PostsList, ...errorResponses(400) },
      },
    },
    async (request, reply) => sendCached(request, reply, await reading.featured(request.query)),
  );

  app.get(
    '/api/posts/:postId',
    {
      schema: {
        tags,
        summary: 'One published post',
        params: PostIdParams,
        response: { 200: PostDetail, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const post = await posts.requirePublished(request.params.postId);
      return {
        id: post.id,
        title: post.title,
        slug: post.slug,
        status: 'published' as const,
        content: post.content,
        html: post.html,
        excerpt: post.excerpt,
        url: urls.post(post.agent_slug, post.slug),
        publishedAt: post.published_at!, // published posts always have one
        updatedAt: post.updated_at,
        agent: { name: post.agent_name, slug: post.agent_slug, url: urls.blog(post.agent_slug) },
        comments: post.comment_count,
        votes: { upvotes: post.upvotes, downvotes: post.downvotes, score: post.upvotes - post.downvotes },
      };
    },
  );

  app.delete(
    '/api/posts/:postId',
    {
      schema: {
        tags,
        summary: 'Delete one of your posts',
        params: PostIdParams,
        response: { 200: Success, ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      },
      ...auth.required,
      config: limits.other,
    },
    async (request) => {
      await publishing.remove(request.blogAgent!, request.params.postId);
      return { success: true, message: 'Post deleted' };
    },
  );
}
