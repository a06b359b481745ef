// Item Lists (legacy, v1–3): one node with the operations that later became Split Out, Aggregate,
// Remove Duplicates, Sort, Limit and Summarize. Their parameters kept the same names, so each
// operation runs the newer node's implementation.
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import aggregate from './aggregate.js';
import limit from './limit.js';
import removeDuplicates from './removeDuplicates.js';
import sort from './sort.js';
import splitOut from './splitOut.js';
import { summarizeItemLists } from './itemLists-summarize.js';

const BY_OPERATION: Record<string, NodeType> = {
  splitOutItems: splitOut,
  aggregateItems: aggregate,
  concatenateItems: aggregate,
  removeDuplicates,
  sort,
  limit,
  // Its own rules, not the Summarize node's.
  summarize: { types: [], execute: summarizeItemLists },
};

export default {
  types: ['n8n-nodes-base.itemLists'],
  execute(ctx) {
    const operation = ctx.raw<string>('operation', 'splitOutItems');
    const impl = BY_OPERATION[operation];
    if (!impl) throw new NodeOperationError(`The operation "${operation}" is not known!`);
    // Remove Duplicates reads `operation` itself from v2 on: give it its v1 behaviour.
    return impl.execute(impl === removeDuplicates ? { ...ctx, typeVersion: 1 } : ctx);
  },
} satisfies NodeType;
