// States as templates see them: `states` (callable, and states.<domain>.<object_id>), a
// state object (.state, .attributes, .entity_id, .name, .last_changed, …), and the record of
// what a render looked at, so a subscription re-renders only when one of those changes (HA's
// RenderInfo: entities, domains, all, time).
import { DateTimeValue } from './datetime.js';
import { State } from '../core/state.js';
import { list, ObjectValue, type RV, str, toRuntime } from './runtime.js';
import type { TemplateWorld } from './world.js';

export interface RenderInfo {
  entities: Set<string>;
  domains: Set<string>;
  /** Looked at every state (iterated `states`). */
  all: boolean;
  /** Used now()/utcnow(): HA re-renders such templates every minute. */
  time: boolean;
}

export const newRenderInfo = (): RenderInfo => ({ entities: new Set(), domains: new Set(), all: false, time: false });

/** A Map whose entries are computed when asked for (all of states is never copied). */
class LazyMap extends Map<string, RV> {
  constructor(
    private readonly lookup: (key: string) => RV | undefined,
    private readonly everything: () => Array<[string, RV]>,
  ) {
    super();
  }
  override get(key: string): RV | undefined {
    return this.lookup(key);
  }
  override has(key: string): boolean {
    return this.lookup(key) !== undefined;
  }
  override get size(): number {
    return this.everything().length;
  }
  override keys(): MapIterator<string> {
    const keys = this.everything().map(([k]) => k);
    return keys[Symbol.iterator]();
  }
  override values(): MapIterator<RV> {
    const values = this.everything().map(([, v]) => v);
    return values[Symbol.iterator]();
  }
  override entries(): MapIterator<[string, RV]> {
    return this.everything()[Symbol.iterator]();
  }
  override [Symbol.iterator](): MapIterator<[string, RV]> {
    return this.entries();
  }
}

const STATE_FIELDS = [
  'entity_id',
  'state',
  'domain',
  'object_id',
  'name',
  'attributes',
  'last_changed',
  'last_updated',
  'last_reported',
  'context',
  'state_with_unit',
];

/** A state object's fields, computed on first use and kept (a State never changes). */
class StateFields extends Map<string, RV> {
  constructor(private readonly s: State) {
    super();
  }
  override get(key: string): RV | undefined {
    let v = super.get(key);
    if (v === undefined && STATE_FIELDS.includes(key)) super.set(key, (v = this.compute(key)));
    return v;
  }
  override has(key: string): boolean {
    return STATE_FIELDS.includes(key);
  }
  override get size(): number {
    return STATE_FIELDS.length;
  }
  override entries(): MapIterator<[string, RV]> {
    return STATE_FIELDS.map((k): [string, RV] => [k, this.get(k)!])[Symbol.iterator]();
  }
  override keys(): MapIterator<string> {
    return STATE_FIELDS[Symbol.iterator]();
  }
  override values(): MapIterator<RV> {
    return STATE_FIELDS.map((k) => this.get(k)!)[Symbol.iterator]();
  }
  override [Symbol.iterator](): MapIterator<[string, RV]> {
    return this.entries();
  }
  private compute(key: string): RV {
    const s = this.s;
    switch (key) {
      case 'entity_id':
        return str(s.entity_id);
      case 'state':
        return str(s.state);
      case 'domain':
        return str(s.domain);
      case 'object_id':
        return str(s.entity_id.slice(s.domain.length + 1));
      case 'name':
        return str(s.name);
      case 'attributes':
        return toRuntime(s.attributes);
      // HA's state times are UTC datetimes.
      case 'last_changed':
        return new DateTimeValue(s.lastChangedUs, 'UTC');
      case 'last_updated':
        return new DateTimeValue(s.lastUpdatedUs, 'UTC');
      case 'last_reported':
        return new DateTimeValue(s.lastReportedUs, 'UTC');
      case 'context':
        return toRuntime(s.context);
      default:
        return str(
          typeof s.attributes.unit_of_measurement === 'string'
            ? `${s.state} ${s.attributes.unit_of_measurement}`
            : s.state,
        );
    }
  }
}

const stateValues = new WeakMap<State, StateValue>();

/** The template value of a state, shared by every render (template values cannot be changed). */
export function stateValue(s: State): StateValue {
  let v = stateValues.get(s);
  if (!v) stateValues.set(s, (v = new StateValue(s)));
  return v;
}

export class StateValue extends ObjectValue {
  readonly pyType = 'TemplateState';

  constructor(readonly state: State) {
    super(new StateFields(state));
  }

  pyStr(): string {
    const s = this.state;
    const attrs = Object.entries(s.attributes)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(', ');
    return `<template TemplateState(<state ${s.entity_id}=${s.state}; ${attrs} @ ${new DateTimeValue(s.lastChangedUs, 'UTC').iso('T')}>)>`;
  }

  toJs(): unknown {
    return this.state.toJSON();
  }
}

/** The states of one domain: states.light, states.light.kitchen, {% for s in states.light %}. */
class DomainStates extends ObjectValue {
  readonly pyType = 'DomainStates';
  readonly iterableItems = true;

  constructor(
    private readonly world: TemplateWorld,
    private readonly info: RenderInfo,
    private readonly domain: string,
  ) {
    super(
      new LazyMap(
        (objectId) => {
          const id = `${domain}.${objectId}`;
          info.entities.add(id);
          const s = world.states.get(id);
          return s ? stateValue(s) : undefined;
        },
        () => this.items().map((v) => [(v as StateValue).state.entity_id.slice(domain.length + 1), v]),
      ),
    );
  }

  pyStr(): string {
    return `<template DomainStates('${this.domain}')>`;
  }

  /** What a for loop iterates (the engine iterates a mapping's keys()): the states. */
  keys(): RV {
    return list(this.items());
  }

  items(): RV[] {
    this.info.domains.add(this.domain);
    return this.world.states
      .entityIds(this.domain)
      .sort()
      .map((id) => stateValue(this.world.states.get(id)!));
  }
}

/** `states`: states('light.kitchen'), states.light.kitchen, and every state when iterated. */
export class StatesNamespace extends ObjectValue {
  readonly pyType = 'AllStates';
  readonly iterableItems = true;

  constructor(
    private readonly world: TemplateWorld,
    private readonly info: RenderInfo,
  ) {
    super(
      new LazyMap(
        (domain) => (/^(?!_)[a-z0-9_]+(?<!_)$/.test(domain) ? new DomainStates(world, info, domain) : undefined),
        () => [],
      ),
    );
  }

  pyStr(): string {
    return '<template AllStates>';
  }

  keys(): RV {
    return list(this.items());
  }

  items(): RV[] {
    this.info.all = true;
    return [...this.world.states.all()].sort((a, b) => (a.entity_id < b.entity_id ? -1 : 1)).map((s) => stateValue(s));
  }

  /** states(entity_id, rounded=False, with_unit=False) */
  call(args: RV[]): RV {
    const id = args[0];
    if (!id || id.type !== 'StringValue') return str('unknown');
    const entityId = (id.value as string).toLowerCase();
    this.info.entities.add(entityId);
    return str(this.world.states.get(entityId)?.state ?? 'unknown');
  }
}

/** A variable's value in a template: JSON-like data, where State objects (trigger.to_state) become state objects. */
export function toTemplateValue(v: unknown): RV {
  if (v instanceof State) return stateValue(v);
  if (Array.isArray(v)) return list(v.map(toTemplateValue));
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const m = new Map<string, RV>();
    for (const [k, x] of Object.entries(v)) m.set(k, toTemplateValue(x));
    return new ObjectValue(m);
  }
  return toRuntime(v);
}
