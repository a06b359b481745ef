// The home's state machine across the instances of a cluster. Each instance keeps every
// entity's current state in memory (REST reads and WebSocket subscriptions are served from
// there), so a write on one instance must reach the memory of every other:
//
// - every state change made here goes out on the platform bus (ENTITY_STATE_CHANGED, which
//   the workflow's home trigger hears too) with this instance's id as `origin`;
// - a change from another instance is applied as it was made there (its times, its context)
//   and fired on this home's bus, so WebSocket subscribers here see it as a state_changed
//   event; it is not stored or recorded again (its instance did that) nor published again.
//
// Order: Redis delivers one publisher's messages in order; between instances the later
// last_updated wins (StateMachine.applyReplicated), so instances agree once writes stop.
// Without Redis the bus stays in this process and this instance hears only itself.
import { randomUUID } from 'node:crypto';
import type { EventBus } from '../../../platform/events.js';
import type { Logger } from '../../../platform/logger.js';
import { ENTITY_STATE_CHANGED } from '../../../platform/topics.js';
import type { HomeBus } from '../core/bus.js';
import { parseIsoUs } from '../core/time.js';
import { stateFromObject, type State } from '../core/state.js';
import type { StateMachine } from '../core/states.js';

export interface Replication {
  /** This instance, as the `origin` of the changes it publishes. */
  readonly instanceId: string;
  stop(): void;
}

export function replicateStates(home: { bus: HomeBus; states: StateMachine }, events: EventBus, logger: Logger): Replication {
  const instanceId = randomUUID();

  const stopPublishing = home.bus.listen('state_changed', (e) => {
    if (e.replicated) return;
    const old = e.data.old_state as State | null;
    const next = e.data.new_state as State | null;
    void events
      .publish(ENTITY_STATE_CHANGED, { entity_id: String(e.data.entity_id), old_state: old?.toJSON() ?? null, new_state: next?.toJSON() ?? null, context: e.context, origin: instanceId })
      .catch((err) => logger.warn({ err, service: 'home', entity_id: e.data.entity_id }, 'home: publishing a state change failed; other instances miss it'));
  });

  const stopApplying = events.subscribe(ENTITY_STATE_CHANGED, (change) => {
    if (!change.origin || change.origin === instanceId) return;
    if (change.new_state === null) {
      const removedUpdated = typeof change.old_state?.last_updated === 'string' ? parseIsoUs(change.old_state.last_updated) : undefined;
      home.states.applyReplicated(change.entity_id, null, removedUpdated);
      return;
    }
    const next = stateFromObject(change.new_state);
    if (!next || next.entity_id !== change.entity_id) return logger.warn({ service: 'home', entity_id: change.entity_id }, 'home: a state change from another instance does not parse');
    home.states.applyReplicated(change.entity_id, next);
  });

  return {
    instanceId,
    stop() {
      stopPublishing();
      stopApplying();
    },
  };
}
