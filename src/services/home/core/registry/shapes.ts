// The registries' entries as HA's config/*_registry commands answer them (HA's key sets; the
// fields Hamlet has no use for are there with HA's empty values so clients find every key).
import type { State } from '../state.js';
import type { AreaEntry, DeviceEntry, EntityEntry, FloorEntry, LabelEntry, Registry } from './registry.js';

const times = (r: Registry) => ({ created_at: r.loadedAt, modified_at: r.loadedAt });

export const floorJson = (r: Registry, f: FloorEntry) => ({
  aliases: f.aliases,
  created_at: r.loadedAt,
  floor_id: f.floor_id,
  icon: f.icon,
  level: f.level,
  modified_at: r.loadedAt,
  name: f.name,
});

export const areaJson = (r: Registry, a: AreaEntry) => ({
  aliases: a.aliases,
  area_id: a.area_id,
  floor_id: a.floor_id,
  humidity_entity_id: a.humidity_entity_id,
  icon: a.icon,
  labels: a.labels,
  name: a.name,
  picture: a.picture,
  temperature_entity_id: a.temperature_entity_id,
  ...times(r),
});

export const labelJson = (r: Registry, l: LabelEntry) => ({
  color: l.color,
  created_at: r.loadedAt,
  description: l.description,
  icon: l.icon,
  label_id: l.label_id,
  name: l.name,
  modified_at: r.loadedAt,
});

export const deviceJson = (r: Registry, d: DeviceEntry) => ({
  area_id: d.area_id,
  configuration_url: null,
  config_entries: [],
  config_entries_subentries: {},
  connections: [],
  created_at: r.loadedAt,
  disabled_by: null,
  entry_type: null,
  hw_version: d.hw_version,
  id: d.id,
  identifiers: d.identifiers,
  labels: d.labels,
  manufacturer: d.manufacturer,
  model: d.model,
  model_id: null,
  modified_at: r.loadedAt,
  name_by_user: d.name_by_user,
  name: d.name,
  primary_config_entry: null,
  serial_number: d.serial_number,
  sw_version: d.sw_version,
  via_device_id: null,
});

/** `config/entity_registry/list`: HA's partial entry. */
export const entityJson = (r: Registry, e: EntityEntry) => ({
  area_id: e.area_id,
  categories: {},
  config_entry_id: null,
  config_subentry_id: null,
  created_at: r.loadedAt,
  device_id: e.device_id,
  disabled_by: null,
  entity_category: e.entity_category,
  entity_id: e.entity_id,
  has_entity_name: false,
  hidden_by: null,
  icon: e.icon,
  id: e.id,
  labels: e.labels,
  modified_at: r.loadedAt,
  name: e.name,
  options: {},
  original_name: e.original_name,
  platform: e.platform,
  translation_key: null,
  unique_id: e.unique_id,
});

/** `config/entity_registry/get`: the partial entry plus HA's extended keys. */
export const entityExtendedJson = (r: Registry, e: EntityEntry, state: State | undefined) => ({
  ...entityJson(r, e),
  aliases: e.aliases,
  capabilities: capabilitiesOf(state),
  device_class: null,
  original_device_class:
    e.device_class ?? (typeof state?.attributes.device_class === 'string' ? state.attributes.device_class : null),
  original_icon: null,
});

/** HA's capability attributes are those that describe what an entity can do, not what it is doing. */
const CAPABILITY_KEYS = [
  'supported_color_modes',
  'min_color_temp_kelvin',
  'max_color_temp_kelvin',
  'min_mireds',
  'max_mireds',
  'effect_list',
  'hvac_modes',
  'min_temp',
  'max_temp',
  'preset_modes',
  'fan_modes',
  'swing_modes',
  'source_list',
  'options',
  'min',
  'max',
  'step',
  'state_class',
];

function capabilitiesOf(state: State | undefined): Record<string, unknown> | null {
  if (!state) return null;
  const caps = Object.fromEntries(
    CAPABILITY_KEYS.filter((k) => k in state.attributes).map((k) => [k, state.attributes[k]]),
  );
  return Object.keys(caps).length ? caps : null;
}

/** `config/entity_registry/list_for_display`: the frontend's short keys. */
export function entitiesForDisplay(r: Registry) {
  return {
    entity_categories: { 0: 'config', 1: 'diagnostic' },
    entities: [...r.entities.values()].map((e) => ({
      ei: e.entity_id,
      pl: e.platform,
      ...(e.device_id ? { di: e.device_id } : {}),
      ...(e.area_id ? { ai: e.area_id } : {}),
      lb: e.labels,
      ...(e.name ? { en: e.name } : {}),
      ...(e.icon ? { ic: e.icon } : {}),
    })),
  };
}
