// Execute Workflow: runs another stored workflow (or one given as JSON in the node) with this node's items (all at once, or
// once per item) and outputs the sub-workflow's last node output.
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';

export default {
  types: ['n8n-nodes-base.executeWorkflow'],
  async execute(ctx) {
    const source = ctx.raw<string>('source', 'database');
    const parent = { executionId: ctx.executionId, workflowId: ctx.workflow.id };
    let run: (items: Item[]) => Promise<Item[]>;
    if (source === 'parameter') {
      // The sub-workflow is JSON in the node itself (`workflowJson`, text or object).
      const raw = await ctx.param<unknown>('workflowJson', 0, '');
      let definition: unknown = raw;
      if (typeof raw === 'string') {
        try {
          definition = JSON.parse(raw);
        } catch {
          throw new NodeOperationError('The workflow JSON in the node is not valid JSON');
        }
      }
      if (!definition || typeof definition !== 'object' || Array.isArray(definition))
        throw new NodeOperationError('The workflow JSON in the node is not a workflow');
      run = (items) => ctx.services.runInlineWorkflow(definition as Record<string, unknown>, items, parent);
    } else if (source === 'database') {
      const ref = await ctx.param<unknown>('workflowId', 0, '');
      const id = String(ref && typeof ref === 'object' ? ((ref as { value?: unknown }).value ?? '') : ref).trim();
      if (!id) throw new NodeOperationError('No workflow ID given');
      run = (items) => ctx.services.runSubWorkflow(id, items, parent);
    } else
      throw new NodeOperationError(
        `Execute Workflow source "${source}" is not supported; use a stored workflow or JSON in the node`,
      );
    if (ctx.raw('mode', 'once') === 'each') {
      const out: Item[] = [];
      for (let i = 0; i < ctx.items.length; i++) {
        const items = await run([ctx.items[i]]);
        for (const it of items) out.push({ ...it, pairedItem: { item: i } });
      }
      return [out];
    }
    return [await run(ctx.items)];
  },
} satisfies NodeType;
