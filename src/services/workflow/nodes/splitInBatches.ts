// Loop Over Items (Split in Batches). Each run hands out the next batch; the loop body feeds
// back into this node; when nothing is left, everything processed leaves on the done output.
// v3 outputs are [done, loop]; v2 [loop, done]; v1 has only the batch output.
import type { NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';

interface LoopState {
  items?: Item[];
  processed: Item[];
  done?: boolean;
  /** This batch's number (0 first) and how many batches the input made, as `$node["Loop"].context` shows them. */
  currentRunIndex?: number;
  maxRunIndex?: number;
  /** v1's loop ends through an IF on `$node["Loop"].context["noItemsLeft"]`: true once the batch handed out was the last (oracle: engine-loop-v1). */
  noItemsLeft?: boolean;
}

export default {
  types: ['n8n-nodes-base.splitInBatches'],
  outputs: (node) => (Number(node.typeVersion ?? 1) >= 2 ? 2 : 1),
  async execute(ctx) {
    const requested = Number(await ctx.param('batchSize', 0, ctx.typeVersion >= 3 ? 1 : 10));
    // A batch size of 0 makes v2/v3 put out nothing on either output (observed in manual runs).
    if (requested === 0 && ctx.typeVersion >= 2) return [[], []];
    // v1 hands out `size` items as asked: 0 (or less) hands out none.
    const size = ctx.typeVersion >= 2 ? Math.max(1, requested) : Math.max(0, requested);
    const state = ctx.context as unknown as LoopState;
    const reset = await ctx.param<boolean>('options.reset', 0, false);
    let batch: Item[];
    if (state.items === undefined || reset) {
      const all = ctx.items.map((it, i) => ({ ...it, pairedItem: { item: i } }));
      batch = all.slice(0, size);
      state.items = all.slice(size);
      state.processed = [];
      state.currentRunIndex = 0;
      state.maxRunIndex = Math.ceil(all.length / size);
    } else {
      state.processed.push(...ctx.items);
      batch = state.items.splice(0, size);
      state.currentRunIndex = (state.currentRunIndex ?? 0) + 1;
    }
    state.done = batch.length === 0;
    state.noItemsLeft = state.items.length === 0;
    // v1 with nothing to hand out ends its branch: n8n records no run of it (oracle: fz-splitInBatches-1-1c50427b).
    if (ctx.typeVersion < 2) return batch.length ? [batch] : null;
    const done = state.done ? state.processed : [];
    return ctx.typeVersion >= 3 ? [done, batch] : [batch, done];
  },
} satisfies NodeType;
