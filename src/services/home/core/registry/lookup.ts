// Small questions about the registries, asked by templates (area_entities, area_name,
// area_id, device_attr, device_id), the conversation agent and service targets. Names and
// ids are both accepted where HA accepts both (area_entities('Kitchen') == area_entities('kitchen')).
import type { AreaEntry, DeviceEntry, Registry } from './registry.js';

const norm = (s: string) => s.trim().toLowerCase();

/** An area by id, name or alias (case-insensitive). */
export function findArea(registry: Registry, idOrName: string): AreaEntry | undefined {
  const key = norm(idOrName);
  const byId = registry.areas.get(key);
  if (byId) return byId;
  for (const a of registry.areas.values()) if (norm(a.name) === key || a.aliases.some((x) => norm(x) === key)) return a;
  return undefined;
}

/** `area_entities(area)`: entity ids in an area (given by id or name); [] for an unknown area. */
export function areaEntities(registry: Registry, idOrName: string): string[] {
  const area = findArea(registry, idOrName);
  return area ? registry.entitiesOfArea(area.area_id) : [];
}

/** `area_name(x)`: x an area id, entity id or device id; null when it has no area. */
export function areaName(registry: Registry, lookup: string): string | null {
  return areaOf(registry, lookup)?.name ?? null;
}

/** `area_id(x)`: x an area name, entity id or device id; null when none. */
export function areaId(registry: Registry, lookup: string): string | null {
  return areaOf(registry, lookup)?.area_id ?? null;
}

function areaOf(registry: Registry, lookup: string): AreaEntry | undefined {
  const area = findArea(registry, lookup);
  if (area) return area;
  const fromEntity = registry.areaOfEntity(norm(lookup));
  if (fromEntity) return fromEntity;
  const device = registry.devices.get(lookup);
  return device?.area_id ? registry.areas.get(device.area_id) : undefined;
}

/** `device_id(entity_id or device name)`. */
export function deviceId(registry: Registry, lookup: string): string | null {
  const e = registry.entities.get(norm(lookup));
  if (e) return e.device_id;
  for (const d of registry.devices.values()) if (norm(d.name) === norm(lookup)) return d.id;
  return null;
}

/** `device_attr(device_or_entity_id, attr)`: an attribute of the device entry (name, manufacturer, model, area_id, ...). */
export function deviceAttr(registry: Registry, deviceOrEntityId: string, attr: string): unknown {
  const device =
    registry.devices.get(deviceOrEntityId) ??
    registry.devices.get(registry.entities.get(norm(deviceOrEntityId))?.device_id ?? '');
  if (!device || !(attr in device)) return null;
  return device[attr as keyof DeviceEntry];
}
