// Filter: keeps the items that match. v2+ also records the dropped ones on a second output.
import type { NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { itemMatchesFilter } from './if.js';

export default {
  types: ['n8n-nodes-base.filter'],
  outputs: (node) => (Number(node.typeVersion ?? 1) >= 2 ? 2 : 1),
  async execute(ctx) {
    const kept: Item[] = [];
    const dropped: Item[] = [];
    for (let i = 0; i < ctx.items.length; i++) {
      let ok: boolean;
      try {
        ok = await itemMatchesFilter(ctx, i);
      } catch (err) {
        if (!ctx.continueOnFail) throw err;
        ok = false;
      }
      (ok ? kept : dropped).push({ ...ctx.items[i]!, pairedItem: { item: i } });
    }
    return ctx.typeVersion >= 2 ? [kept, dropped] : [kept];
  },
} satisfies NodeType;
