// The personal feed (subscribed communities and followed agents) and search (posts and
// comments as production's `results`; posts, agents and submolts as the open-source server's).
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import type { Ctx } from '../context.js';
import { agentJson, communityJson, postJson } from '../views/views.js';
import { agentOf } from './auth.js';
import { sendPostList } from './listing.js';
import { Agent, authed, Community, Limit, Offset, Post, PostList } from './schemas.js';

const FeedQuery = Type.Object({
  sort: Type.Union([Type.Literal('hot'), Type.Literal('new'), Type.Literal('top'), Type.Literal('rising')], {
    default: 'hot',
  }),
  limit: Limit(25, 100),
  offset: Offset,
});

const SearchType = Type.Union([Type.Literal('posts'), Type.Literal('comments'), Type.Literal('all')], {
  default: 'all',
});

const SearchQuery = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 500 }),
  type: SearchType,
  limit: Limit(20, 50),
});

// A result is a post (the Post fields) or a comment; `type` tells which, and lets the
// serializer pick the right shape.
const PostResult = Type.Composite([Type.Object({ type: Type.Literal('post'), post_id: Type.String() }), Post]);
const CommentResult = Type.Object({
  type: Type.Literal('comment'),
  id: Type.String(),
  post_id: Type.String(),
  content: Type.String(),
  upvotes: Type.Integer(),
  downvotes: Type.Integer(),
  created_at: Type.String(),
  author: Type.Object({ id: Type.String(), name: Type.String() }),
});

const SearchResults = Type.Object({
  success: Type.Boolean(),
  query: Type.String(),
  type: Type.String(),
  results: Type.Array(Type.Union([PostResult, CommentResult])),
  count: Type.Integer(),
  posts: Type.Array(Post),
  agents: Type.Array(Agent),
  submolts: Type.Array(Community),
  communities: Type.Array(Community),
});

export function discoveryRoutes(app: App, ctx: Ctx) {
  const { posts, comments, agents, communities } = ctx.store;

  app.get(
    '/api/v1/feed',
    {
      schema: {
        summary: 'Posts from your communities and the agents you follow',
        tags: ['feed'],
        querystring: FeedQuery,
        response: authed({ 200: PostList }),
      },
      config: ctx.requestLimit,
    },
    async (request, reply) => {
      const { sort, limit, offset } = request.query;
      const me = agentOf(request);
      if (!(await posts.hasFeedSources(me)))
        return { success: true, posts: [], count: 0, has_more: false, next_offset: offset };
      return sendPostList(ctx, reply, sort, { feedOf: me }, limit, offset);
    },
  );

  app.get(
    '/api/v1/search',
    {
      schema: {
        summary: 'Search titles, post content and comments',
        tags: ['search'],
        querystring: SearchQuery,
        response: authed({ 200: SearchResults }),
      },
      config: ctx.requestLimit,
    },
    async (request) => {
      const { q, type, limit } = request.query;
      const query = q.trim();
      const [foundPosts, foundComments, foundAgents, foundCommunities] = await Promise.all([
        type === 'comments' ? [] : posts.search(query, limit),
        type === 'posts' ? [] : comments.search(query, limit),
        agents.search(query, limit),
        communities.search(query, limit),
      ]);
      const results = [
        ...foundPosts.map((p) => ({ type: 'post' as const, post_id: p.id, ...postJson(p) })),
        ...foundComments.map((c) => ({
          type: 'comment' as const,
          id: c.id,
          post_id: c.post_id,
          content: c.content,
          upvotes: c.upvotes,
          downvotes: c.downvotes,
          created_at: c.created_at,
          author: { id: c.author_id, name: c.author_name },
        })),
      ]
        .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0))
        .slice(0, limit);
      // Production's `results` list, and the open-source server's {posts, agents, submolts}.
      const found = foundCommunities.map((c) => communityJson(c, ctx.links));
      return {
        success: true,
        query,
        type,
        results,
        count: results.length,
        posts: foundPosts.map(postJson),
        agents: foundAgents.map((a) => agentJson(a, ctx.links)),
        submolts: found,
        communities: found,
      };
    },
  );
}
