// Which entities an intent's slots mean (HA's intent.async_match_targets, simplified): a name
// (friendly name, registry alias or object id), an area or floor (by name or alias), domains
// and device classes, each narrowing the others. Entities exposed to assistants are all but
// notify and automation entities.
import type { Home } from '../core/home.js';
import type { State } from '../core/state.js';
import { findArea } from '../core/registry/lookup.js';
import { IntentError, type IntentTarget } from './response.js';

export interface Slots {
  name?: string;
  area?: string;
  floor?: string;
  domain?: string[];
  device_class?: string[];
}

const HIDDEN_DOMAINS = new Set(['notify', 'automation']);

/** Lowercase, no punctuation or leading "the", single spaces: how spoken names compare. */
export const normalize = (text: string) =>
  text
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[^a-z0-9%.\s_-]/g, ' ')
    .replace(/[_-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^the /, '');

export function exposed(home: Home): State[] {
  return [...home.states.all()].filter((s) => !HIDDEN_DOMAINS.has(s.domain));
}

/** Every name an entity answers to: its friendly name, its registry aliases, its object id. */
export function namesOf(home: Home, s: State): string[] {
  const aliases = home.registry.entities.get(s.entity_id)?.aliases ?? [];
  return [s.name, ...aliases, s.entity_id.slice(s.domain.length + 1)].map(normalize);
}

function findFloor(home: Home, text: string) {
  const key = normalize(text);
  for (const f of home.registry.floors.values())
    if (
      f.floor_id === key.replace(/ /g, '_') ||
      normalize(f.name) === key ||
      f.aliases.some((a) => normalize(a) === key)
    )
      return f;
  return undefined;
}

export interface Matched {
  entities: State[];
  targets: IntentTarget[];
}

export function matchTargets(home: Home, slots: Slots): Matched {
  let candidates = exposed(home);
  const targets: IntentTarget[] = [];
  if (slots.area) {
    const area = findArea(home.registry, normalize(slots.area)) ?? findArea(home.registry, slots.area);
    if (!area) throw new IntentError('no_valid_targets', `Sorry, I am not aware of any area called ${slots.area}`);
    const inArea = new Set(home.registry.entitiesOfArea(area.area_id));
    candidates = candidates.filter((s) => inArea.has(s.entity_id));
    targets.push({ type: 'area', name: area.name, id: area.area_id });
  }
  if (slots.floor) {
    const floor = findFloor(home, slots.floor);
    if (!floor) throw new IntentError('no_valid_targets', `Sorry, I am not aware of any floor called ${slots.floor}`);
    const onFloor = new Set(home.registry.entitiesOfFloor(floor.floor_id));
    candidates = candidates.filter((s) => onFloor.has(s.entity_id));
    targets.push({ type: 'floor', name: floor.name, id: floor.floor_id });
  }
  if (slots.domain?.length) {
    candidates = candidates.filter((s) => slots.domain!.includes(s.domain));
    for (const d of slots.domain) targets.push({ type: 'domain', name: d, id: d });
  }
  if (slots.device_class?.length) {
    candidates = candidates.filter((s) => slots.device_class!.includes(String(s.attributes.device_class)));
    for (const c of slots.device_class) targets.push({ type: 'device_class', name: c, id: c });
  }
  if (slots.name) {
    const key = normalize(slots.name);
    const named = candidates.filter((s) => namesOf(home, s).includes(key));
    if (!named.length) {
      const where = slots.area ? ` in the ${normalize(slots.area)}` : '';
      throw new IntentError('no_valid_targets', `Sorry, I am not aware of any device called ${slots.name}${where}`);
    }
    return { entities: named, targets: [] };
  }
  if (!slots.area && !slots.floor && !slots.domain?.length && !slots.device_class?.length)
    throw new IntentError('no_valid_targets', 'Sorry, which device do you mean?');
  if (!candidates.length) {
    const what = slots.domain?.length ? slots.domain.join(' or ') : 'device';
    throw new IntentError(
      'no_valid_targets',
      `Sorry, I am not aware of any ${what}${slots.area ? ` in the ${normalize(slots.area)}` : ''}`,
    );
  }
  return { entities: candidates, targets };
}

export const entityTarget = (s: State): IntentTarget => ({ type: 'entity', name: s.name, id: s.entity_id });
