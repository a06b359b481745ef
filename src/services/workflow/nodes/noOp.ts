// No Operation: passes its items through.
import type { NodeType } from '../engine/node-type.js';

export default {
  types: ['n8n-nodes-base.noOp'],
  execute: (ctx) => [ctx.items],
} satisfies NodeType;
