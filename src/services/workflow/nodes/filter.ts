// Filter: keeps the items that match; the dropped ones go to a second output (every version, observed).
// v1 takes IF v1's typed condition lists (combined by AND/OR), v2+ the shared filter format.
import type { NodeType } from '../engine/node-type.js';
import { splitItems } from './if.js';

export default {
  types: ['n8n-nodes-base.filter'],
  outputs: () => 2,
  execute(ctx) {
    const mode = ctx.raw('combineConditions', 'AND');
    return splitItems(ctx, { any: mode === 'OR', all: mode === 'AND' });
  },
} satisfies NodeType;
