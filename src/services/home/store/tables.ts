// The home's tables as Kysely sees them, and the recorder's two row shapes.
export interface StateRow {
  entity_id: string;
  state: string | null;
  attributes: string;
  last_changed_ts: number;
  last_updated_ts: number;
  context_id: string | null;
  context_user_id: string | null;
  context_parent_id: string | null;
}

export interface EventRow {
  event_type: string;
  data: string;
  origin: string;
  time_fired_ts: number;
  context_id: string | null;
  context_user_id: string | null;
  context_parent_id: string | null;
}

export interface HomeTables {
  home_entities: { entity_id: string; data: string };
  home_states: StateRow;
  home_events: EventRow;
  home_automations: { id: string; config: string | null; updated_at: string };
}

export const STATE_COLUMNS = [
  'entity_id',
  'state',
  'attributes',
  'last_changed_ts',
  'last_updated_ts',
  'context_id',
  'context_user_id',
  'context_parent_id',
] as const;
export const EVENT_COLUMNS = [
  'event_type',
  'data',
  'origin',
  'time_fired_ts',
  'context_id',
  'context_user_id',
  'context_parent_id',
] as const;
