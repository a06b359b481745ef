// Legacy Function: `items` in, items out (the sandbox runs it).
import type { NodeType } from '../engine/node-type.js';

export default {
  types: ['n8n-nodes-base.function'],
  async execute(ctx) {
    return [await ctx.expressions.runFunction({ code: ctx.raw<string>('functionCode', ''), perItem: false, data: ctx.expressionData(0), signal: ctx.signal })];
  },
} satisfies NodeType;
