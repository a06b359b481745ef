// Legacy Function Item: runs once per item with `item` (its json).
import type { NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';

export default {
  types: ['n8n-nodes-base.functionItem'],
  async execute(ctx) {
    const code = ctx.raw<string>('functionCode', '');
    const out: Item[] = [];
    for (let i = 0; i < ctx.items.length; i++) {
      const items = await ctx.expressions.runFunction({ code, perItem: true, data: ctx.expressionData(i), signal: ctx.signal });
      for (const it of items) out.push({ ...it, pairedItem: { item: i } });
    }
    return [out];
  },
} satisfies NodeType;
