// The registries' part of the house file: `floors`, `areas`, `labels` lists, and on each
// device an `area`, `labels`, `aliases` and an optional `device` block (name, manufacturer,
// model, id to share one device between entities). Problems are collected in HA-config style.
import { slugify } from '../state.js';
import {
  Registry,
  registryId,
  type AreaEntry,
  type EntityEntry,
  type FloorEntry,
  type LabelEntry,
} from './registry.js';

/** A device in the house config: `{domain, id, name, ...domain options}`. */
export interface DeviceConfig {
  domain: string;
  id: string;
  name?: string;
  [option: string]: unknown;
}

/** Domains whose entities are not backed by a device (helpers, scripts, scenes): their area is their own. */
const DEVICELESS = new Set([
  'input_boolean',
  'input_number',
  'input_select',
  'input_text',
  'counter',
  'timer',
  'script',
  'scene',
  'automation',
  'tag',
]);

type Raw = Record<string, unknown>;
const strOrNull = (v: unknown) => (typeof v === 'string' ? v : null);
const strList = (v: unknown) =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];

function entries(doc: Raw, key: string, file: string, problems: string[]): Raw[] {
  const raw = doc[key] ?? [];
  if (!Array.isArray(raw)) {
    problems.push(`${file}: ${key} must be a list`);
    return [];
  }
  return raw.filter((x, i) => {
    const ok = typeof x === 'object' && x !== null && typeof (x as Raw).name === 'string';
    if (!ok) problems.push(`${file}: ${key}[${i}] must be a mapping with a name`);
    return ok;
  }) as Raw[];
}

/** Builds the registries from the house file's sections and its devices; adds any problem to `problems`. */
export function readRegistry(doc: Raw, devices: DeviceConfig[], file: string, problems: string[]): Registry {
  const r = new Registry();
  for (const f of entries(doc, 'floors', file, problems)) {
    const floor: FloorEntry = {
      floor_id: typeof f.id === 'string' ? f.id : slugify(String(f.name)),
      name: String(f.name),
      level: typeof f.level === 'number' ? f.level : null,
      icon: strOrNull(f.icon),
      aliases: strList(f.aliases),
    };
    r.floors.set(floor.floor_id, floor);
  }
  for (const l of entries(doc, 'labels', file, problems)) {
    const label: LabelEntry = {
      label_id: typeof l.id === 'string' ? l.id : slugify(String(l.name)),
      name: String(l.name),
      color: strOrNull(l.color),
      icon: strOrNull(l.icon),
      description: strOrNull(l.description),
    };
    r.labels.set(label.label_id, label);
  }
  const checkLabels = (labels: string[], where: string) => {
    for (const l of labels)
      if (!r.labels.has(l)) problems.push(`${file}: ${where} names label ${l}, which is not in labels`);
  };
  for (const a of entries(doc, 'areas', file, problems)) {
    const area: AreaEntry = {
      area_id: typeof a.id === 'string' ? a.id : slugify(String(a.name)),
      name: String(a.name),
      floor_id: strOrNull(a.floor),
      icon: strOrNull(a.icon),
      aliases: strList(a.aliases),
      labels: strList(a.labels),
      picture: strOrNull(a.picture),
      temperature_entity_id: strOrNull(a.temperature_entity_id),
      humidity_entity_id: strOrNull(a.humidity_entity_id),
    };
    if (area.floor_id && !r.floors.has(area.floor_id))
      problems.push(`${file}: area ${area.area_id} is on floor ${area.floor_id}, which is not in floors`);
    checkLabels(area.labels, `area ${area.area_id}`);
    r.areas.set(area.area_id, area);
  }
  for (const d of devices) addEntity(r, d, file, problems, checkLabels);
  return r;
}

function addEntity(
  r: Registry,
  d: DeviceConfig,
  file: string,
  problems: string[],
  checkLabels: (l: string[], where: string) => void,
) {
  const entityId = `${d.domain}.${d.id}`;
  const areaId = strOrNull(d.area);
  if (areaId && !r.areas.has(areaId)) problems.push(`${file}: ${entityId} is in area ${areaId}, which is not in areas`);
  const labels = strList(d.labels);
  checkLabels(labels, entityId);
  const name = d.name ?? d.id;
  let deviceId: string | null = null;
  if (!DEVICELESS.has(d.domain) && d.device !== false) {
    const block = (typeof d.device === 'object' && d.device !== null ? d.device : {}) as Raw;
    const key = typeof block.id === 'string' ? block.id : entityId;
    deviceId = registryId(`device:${key}`);
    const existing = r.devices.get(deviceId);
    if (!existing) {
      r.devices.set(deviceId, {
        id: deviceId,
        name: typeof block.name === 'string' ? block.name : name,
        area_id: strOrNull(block.area) ?? areaId,
        manufacturer: typeof block.manufacturer === 'string' ? block.manufacturer : 'Hamlet',
        model: typeof block.model === 'string' ? block.model : `Demo ${d.domain.replace(/_/g, ' ')}`,
        sw_version: strOrNull(block.sw_version),
        hw_version: strOrNull(block.hw_version),
        serial_number: strOrNull(block.serial_number),
        identifiers: [['hamlet', key]],
        labels: strList(block.labels),
        name_by_user: null,
      });
    }
  }
  const device = deviceId ? r.devices.get(deviceId) : undefined;
  const entry: EntityEntry = {
    id: registryId(`entity:${entityId}`),
    entity_id: entityId,
    // A tag entity's unique id is its tag id (HA's TagEntity).
    unique_id: d.domain === 'tag' && typeof d.tag_id === 'string' ? d.tag_id : d.id,
    platform: DEVICELESS.has(d.domain) ? d.domain : 'hamlet',
    device_id: deviceId,
    // HA keeps an entity's area null when it is its device's area.
    area_id: device && device.area_id === areaId ? null : areaId,
    labels,
    aliases: strList(d.aliases),
    icon: strOrNull(d.icon),
    name: null,
    original_name: name,
    device_class: strOrNull(d.device_class),
    entity_category: null,
  };
  r.entities.set(entityId, entry);
}
