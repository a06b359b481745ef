// HA's registries: floors, areas, labels, devices and entities, as the house file declares
// them. They are read-only here (the house file is their source), held in memory, and
// answered in HA's shapes by the config/*_registry/list commands (websocket/registry-commands.ts).
import { createHash } from 'node:crypto';

export interface FloorEntry {
  floor_id: string;
  name: string;
  level: number | null;
  icon: string | null;
  aliases: string[];
}

export interface AreaEntry {
  area_id: string;
  name: string;
  floor_id: string | null;
  icon: string | null;
  aliases: string[];
  labels: string[];
  picture: string | null;
  temperature_entity_id: string | null;
  humidity_entity_id: string | null;
}

export interface LabelEntry {
  label_id: string;
  name: string;
  color: string | null;
  icon: string | null;
  description: string | null;
}

export interface DeviceEntry {
  id: string;
  name: string;
  area_id: string | null;
  manufacturer: string | null;
  model: string | null;
  sw_version: string | null;
  hw_version: string | null;
  serial_number: string | null;
  identifiers: Array<[string, string]>;
  labels: string[];
  name_by_user: string | null;
}

export interface EntityEntry {
  id: string;
  entity_id: string;
  unique_id: string;
  platform: string;
  device_id: string | null;
  /** The entity's own area; null means it is in its device's area (HA's inheritance). */
  area_id: string | null;
  labels: string[];
  aliases: string[];
  icon: string | null;
  name: string | null;
  original_name: string;
  device_class: string | null;
  entity_category: 'config' | 'diagnostic' | null;
}

/** A stable 32-hex id from a key (HA's registry ids are uuid4 hex; ours must not change across restarts). */
export const registryId = (key: string) => createHash('md5').update(key).digest('hex');

export class Registry {
  readonly floors = new Map<string, FloorEntry>();
  readonly areas = new Map<string, AreaEntry>();
  readonly labels = new Map<string, LabelEntry>();
  readonly devices = new Map<string, DeviceEntry>();
  readonly entities = new Map<string, EntityEntry>();
  /** created_at/modified_at of every entry: when the house file was loaded (epoch seconds). */
  loadedAt = 0;

  replace(next: Pick<Registry, 'floors' | 'areas' | 'labels' | 'devices' | 'entities' | 'loadedAt'>): void {
    for (const key of ['floors', 'areas', 'labels', 'devices', 'entities'] as const) {
      const target = this[key] as Map<string, unknown>;
      target.clear();
      for (const [k, v] of next[key] as Map<string, unknown>) target.set(k, v);
    }
    this.loadedAt = next.loadedAt;
  }

  /** The area an entity is in: its own, else its device's (HA's rule). */
  areaOfEntity(entityId: string): AreaEntry | undefined {
    const e = this.entities.get(entityId);
    if (!e) return undefined;
    const areaId = e.area_id ?? (e.device_id ? this.devices.get(e.device_id)?.area_id : null);
    return areaId ? this.areas.get(areaId) : undefined;
  }

  entitiesOfArea(areaId: string): string[] {
    return [...this.entities.values()]
      .filter((e) => this.areaOfEntity(e.entity_id)?.area_id === areaId)
      .map((e) => e.entity_id);
  }

  entitiesOfDevice(deviceId: string): string[] {
    return [...this.entities.values()].filter((e) => e.device_id === deviceId).map((e) => e.entity_id);
  }

  entitiesOfFloor(floorId: string): string[] {
    return [...this.areas.values()]
      .filter((a) => a.floor_id === floorId)
      .flatMap((a) => this.entitiesOfArea(a.area_id));
  }

  /** HA's label target: entities labelled, plus the entities of labelled devices and areas. */
  entitiesOfLabel(labelId: string): string[] {
    const out = new Set<string>();
    for (const e of this.entities.values()) if (e.labels.includes(labelId)) out.add(e.entity_id);
    for (const d of this.devices.values())
      if (d.labels.includes(labelId)) for (const id of this.entitiesOfDevice(d.id)) out.add(id);
    for (const a of this.areas.values())
      if (a.labels.includes(labelId)) for (const id of this.entitiesOfArea(a.area_id)) out.add(id);
    return [...out];
  }
}
