// Stop and Error: fails the execution with a message or an error object.
import { NodeOperationError, type NodeType } from '../engine/node-type.js';

export default {
  types: ['n8n-nodes-base.stopAndError'],
  async execute(ctx) {
    const type = ctx.raw<string>('errorType', 'errorMessage');
    if (type === 'errorObject') {
      let obj = await ctx.param<unknown>('errorObject', 0, {});
      if (typeof obj === 'string') {
        try {
          obj = JSON.parse(obj);
        } catch {
          /* keep the text */
        }
      }
      const o = (obj ?? {}) as Record<string, unknown>;
      const message =
        typeof o.message === 'string'
          ? o.message
          : typeof o.description === 'string'
            ? o.description
            : JSON.stringify(obj);
      throw new NodeOperationError(message, typeof o.description === 'string' ? o.description : undefined);
    }
    throw new NodeOperationError(String(await ctx.param('errorMessage', 0, '')));
  },
} satisfies NodeType;
