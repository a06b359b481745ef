// Manual Trigger: the start of runs from POST /workflows/{id}/execute. Emits one item.
import type { NodeType } from '../engine/node-type.js';

export default {
  types: ['n8n-nodes-base.manualTrigger'],
  trigger: 'manual',
  execute: () => [[{ json: {} }]],
} satisfies NodeType;
