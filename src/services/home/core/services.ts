// What a service is: its fields, and either an entity action (planned for every target
// before any is changed, then applied) or a free-standing run.
import type { Context } from './context.js';
import type { Fields } from './fields.js';
import type { Home } from './home.js';
import type { Attributes, State } from './state.js';

export interface ServiceContext {
  home: Home;
  context: Context;
  domain: string;
  service: string;
  /** For a service with `targets`: the entities the call targets (any domain). */
  entityIds?: string[];
}

/** The state an entity should take, and what to do once it has taken it (e.g. start moving). */
export interface Planned {
  /** Absent when the call changes no state (e.g. automation.trigger). */
  state?: string;
  attributes?: Attributes;
  then?: () => void;
}

export interface ServiceSpec {
  service: string;
  name?: string;
  description?: string;
  fields: Fields;
  /** Checks across fields after each parsed, e.g. "only one colour per call". */
  check?(data: Record<string, unknown>): void;
  /** A supported_features bit the target entity must have. */
  feature?: number;
  /** An entity service: returns the new state of one target, or null for no change. May throw a HomeError. */
  plan?(entity: State, data: Record<string, unknown>, ctx: ServiceContext): Planned | null;
  /** A service that is not about entities of its domain (notify, automation.reload, ...). */
  run?(data: Record<string, unknown>, ctx: ServiceContext): unknown; // a value, or a Promise of one
  /** Keys beyond `fields` are passed through unchecked (a script's variables). */
  allowExtra?: boolean;
  /** A `run` service that takes entity/area/device/floor/label targets of any domain (homeassistant.turn_on). */
  targets?: boolean;
  /** Whether the service can return a response (HA's SupportsResponse). */
  response?: 'optional' | 'only';
}

/** Something outside the home that actually carries out commands for an entity (an MQTT device). */
export interface EntityDriver {
  /** Sends the command; returns true when the home should show the planned state now (optimistic). */
  command(service: string, data: Record<string, unknown>, planned: Planned, entity: State): boolean;
}
