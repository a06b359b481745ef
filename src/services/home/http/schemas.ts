// TypeBox schemas of Home Assistant's REST shapes, shared by the routes. Every object allows
// additional properties: fastify serializes object answers with these schemas and would drop
// a property they do not name, and the home answers what HA answers, whatever HA adds.
// Fields whose values are not under the home's control (stored event data, attributes,
// automation configs) are Type.Unknown, so nothing is coerced (a string schema turns null into "").
import { Type, type TSchema } from '@sinclair/typebox';

const open = { additionalProperties: true } as const;
const nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** HA's time format: ISO 8601 UTC with microseconds, e.g. 2026-01-05T12:00:00.123456+00:00. */
const Time = Type.String({ description: 'ISO 8601 UTC with microseconds' });

const Context = Type.Object(
  {
    id: Type.String({ description: 'ULID' }),
    parent_id: nullable(Type.String()),
    user_id: nullable(Type.String({ description: '32 hex characters: the token that caused the change' })),
  },
  { ...open, description: 'Who or what caused a change' },
);

export const StateObject = Type.Object(
  {
    entity_id: Type.String(),
    state: Type.String(),
    attributes: Type.Object(
      {},
      { ...open, description: 'Domain-specific attributes (friendly_name, brightness, unit_of_measurement…)' },
    ),
    last_changed: Time,
    last_reported: Time,
    last_updated: Time,
    context: Context,
  },
  { ...open, description: "An entity's state object" },
);

export const StateList = Type.Array(StateObject);

export const Message = Type.Object({ message: Type.String() }, open);
export const ResultOk = Type.Object({ result: Type.Literal('ok') }, open);

export const Config = Type.Object(
  {
    allowlist_external_dirs: Type.Array(Type.String()),
    allowlist_external_urls: Type.Array(Type.String()),
    components: Type.Array(Type.String()),
    config_dir: Type.String(),
    config_source: Type.String(),
    country: nullable(Type.String()),
    currency: Type.String(),
    debug: Type.Boolean(),
    elevation: Type.Number(),
    external_url: nullable(Type.String()),
    internal_url: nullable(Type.String()),
    language: Type.String(),
    latitude: Type.Number(),
    location_name: Type.String(),
    longitude: Type.Number(),
    radius: Type.Number(),
    recovery_mode: Type.Boolean(),
    safe_mode: Type.Boolean(),
    state: Type.String(),
    time_zone: Type.String(),
    unit_system: Type.Record(Type.String(), Type.String(), {
      description: 'Units by quantity (length, mass, temperature…)',
    }),
    version: Type.String(),
    whitelist_external_dirs: Type.Array(Type.String()),
  },
  { ...open, description: 'The home configuration' },
);

const ServiceDescription = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    fields: Type.Record(Type.String(), Type.Unknown(), {
      description: 'Field name -> {required?, description?, selector}',
    }),
    target: Type.Optional(Type.Unknown()),
    response: Type.Optional(Type.Object({ optional: Type.Boolean() }, open)),
  },
  open,
);

export const ServiceDomains = Type.Array(
  Type.Object({ domain: Type.String(), services: Type.Record(Type.String(), ServiceDescription) }, open),
);

export const ServiceCallAnswer = Type.Union(
  [
    Type.Array(StateObject, { description: 'The states the call changed' }),
    Type.Object(
      { changed_states: Type.Array(StateObject), service_response: Type.Unknown() },
      { ...open, description: 'With ?return_response' },
    ),
  ],
  { description: 'The states the call changed; with ?return_response also the service response' },
);

export const EventListeners = Type.Array(Type.Object({ event: Type.String(), listener_count: Type.Integer() }, open));

const HistoryRow = Type.Union([
  Type.Object(
    {
      entity_id: Type.String(),
      state: Type.String(),
      attributes: Type.Object({}, open),
      last_changed: Time,
      last_updated: Time,
    },
    open,
  ),
  Type.Object(
    { state: Type.String(), last_changed: Time },
    { ...open, description: 'minimal_response: every row after the first' },
  ),
]);
export const History = Type.Array(Type.Array(HistoryRow), { description: 'One list of rows per entity that has any' });

export const LogbookEntries = Type.Array(
  Type.Object(
    {
      when: Time,
      name: Type.Optional(Type.Unknown()),
      message: Type.Optional(Type.Unknown()),
      state: Type.Optional(Type.Unknown()),
      entity_id: Type.Optional(Type.Unknown()),
      domain: Type.Optional(Type.Unknown()),
      icon: Type.Optional(Type.Unknown()),
      source: Type.Optional(Type.Unknown()),
      context_id: Type.Optional(Type.Unknown()),
      context_user_id: Type.Optional(Type.Unknown()),
      context_event_type: Type.Optional(Type.Unknown()),
      context_domain: Type.Optional(Type.Unknown()),
      context_service: Type.Optional(Type.Unknown()),
      context_entity_id: Type.Optional(Type.Unknown()),
      context_entity_id_name: Type.Optional(Type.Unknown()),
      context_name: Type.Optional(Type.Unknown()),
      context_message: Type.Optional(Type.Unknown()),
      context_source: Type.Optional(Type.Unknown()),
      context_state: Type.Optional(Type.Unknown()),
    },
    open,
  ),
);

export const AutomationConfig = Type.Object(
  {
    id: Type.String(),
    alias: Type.Optional(Type.Unknown()),
    description: Type.Optional(Type.Unknown()),
    mode: Type.Optional(Type.Unknown()),
    triggers: Type.Optional(Type.Unknown()),
    conditions: Type.Optional(Type.Unknown()),
    actions: Type.Optional(Type.Unknown()),
  },
  { ...open, description: 'An automation (either spelling: triggers/trigger, conditions/condition, actions/action)' },
);

/** Empty answer body (webhooks). */
export const Empty = Type.Null({ description: 'No body' });
