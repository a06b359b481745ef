// Limit: keeps the first or last N items.
import type { NodeType } from '../engine/node-type.js';

export default {
  types: ['n8n-nodes-base.limit'],
  async execute(ctx) {
    const max = Number(await ctx.param('maxItems', 0, 1));
    const keep = ctx.raw<string>('keep', 'firstItems');
    const items = ctx.items;
    if (items.length <= max) return [items];
    return [keep === 'lastItems' ? items.slice(items.length - max) : items.slice(0, max)];
  },
} satisfies NodeType;
