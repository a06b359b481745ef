// Hamlet Home Trigger: starts a run when a home entity changes state (platform event
// `home.state_changed`), optionally only for one entity and/or one new state.
import { ENTITY_STATE_CHANGED } from '../../../platform/topics.js';
import type { NodeType } from '../engine/node-type.js';

interface StateChanged {
  entity_id?: string;
  old_state?: { state?: string } | null;
  new_state?: { state?: string } | null;
}

export default {
  types: ['hamlet.homeTrigger'],
  trigger: 'event',
  topic: ENTITY_STATE_CHANGED,
  fromEvent(payload, node) {
    const e = payload as StateChanged;
    const p = (node.parameters ?? {}) as { entityId?: string; to?: string };
    if (p.entityId && e.entity_id !== p.entityId) return [];
    if (p.to && e.new_state?.state !== p.to) return [];
    if (e.old_state?.state !== undefined && e.old_state?.state === e.new_state?.state && p.to) return [];
    return [{ json: { entity_id: e.entity_id, old_state: e.old_state ?? null, new_state: e.new_state ?? null } }];
  },
  execute: (ctx) => [ctx.items],
} satisfies NodeType;
