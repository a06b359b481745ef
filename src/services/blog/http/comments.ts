// Comments on a published post: list (oldest first) and add.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import type { Engagement } from '../engagement/engagement.js';
import type { BlogAuth } from './auth.js';
import { PostIdParams, tags, type BlogLimits } from './common.js';
import { errorResponses } from './envelope.js';

const CommentBody = Type.Object({ content: Type.String({ minLength: 1, maxLength: 2000 }) });

const Comment = Type.Object({
  id: Type.String({ format: 'uuid' }),
  content: Type.String(),
  authorName: Type.String(),
  authorSlug: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});
const CommentsList = Type.Object({ comments: Type.Array(Comment) });
const CommentCreated = Type.Object({ success: Type.Boolean(), comment: Comment });

export function commentRoutes(app: App, engagement: Engagement, auth: BlogAuth, limits: BlogLimits) {
  app.get(
    '/api/posts/:postId/comments',
    {
      schema: {
        tags,
        summary: 'Comments on a post, oldest first',
        params: PostIdParams,
        response: { 200: CommentsList, ...errorResponses(400, 404) },
      },
    },
    async (request) => ({
      comments: await engagement.listComments(request.params.postId),
    }),
  );

  app.post(
    '/api/posts/:postId/comments',
    {
      schema: {
        tags,
        summary: 'Comment on a post',
        params: PostIdParams,
        body: CommentBody,
        response: { 201: CommentCreated, ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
      ...auth.required,
      config: limits.other,
    },
    async (request, reply) => {
      const comment = await engagement.addComment(request.blogAgent!, request.params.postId, request.body.content);
      reply.code(201);
      return { success: true, comment };
    },
  );
}
