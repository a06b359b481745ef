// Hamlet Community: create a post in a community, or comment on a post.
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import { callService, perItem } from './hamlet-api.js';

export default {
  types: ['hamlet.community'],
  execute: (ctx) =>
    perItem(ctx, async (i) => {
      if (ctx.raw('operation', 'post') === 'comment') {
        const postId = encodeURIComponent(String(await ctx.param('postId', i, '')));
        if (!postId) throw new NodeOperationError('Post ID is required to comment');
        return callService(ctx, {
          service: 'community',
          method: 'POST',
          path: `/api/v1/posts/${postId}/comments`,
          body: { content: await ctx.param('content', i, '') },
          itemIndex: i,
        });
      }
      const body: Record<string, unknown> = {
        submolt: await ctx.param('community', i, 'general'),
        title: await ctx.param('title', i, ''),
      };
      const url = await ctx.param<string>('url', i, '');
      if (url) body.url = url;
      else body.content = await ctx.param('content', i, '');
      return callService(ctx, { service: 'community', method: 'POST', path: '/api/v1/posts', body, itemIndex: i });
    }),
} satisfies NodeType;
