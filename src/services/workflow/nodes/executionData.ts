// Execution Data: saves key/value pairs as the execution's custom data (n8n shows them on the
// execution and as $execution.customData); the items pass on unchanged. Observed (n8n 2.8.4):
// values are kept as text, an item whose value is empty leaves the key as it was.
import { NodeOperationError, type NodeType } from '../engine/node-type.js';

export default {
  types: ['n8n-nodes-base.executionData'],
  async execute(ctx) {
    const operation = ctx.raw<string>('operation', 'save');
    if (operation !== 'save') throw new NodeOperationError(`The operation "${operation}" is not known!`);
    for (let i = 0; i < ctx.items.length; i++) {
      const custom = ctx.expressionData(i).execution.customData;
      if (!custom) break;
      for (const { key, value } of (await ctx.param<Array<{ key?: unknown; value?: unknown }>>('dataToSave.values', i, [])) ?? []) {
        if (value === undefined || value === null || value === '') continue;
        const k = String(key ?? '');
        // n8n's limits on custom data: ten keys, keys up to 50 characters, values up to 255.
        if (!(k in custom) && Object.keys(custom).length >= 10) throw new NodeOperationError('Custom data can hold at most 10 items', undefined, i);
        custom[k.slice(0, 50)] = (typeof value === 'object' ? JSON.stringify(value) : String(value)).slice(0, 255);
      }
    }
    return [ctx.items.map((item, i) => ({ ...item, pairedItem: { item: i } }))];
  },
} satisfies NodeType;
