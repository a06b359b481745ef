// What the home's objects become as recorder rows (times as epoch seconds, as HA's recorder).
// Rows are made when the change happens, so later changes to an event's data cannot leak in.
import type { HomeEvent } from '../core/bus.js';
import type { State } from '../core/state.js';
import type { EventRow, StateRow } from './tables.js';

const seconds = (us: number) => us / 1_000_000;

export function stateRow(s: State): StateRow {
  return {
    entity_id: s.entity_id,
    state: s.state,
    attributes: JSON.stringify(s.attributes),
    last_changed_ts: seconds(s.lastChangedUs),
    last_updated_ts: seconds(s.lastUpdatedUs),
    context_id: s.context.id,
    context_user_id: s.context.user_id,
    context_parent_id: s.context.parent_id,
  };
}

export function eventRow(e: HomeEvent): EventRow {
  return {
    event_type: e.event_type,
    data: JSON.stringify(e.data),
    origin: e.origin,
    time_fired_ts: seconds(e.timeUs),
    context_id: e.context.id,
    context_user_id: e.context.user_id,
    context_parent_id: e.context.parent_id,
  };
}
