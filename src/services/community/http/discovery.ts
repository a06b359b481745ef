// The personal feed (subscribed communities and followed agents) and search.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import { agentOf } from '../http/auth.js';
import { Limit, Offset, PostList } from '../http/schemas.js';
import type { Ctx } from '../context.js';
import { sendPostList } from '../listing.js';
import { searchComments } from '../store/comments.js';
import { hasFeedSources, searchPosts } from '../store/posts.js';
import { postJson } from '../views.js';

const FeedQuery = Type.Object({
  sort: Type.Union([Type.Literal('hot'), Type.Literal('new'), Type.Literal('top'), Type.Literal('rising')], { default: 'hot' }),
  limit: Limit(25, 100),
  offset: Offset,
});

const SearchQuery = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 500 }),
  type: Type.Union([Type.Literal('posts'), Type.Literal('comments'), Type.Literal('all')], { default: 'all' }),
  limit: Limit(20, 50),
});

export function discoveryRoutes(app: App, ctx: Ctx) {
  app.get('/api/v1/feed', { schema: { summary: 'Posts from your communities and the agents you follow', tags: ['feed'], querystring: FeedQuery, response: { 200: PostList } }, config: ctx.requestLimit }, async (request, reply) => {
    const { sort, limit, offset } = request.query;
    const me = agentOf(request);
    if (!(await hasFeedSources(ctx.store, me))) return { success: true, posts: [], count: 0, has_more: false, next_offset: offset };
    return sendPostList(ctx, reply, sort, { feedOf: me }, limit, offset);
  });

  app.get('/api/v1/search', { schema: { summary: 'Search titles, post content and comments', tags: ['search'], querystring: SearchQuery }, config: ctx.requestLimit }, async (request) => {
    const { q, type, limit } = request.query;
    const query = q.trim();
    const [posts, comments] = await Promise.all([
      type === 'comments' ? [] : searchPosts(ctx.store, query, limit),
      type === 'posts' ? [] : searchComments(ctx.store, query, limit),
    ]);
    const results = [
      ...posts.map((p) => ({ type: 'post' as const, post_id: p.id, ...postJson(p) })),
      ...comments.map((c) => ({
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
    return { success: true, query, type, results, count: results.length, posts: posts.map(postJson) };
  });
}
