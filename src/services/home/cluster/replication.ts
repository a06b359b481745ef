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
//
// Other events (call_service, a custom event fired over REST or the WebSocket, automation_triggered,
// logbook_entry, timer events…) travel the same way on HOME_EVENT_FIRED, so a subscriber hears
// every event of the home whichever instance it is connected to. They arrive marked replicated:
// recorded only where they were fired, and automations' event triggers leave them to the
// instance that fired them (automations/engine.ts), so nothing runs twice. Each instance's own
// lifecycle events (start, stop, services registered) stay where they happen.
import { randomUUID } from 'node:crypto';
import type { EventBus } from '../../../platform/events.js';
import type { Logger } from '../../../platform/logger.js';
import { ENTITY_STATE_CHANGED, type Topic } from '../../../platform/topics.js';
import { MATCH_ALL, type HomeBus } from '../core/bus.js';
import { parseIsoUs } from '../core/time.js';
import { stateFromObject, type State } from '../core/state.js';
import type { StateMachine } from '../core/states.js';

/**
 * An event other than state_changed fired on one home instance of a cluster (a service call, a
 * custom event, an automation triggered), as HA's event JSON plus the instance (`origin_instance`),
 * so WebSocket subscribers on the other instances hear it too. Only home's instances publish
 * and hear it, so it lives here rather than among the platform's topics.
 */
const HOME_EVENT_FIRED: Topic<{
  event_type: string;
  data: Record<string, unknown>;
  origin: 'LOCAL' | 'REMOTE';
  time_fired: string;
  context: { id: string; parent_id: string | null; user_id: string | null };
  origin_instance: string;
}> = 'home.event_fired';

export interface Replication {
  /** This instance, as the `origin` of the changes it publishes. */
  readonly instanceId: string;
  stop(): void;
}

/** Events every instance fires for itself (its own start, stop and service registry): not replicated. */
const INSTANCE_LOCAL = new Set([
  'state_changed',
  'homeassistant_start',
  'homeassistant_started',
  'homeassistant_stop',
  'homeassistant_final_write',
  'homeassistant_close',
  'service_registered',
  'service_removed',
  'component_loaded',
]);

export function replicateStates(
  home: { bus: HomeBus; states: StateMachine },
  events: EventBus,
  logger: Logger,
): Replication {
  const instanceId = randomUUID();

  const stopPublishing = home.bus.listen('state_changed', (e) => {
    if (e.replicated) return;
    const old = e.data.old_state as State | null;
    const next = e.data.new_state as State | null;
    void events
      .publish(ENTITY_STATE_CHANGED, {
        entity_id: String(e.data.entity_id),
        old_state: old?.toJSON() ?? null,
        new_state: next?.toJSON() ?? null,
        context: e.context,
        origin: instanceId,
      })
      .catch((err) =>
        logger.warn(
          { err, service: 'home', entity_id: e.data.entity_id },
          'home: publishing a state change failed; other instances miss it',
        ),
      );
  });

  const stopApplying = events.subscribe(ENTITY_STATE_CHANGED, (change) => {
    if (!change.origin || change.origin === instanceId) return;
    if (change.new_state === null) {
      const removedUpdated =
        typeof change.old_state?.last_updated === 'string' ? parseIsoUs(change.old_state.last_updated) : undefined;
      home.states.applyReplicated(change.entity_id, null, removedUpdated);
      return;
    }
    const next = stateFromObject(change.new_state);
    if (!next || next.entity_id !== change.entity_id)
      return logger.warn(
        { service: 'home', entity_id: change.entity_id },
        'home: a state change from another instance does not parse',
      );
    home.states.applyReplicated(change.entity_id, next);
  });

  const stopPublishingEvents = home.bus.listen(MATCH_ALL, (e) => {
    if (e.replicated || INSTANCE_LOCAL.has(e.event_type)) return;
    void events
      .publish(HOME_EVENT_FIRED, {
        event_type: e.event_type,
        data: e.data,
        origin: e.origin,
        time_fired: e.time_fired,
        context: e.context,
        origin_instance: instanceId,
      })
      .catch((err) =>
        logger.warn(
          { err, service: 'home', event_type: e.event_type },
          'home: publishing an event failed; subscribers on other instances miss it',
        ),
      );
  });

  const stopApplyingEvents = events.subscribe(HOME_EVENT_FIRED, (e) => {
    if (e.origin_instance === instanceId) return;
    const timeUs = parseIsoUs(e.time_fired);
    if (timeUs === undefined || typeof e.event_type !== 'string')
      return logger.warn(
        { service: 'home', event_type: e.event_type },
        'home: an event from another instance does not parse',
      );
    home.bus.fire(e.event_type, e.data ?? {}, e.context, timeUs, e.origin, true);
  });

  return {
    instanceId,
    stop() {
      stopPublishing();
      stopApplying();
      stopPublishingEvents();
      stopApplyingEvents();
    },
  };
}
