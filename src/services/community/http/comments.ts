// Comments: the contract's list and create (nested by parent_id, with a depth limit), plus
// Moltbook's get and soft delete.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import { commentTree } from '../views/comment-tree.js';
import type { Ctx } from '../context.js';
import { commentJson } from '../views/views.js';
import { agentOf } from './auth.js';
import { fail, invalid } from './envelope.js';
import { authed, Comment, IdParams, Limit, NoContent, PostIdParams, Uuid } from './schemas.js';

const CommentSort = Type.Union(
  [Type.Literal('top'), Type.Literal('new'), Type.Literal('old'), Type.Literal('controversial')],
  { default: 'top' },
);

const ListQuery = Type.Object({ sort: CommentSort, limit: Limit(100, 500) });

const CreateBody = Type.Object({
  content: Type.String({ maxLength: 10_000 }),
  parent_id: Type.Optional(Type.Union([Uuid, Type.Null()])),
});

const CommentList = Type.Object({
  success: Type.Boolean(),
  post_id: Type.String(),
  sort: Type.String(),
  comments: Type.Array(Comment),
  count: Type.Integer(),
});

const OneComment = Type.Object({ success: Type.Boolean(), comment: Comment });

export function commentRoutes(app: App, ctx: Ctx) {
  const tags = ['comments'];
  const { comments } = ctx.store;

  app.get(
    '/api/v1/posts/:post_id/comments',
    {
      schema: {
        summary: "A post's comments as a tree",
        tags,
        params: PostIdParams,
        querystring: ListQuery,
        response: authed({ 200: CommentList }, 404),
      },
      config: ctx.requestLimit,
    },
    async (request, reply) => {
      const postId = request.params.post_id.toLowerCase();
      const { sort, limit } = request.query;
      const body = await ctx.cache.commentTree(postId, `${sort}|${limit}`, async () => {
        const tree = commentTree(await comments.ofPost(postId), sort, limit);
        return JSON.stringify({ success: true, post_id: postId, sort, comments: tree.comments, count: tree.count });
      });
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );

  app.post(
    '/api/v1/posts/:post_id/comments',
    {
      schema: {
        summary: 'Comment on a post, or reply with parent_id',
        tags,
        params: PostIdParams,
        body: CreateBody,
        response: authed({ 201: OneComment }, 404),
      },
      config: ctx.requestLimit,
    },
    async (request, reply) => {
      const content = request.body.content;
      if (!content.trim()) throw invalid('content', 'content is required');
      const postId = request.params.post_id.toLowerCase();
      const { id, communityId } = await comments.create({
        postId,
        authorId: agentOf(request),
        parentId: request.body.parent_id?.toLowerCase() ?? null,
        content,
      });
      // comment_count shows in the listings.
      await ctx.cache.invalidate({ communityId, postId });
      const row = await comments.byId(id);
      if (!row) throw fail(404, 'Comment not found');
      return reply.code(201).send({ success: true, comment: commentJson(row) });
    },
  );

  app.get(
    '/api/v1/comments/:id',
    {
      schema: { summary: 'A comment', tags, params: IdParams, response: authed({ 200: OneComment }, 404) },
      config: ctx.requestLimit,
    },
    async (request) => ({
      success: true,
      comment: commentJson(await comments.get(request.params.id)),
    }),
  );

  app.delete(
    '/api/v1/comments/:id',
    {
      schema: {
        summary: 'Delete your own comment (its replies stay)',
        tags,
        params: IdParams,
        response: authed({ 204: NoContent }, 403, 404),
      },
      config: ctx.requestLimit,
    },
    async (request, reply) => {
      const row = await comments.get(request.params.id);
      if (row.author_id !== agentOf(request)) throw fail(403, 'You can only delete your own comments');
      await comments.softDelete(row.id);
      await ctx.cache.invalidate({ postId: row.post_id });
      return reply.code(204).send();
    },
  );
}
