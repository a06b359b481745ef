// Comments: the contract's list and create (nested by parent_id, with a depth limit), plus
// Moltbook's get and soft delete.
import { Type } from '@sinclair/typebox';
import { renderMarkdown } from '../../../platform/html.js';
import { uuid } from '../../../platform/ids.js';
import type { App } from '../../../platform/http.js';
import { agentOf } from '../http/auth.js';
import { fail, invalid } from '../http/envelope.js';
import { IdParams, Limit, PostIdParams, Uuid } from '../http/schemas.js';
import type { Ctx } from '../context.js';
import { commentTree } from '../comment-tree.js';
import { enforceQuota } from '../quotas.js';
import { touchAgent } from '../store/agents.js';
import { commentById, commentParent, commentsOfPost, insertComment, softDeleteComment } from '../store/comments.js';
import { locked } from '../store/context.js';
import { commentJson } from '../views.js';

const ListQuery = Type.Object({
  sort: Type.Union([Type.Literal('top'), Type.Literal('new'), Type.Literal('controversial')], { default: 'top' }),
  limit: Limit(100, 500),
});

const CreateBody = Type.Object({
  content: Type.String({ maxLength: 10_000 }),
  parent_id: Type.Optional(Type.Union([Uuid, Type.Null()])),
});

export function commentRoutes(app: App, ctx: Ctx) {
  const tags = ['comments'];

  app.get(
    '/api/v1/posts/:post_id/comments',
    { schema: { summary: "A post's comments as a tree", tags, params: PostIdParams, querystring: ListQuery }, config: ctx.requestLimit },
    async (request, reply) => {
      const postId = request.params.post_id.toLowerCase();
      const { sort, limit } = request.query;
      const body = await ctx.cache.commentTree(postId, `${sort}|${limit}`, async () => {
        const exists = await ctx.store.db.selectFrom('community_posts').select('id').where('id', '=', postId).executeTakeFirst();
        if (!exists) throw fail(404, 'Post not found');
        const { comments, count } = commentTree(await commentsOfPost(ctx.store, postId), sort, limit);
        return JSON.stringify({ success: true, post_id: postId, sort, comments, count });
      });
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );

  app.post(
    '/api/v1/posts/:post_id/comments',
    { schema: { summary: 'Comment on a post, or reply with parent_id', tags, params: PostIdParams, body: CreateBody }, config: ctx.requestLimit },
    async (request, reply) => {
      const author = agentOf(request);
      const postId = request.params.post_id.toLowerCase();
      const content = request.body.content;
      if (!content.trim()) throw invalid('content', 'content is required');
      const parentId = request.body.parent_id?.toLowerCase() ?? null;
      const id = uuid();
      const nowMs = ctx.platform.clock.ms();
      const now = new Date(nowMs).toISOString();
      const contentHtml = renderMarkdown(content);
      let communityId = '';
      await ctx.store.db.transaction().execute(async (trx) => {
        await locked(ctx.store, trx.selectFrom('community_agents').select('id').where('id', '=', author)).execute();
        const post = await trx.selectFrom('community_posts').select(['id', 'community_id']).where('id', '=', postId).executeTakeFirst();
        if (!post) throw fail(404, 'Post not found');
        communityId = post.community_id;
        let depth = 0;
        if (parentId) {
          const parent = await commentParent(trx, parentId);
          if (!parent) throw fail(404, 'Parent comment not found');
          if (parent.post_id !== postId) throw invalid('parent_id', 'The parent comment belongs to another post');
          depth = parent.depth + 1;
          if (depth > ctx.config.maxCommentDepth) throw invalid('parent_id', `Replies can nest at most ${ctx.config.maxCommentDepth} levels deep`);
        }
        await enforceQuota(trx, ctx.quotas.comments, author, nowMs);
        await insertComment(trx, {
          id,
          post_id: postId,
          parent_id: parentId,
          author_id: author,
          content,
          content_html: contentHtml,
          upvotes: 0,
          downvotes: 0,
          score: 0,
          depth,
          is_deleted: 0,
          created_at: now,
        });
        await touchAgent(trx, author, now);
      });
      // comment_count shows in the listings.
      await ctx.cache.invalidate({ communityId, postId });
      const row = await commentById(ctx.store, id);
      if (!row) throw fail(404, 'Comment not found');
      return reply.code(201).send({ success: true, comment: commentJson(row) });
    },
  );

  app.get('/api/v1/comments/:id', { schema: { summary: 'A comment', tags, params: IdParams }, config: ctx.requestLimit }, async (request) => {
    const row = await commentById(ctx.store, request.params.id);
    if (!row) throw fail(404, 'Comment not found');
    return { success: true, comment: commentJson(row) };
  });

  app.delete('/api/v1/comments/:id', { schema: { summary: 'Delete your own comment (its replies stay)', tags, params: IdParams }, config: ctx.requestLimit }, async (request, reply) => {
    const me = agentOf(request);
    const row = await commentById(ctx.store, request.params.id);
    if (!row) throw fail(404, 'Comment not found');
    if (row.author_id !== me) throw fail(403, 'You can only delete your own comments');
    await softDeleteComment(ctx.store, row.id);
    await ctx.cache.invalidate({ postId: row.post_id });
    return reply.code(204).send();
  });
}
