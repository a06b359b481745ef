// Legacy Function Item: runs once per item with `item` (its json).
import type { NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';

// What the node runs when its code parameter is absent: n8n's default code, which adds
// \`myNewField: 1\` to the item (its comments and console.log left out).
const DEFAULT_CODE = 'item.myNewField = 1;\nreturn item;';

export default {
  types: ['n8n-nodes-base.functionItem'],
  async execute(ctx) {
    const code = ctx.raw<string>('functionCode', DEFAULT_CODE);
    const out: Item[] = [];
    for (let i = 0; i < ctx.items.length; i++) {
      const items = await ctx.expressions.runFunction({
        code,
        perItem: true,
        data: ctx.expressionData(i),
        signal: ctx.signal,
      });
      for (const it of items) out.push({ ...it, pairedItem: { item: i } });
    }
    return [out];
  },
} satisfies NodeType;
