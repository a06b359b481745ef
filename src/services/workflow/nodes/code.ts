// Code (v1, v2): JavaScript run by the sandbox, once for all items or once per item.
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import { CodeOutputError, type Item } from '../expressions/api.js';

export default {
  types: ['n8n-nodes-base.code'],
  async execute(ctx) {
    const language = ctx.raw<string>('language', 'javaScript');
    if (language !== 'javaScript')
      throw new NodeOperationError(`The Code node language "${language}" is not supported here; use JavaScript`);
    const mode = ctx.raw<'runOnceForAllItems' | 'runOnceForEachItem'>('mode', 'runOnceForAllItems');
    const code = ctx.raw<string>('jsCode', '');
    // Under continueOnFail a failure becomes one failed item, the engine routes it (regular
    // output: just the error; error output: the input's fields and the error). Observed: per
    // item, only the failing item fails; for all items, one item with the error alone.
    const failed = (err: unknown, json: Item['json'], item: number): Item => ({
      json,
      error: { message: (err as Error).message },
      pairedItem: { item },
    });
    if (mode === 'runOnceForEachItem') {
      const out = [];
      for (let i = 0; i < ctx.items.length; i++) {
        try {
          // Without code of its own, n8n 2.8.4 runs its default code per item and fails with
          // "Unknown error" (observed, as for all items).
          if (ctx.raw<unknown>('jsCode', undefined) === undefined) throw new NodeOperationError('Unknown error');
          const items = await ctx.expressions.runCode({ code, mode, data: ctx.expressionData(i), signal: ctx.signal });
          for (const it of items) out.push({ ...it, pairedItem: it.pairedItem ?? { item: i } });
        } catch (err) {
          if (!ctx.continueOnFail || err instanceof CodeOutputError) throw err;
          out.push(failed(err, ctx.items[i].json, i));
        }
      }
      return [out];
    }
    try {
      return [await ctx.expressions.runCode({ code, mode, data: ctx.expressionData(0), signal: ctx.signal })];
    } catch (err) {
      if (!ctx.continueOnFail || err instanceof CodeOutputError) throw err;
      return [[failed(err, {}, 0)]];
    }
  },
} satisfies NodeType;
