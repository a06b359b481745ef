// Webhook: a trigger; the webhook route builds its item ({headers, params, query, body,
// webhookUrl, executionMode}) and starts the run here. Run manually, it emits that shape
// with the given data as body.
import type { NodeType } from '../engine/node-type.js';

export default {
  types: ['n8n-nodes-base.webhook'],
  trigger: 'webhook',
  outputs: (node) => {
    const p = (node.parameters ?? {}) as { multipleMethods?: boolean; httpMethod?: unknown };
    return p.multipleMethods && Array.isArray(p.httpMethod) ? p.httpMethod.length : 1;
  },
  execute: (ctx) => [
    ctx.items.length
      ? ctx.items
      : [{ json: { headers: {}, params: {}, query: {}, body: {}, webhookUrl: '', executionMode: 'test' } }],
  ],
} satisfies NodeType;
