// What a template can see of the home: states, the clock and time zone, and the registries
// (areas, devices) of the house file, read through core/registry/lookup.ts.
import type { Home } from '../core/home.js';
import type { State } from '../core/state.js';
import { areaEntities, areaName, deviceAttr } from '../core/registry/lookup.js';

export interface TemplateRegistry {
  /** Entity ids in an area, given its id or name; [] for an unknown area. */
  areaEntities(area: string): string[];
  /** The name of the area of an area id, entity id or device id; null when there is none. */
  areaName(lookup: string): string | null;
  /** An attribute of a device (given its id or one of its entities' ids); undefined when unknown. */
  deviceAttr(deviceOrEntityId: string, attribute: string): unknown;
}

export interface TemplateWorld {
  readonly states: { get(id: string): State | undefined; all(): Iterable<State>; entityIds(domain?: string): string[] };
  nowUs(): number;
  readonly timeZone: string;
  readonly registry: TemplateRegistry;
}

/** The house's registries (registry/), as templates ask about them. */
function registryOf(home: Home): TemplateRegistry {
  return {
    areaEntities: (area) => areaEntities(home.registry, area),
    areaName: (lookup) => areaName(home.registry, lookup),
    deviceAttr: (device, attribute) => deviceAttr(home.registry, device, attribute) ?? undefined,
  };
}

export function worldOf(home: Home): TemplateWorld {
  return {
    states: home.states,
    nowUs: () => home.nowUs(),
    timeZone: home.location.time_zone,
    registry: registryOf(home),
  };
}
