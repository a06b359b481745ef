// Code (v1, v2): JavaScript run by the sandbox, once for all items or once per item.
import { NodeOperationError, type NodeType } from '../engine/node-type.js';

export default {
  types: ['n8n-nodes-base.code'],
  async execute(ctx) {
    const language = ctx.raw<string>('language', 'javaScript');
    if (language !== 'javaScript') throw new NodeOperationError(`The Code node language "${language}" is not supported here; use JavaScript`);
    const mode = ctx.raw<'runOnceForAllItems' | 'runOnceForEachItem'>('mode', 'runOnceForAllItems');
    const code = ctx.raw<string>('jsCode', '');
    if (mode === 'runOnceForEachItem') {
      const out = [];
      for (let i = 0; i < ctx.items.length; i++) {
        const items = await ctx.expressions.runCode({ code, mode, data: ctx.expressionData(i), signal: ctx.signal });
        for (const it of items) out.push({ ...it, pairedItem: it.pairedItem ?? { item: i } });
      }
      return [out];
    }
    return [await ctx.expressions.runCode({ code, mode, data: ctx.expressionData(0), signal: ctx.signal })];
  },
} satisfies NodeType;
