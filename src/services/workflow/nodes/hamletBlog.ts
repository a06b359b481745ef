// Hamlet Blog: publish (or update) a post on the blog service.
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import { callService, perItem } from './hamlet-api.js';

export default {
  types: ['hamlet.blog'],
  execute: (ctx) =>
    perItem(ctx, async (i) => {
      const title = String((await ctx.param('title', i, '')) ?? '').trim();
      if (!title) throw new NodeOperationError('Title is required');
      const body: Record<string, unknown> = {
        title,
        content: String((await ctx.param('content', i, '')) ?? ''),
        status: await ctx.param('status', i, 'published'),
      };
      const slug = await ctx.param<string>('slug', i, '');
      if (slug) body.slug = slug;
      return callService(ctx, { service: 'blog', method: 'POST', path: '/api/publish', body, itemIndex: i });
    }),
} satisfies NodeType;
