// Legacy Function: `items` in, items out (the sandbox runs it).
import type { NodeType } from '../engine/node-type.js';

// What the node runs when its code parameter is absent: n8n's default code, which adds
// \`myNewField: 1\` to every item (its comments and console.log left out).
const DEFAULT_CODE = 'for (const item of items) {\n  item.json.myNewField = 1;\n}\nreturn items;';

export default {
  types: ['n8n-nodes-base.function'],
  async execute(ctx) {
    return [
      await ctx.expressions.runFunction({
        code: ctx.raw<string>('functionCode', DEFAULT_CODE),
        perItem: false,
        data: ctx.expressionData(0),
        signal: ctx.signal,
      }),
    ];
  },
} satisfies NodeType;
