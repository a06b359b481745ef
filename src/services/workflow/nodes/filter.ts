// Filter: keeps the items that match; the dropped ones go to a second output (every version, observed).
import type { NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { itemMatchesFilter, matchV1 } from './if.js';

export default {
  types: ['n8n-nodes-base.filter'],
  outputs: () => 2,
  async execute(ctx) {
    const kept: Item[] = [];
    const dropped: Item[] = [];
    for (let i = 0; i < ctx.items.length; i++) {
      let ok: boolean;
      try {
        // v1 takes IF v1's typed condition lists; v2+ the shared filter format.
        ok = await (ctx.typeVersion >= 2 ? itemMatchesFilter(ctx, i) : matchV1(ctx, i));
      } catch (err) {
        if (!ctx.continueOnFail) throw err;
        ok = false;
      }
      (ok ? kept : dropped).push({ ...ctx.items[i], pairedItem: { item: i } });
    }
    return [kept, dropped];
  },
} satisfies NodeType;
