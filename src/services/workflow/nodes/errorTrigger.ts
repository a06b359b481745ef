// Error Trigger: the start of an error workflow; emits {execution, workflow} of the failed run.
import type { NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';

/** What n8n's Error Trigger starts with when run by hand: its example error (oracle: error-trigger-manual). */
function exampleError(baseUrl: string): Item {
  const id = 231;
  return {
    json: {
      execution: {
        id,
        url: `${baseUrl}/execution/workflow/1/${id}`,
        retryOf: '34',
        error: { message: 'Example Error Message', stack: 'Stacktrace' },
        lastNodeExecuted: 'Node With Error',
        mode: 'manual',
      },
      workflow: { id: '1', name: 'Example Workflow' },
    },
  };
}

export default {
  types: ['n8n-nodes-base.errorTrigger'],
  trigger: 'error',
  manualItems: ({ baseUrl }) => [exampleError(baseUrl)],
  execute: (ctx) => [ctx.items.length ? ctx.items : [{ json: {} }]],
} satisfies NodeType;
