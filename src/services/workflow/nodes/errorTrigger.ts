// Error Trigger: the start of an error workflow; emits {execution, workflow} of the failed run.
import type { NodeType } from '../engine/node-type.js';

export default {
  types: ['n8n-nodes-base.errorTrigger'],
  trigger: 'error',
  execute: (ctx) => [ctx.items.length ? ctx.items : [{ json: {} }]],
} satisfies NodeType;
