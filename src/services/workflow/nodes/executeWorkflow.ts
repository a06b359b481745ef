// Execute Workflow: runs another stored workflow with this node's items (all at once, or
// once per item) and outputs the sub-workflow's last node output.
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';

export default {
  types: ['n8n-nodes-base.executeWorkflow'],
  async execute(ctx) {
    const source = ctx.raw<string>('source', 'database');
    if (source !== 'database') throw new NodeOperationError(`Execute Workflow source "${source}" is not supported; use a stored workflow`);
    const ref = await ctx.param<unknown>('workflowId', 0, '');
    const id = String(ref && typeof ref === 'object' ? (ref as { value?: unknown }).value ?? '' : ref).trim();
    if (!id) throw new NodeOperationError('No workflow ID given');
    const parent = { executionId: ctx.executionId, workflowId: ctx.workflow.id };
    if (ctx.raw('mode', 'once') === 'each') {
      const out: Item[] = [];
      for (let i = 0; i < ctx.items.length; i++) {
        const items = await ctx.services.runSubWorkflow(id, [ctx.items[i]!], parent);
        for (const it of items) out.push({ ...it, pairedItem: { item: i } });
      }
      return [out];
    }
    return [await ctx.services.runSubWorkflow(id, ctx.items, parent)];
  },
} satisfies NodeType;
