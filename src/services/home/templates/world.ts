// What a template can see of the home: states, the clock and time zone, and the registries
// (areas, devices). The registries belong to the house's registry code (issue 14 part B); until
// a home has one, areas are read from entities' `area` attribute and devices are unknown.
import type { Home } from '../core/home.js';
import type { State } from '../core/state.js';
import { slugify } from '../core/state.js';

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

/** Areas as entities name them in an `area` (or `area_id`) attribute: the stand-in until a registry exists. */
function attributeRegistry(states: TemplateWorld['states']): TemplateRegistry {
  const areaOf = (s: State | undefined) => {
    const a = s?.attributes.area ?? s?.attributes.area_id;
    return typeof a === 'string' && a ? a : null;
  };
  const matches = (a: string, lookup: string) => a.toLowerCase() === lookup.toLowerCase() || slugify(a) === lookup.toLowerCase();
  return {
    areaEntities(area) {
      const out: string[] = [];
      for (const s of states.all()) {
        const a = areaOf(s);
        if (a && matches(a, area)) out.push(s.entity_id);
      }
      return out.sort();
    },
    areaName(lookup) {
      const direct = areaOf(states.get(lookup.toLowerCase()));
      if (direct) return direct;
      for (const s of states.all()) {
        const a = areaOf(s);
        if (a && slugify(a) === lookup.toLowerCase()) return a;
      }
      return null;
    },
    deviceAttr: () => undefined,
  };
}

const registries = new WeakMap<Home, TemplateRegistry>();

/** Gives templates of this home a registry (areas, devices); without one they use attributeRegistry. */
export function setTemplateRegistry(home: Home, registry: TemplateRegistry): void {
  registries.set(home, registry);
}

export function worldOf(home: Home): TemplateWorld {
  const fallback = attributeRegistry(home.states);
  return {
    states: home.states,
    nowUs: () => home.nowUs(),
    timeZone: home.location.time_zone,
    get registry() {
      return registries.get(home) ?? fallback;
    },
  };
}
