// The state machine (HA's `hass.states`): the current state of every entity, in memory.
// The database is its durable record (see persist.ts, which hears every write).
import type { Clock } from '../../../platform/clock.js';
import { jsonShapeProblem } from '../../../platform/json-limits.js';
import type { HomeBus } from './bus.js';
import type { Context } from './context.js';
import { invalid } from './errors.js';
import { State, deepEqual, type Attributes } from './state.js';
import { nowUs } from './time.js';

export interface WriteResult {
  state: State;
  /** false for an identical write: only last_reported moved and no event fired. */
  changed: boolean;
  created: boolean;
}

export interface StateWriteListener {
  /** Called for every write, including identical ones, and for removals (state undefined). */
  (entityId: string, state: State | undefined, changed: boolean): void;
}

/**
 * Far above real integrations (a weather forecast nests 5 deep and stays under 20 KiB; HA's
 * recorder warns at 16 KiB), far below what breaks serialization or the WebSocket snapshot.
 */
export const DEFAULT_ATTRIBUTE_LIMITS: AttributeLimits = { maxDepth: 32, maxBytes: 256 * 1024 };

/** HOME_MAX_ATTRIBUTE_DEPTH / HOME_MAX_ATTRIBUTES_BYTES; the attributes object itself is level 1. */
export interface AttributeLimits {
  maxDepth: number;
  maxBytes: number;
}

export class StateMachine {
  private readonly states = new Map<string, State>();
  private readonly writeListeners = new Set<StateWriteListener>();

  constructor(
    private readonly bus: HomeBus,
    private readonly clock: Clock,
    private readonly attributeLimits: AttributeLimits = DEFAULT_ATTRIBUTE_LIMITS,
  ) {}

  get(entityId: string): State | undefined {
    return this.states.get(entityId);
  }

  all(): IterableIterator<State> {
    return this.states.values();
  }

  get size(): number {
    return this.states.size;
  }

  entityIds(domain?: string): string[] {
    const ids = [...this.states.keys()];
    return domain ? ids.filter((id) => id.startsWith(domain + '.')) : ids;
  }

  onWrite(listener: StateWriteListener): () => void {
    this.writeListeners.add(listener);
    return () => this.writeListeners.delete(listener);
  }

  /** After a world restore: exactly these states, without events (the rows already say so). */
  replaceAll(states: State[]): void {
    this.states.clear();
    this.restore(states);
  }

  /** Puts back states loaded from storage at start, without events. */
  restore(states: State[]): void {
    for (const s of states) this.states.set(s.entity_id, s);
  }

  set(entityId: string, newState: string, attributes: Attributes, context: Context, forceUpdate = false): WriteResult {
    // Checked before anything is stored or published: every reader serializes every state.
    const problem = jsonShapeProblem(attributes, this.attributeLimits);
    if (problem) throw invalid('attributes', problem.message);
    const old = this.states.get(entityId);
    const now = nowUs(this.clock);
    if (old && !forceUpdate && old.state === newState && deepEqual(old.attributes, attributes)) {
      // HA: an identical write moves only last_reported and keeps the old context.
      const reported = new State(entityId, old.state, old.attributes, old.lastChangedUs, old.lastUpdatedUs, Math.max(now, old.lastUpdatedUs), old.context);
      this.states.set(entityId, reported);
      this.notify(entityId, reported, false);
      return { state: reported, changed: false, created: false };
    }
    const stateChanged = !old || old.state !== newState || forceUpdate;
    const lastChanged = stateChanged ? now : old.lastChangedUs;
    const state = new State(entityId, newState, Object.freeze({ ...attributes }), lastChanged, now, now, context);
    this.states.set(entityId, state);
    this.notify(entityId, state, true);
    this.bus.fire('state_changed', { entity_id: entityId, old_state: old ?? null, new_state: state }, context, now);
    return { state, changed: true, created: !old };
  }

  remove(entityId: string, context: Context): boolean {
    const old = this.states.get(entityId);
    if (!old) return false;
    this.states.delete(entityId);
    this.notify(entityId, undefined, true);
    this.bus.fire('state_changed', { entity_id: entityId, old_state: old, new_state: null }, context, nowUs(this.clock));
    return true;
  }

  private notify(entityId: string, state: State | undefined, changed: boolean) {
    for (const l of this.writeListeners) l(entityId, state, changed);
  }
}
