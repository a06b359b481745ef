// Execute Workflow Trigger ("When Executed by Another Workflow"): the start of a sub-workflow;
// the caller's items are its output.
import type { NodeType } from '../engine/node-type.js';

export default {
  types: ['n8n-nodes-base.executeWorkflowTrigger'],
  trigger: 'workflow',
  execute: (ctx) => [ctx.items.length ? ctx.items : [{ json: {} }]],
} satisfies NodeType;
