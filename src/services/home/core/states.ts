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
  /**
   * Called for every write, including identical ones, and for removals (state undefined);
   * `replicated` for a write another instance of the cluster made (and stored).
   */
  (entityId: string, state: State | undefined, changed: boolean, replicated: boolean): void;
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
  /** Entities whose current state another instance wrote (applyReplicated). */
  private readonly writtenElsewhere = new Set<string>();

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

  /** Puts back states loaded from storage at start, without events (a newer one already heard from another instance stays). */
  restore(states: State[]): void {
    for (const s of states) {
      const held = this.states.get(s.entity_id);
      if (!held || held.lastUpdatedUs < s.lastUpdatedUs) this.states.set(s.entity_id, s);
    }
  }

  set(entityId: string, newState: string, attributes: Attributes, context: Context, forceUpdate = false): WriteResult {
    // Checked before anything is stored or published: every reader serializes every state.
    const problem = jsonShapeProblem(attributes, this.attributeLimits);
    if (problem) throw invalid('attributes', problem.message);
    const old = this.states.get(entityId);
    let now = nowUs(this.clock);
    // Over another instance's write, a write here is later, whatever the two machines' clocks
    // say: it must win on every instance (last_updated decides), not be taken for an older one.
    if (old && old.lastUpdatedUs >= now && this.writtenElsewhere.has(entityId)) now = old.lastUpdatedUs + 1;
    if (old && !forceUpdate && old.state === newState && deepEqual(old.attributes, attributes)) {
      // HA: an identical write moves only last_reported and keeps the old context.
      const reported = new State(
        entityId,
        old.state,
        old.attributes,
        old.lastChangedUs,
        old.lastUpdatedUs,
        Math.max(now, old.lastUpdatedUs),
        old.context,
      );
      this.states.set(entityId, reported);
      this.notify(entityId, reported, false);
      return { state: reported, changed: false, created: false };
    }
    const stateChanged = !old || old.state !== newState || forceUpdate;
    const lastChanged = stateChanged ? now : old.lastChangedUs;
    const state = new State(entityId, newState, Object.freeze({ ...attributes }), lastChanged, now, now, context);
    this.states.set(entityId, state);
    this.writtenElsewhere.delete(entityId);
    this.notify(entityId, state, true);
    this.bus.fire('state_changed', { entity_id: entityId, old_state: old ?? null, new_state: state }, context, now);
    return { state, changed: true, created: !old };
  }

  /**
   * A write made on another instance of a cluster (see cluster/replication.ts), applied as
   * it was made there: same times, same context. Last writer wins by last_updated, so a
   * message that arrives late cannot undo a newer write; a write already held, or one that
   * only repeats the current state (an MQTT message every instance heard), fires nothing.
   * Returns whether the change was applied.
   */
  applyReplicated(entityId: string, next: State | null, removedUpdatedUs?: number): boolean {
    const old = this.states.get(entityId);
    if (next === null) {
      // A removal undoes only the state it removed, not one written since.
      if (!old || (removedUpdatedUs !== undefined && old.lastUpdatedUs > removedUpdatedUs)) return false;
      this.states.delete(entityId);
      this.writtenElsewhere.delete(entityId);
      this.notify(entityId, undefined, true, true);
      this.bus.fire(
        'state_changed',
        { entity_id: entityId, old_state: old, new_state: null },
        old.context,
        nowUs(this.clock),
        'LOCAL',
        true,
      );
      return true;
    }
    // Equal times (two instances in the same microsecond): the larger context id wins on both.
    if (
      old &&
      (old.lastUpdatedUs > next.lastUpdatedUs ||
        (old.lastUpdatedUs === next.lastUpdatedUs && old.context.id >= next.context.id))
    )
      return false;
    if (old && old.state === next.state && deepEqual(old.attributes, next.attributes)) {
      const reported = new State(
        entityId,
        old.state,
        old.attributes,
        old.lastChangedUs,
        old.lastUpdatedUs,
        Math.max(old.lastReportedUs, next.lastReportedUs),
        old.context,
      );
      this.states.set(entityId, reported);
      this.notify(entityId, reported, false, true);
      return false;
    }
    this.states.set(entityId, next);
    this.writtenElsewhere.add(entityId);
    this.notify(entityId, next, true, true);
    this.bus.fire(
      'state_changed',
      { entity_id: entityId, old_state: old ?? null, new_state: next },
      next.context,
      next.lastUpdatedUs,
      'LOCAL',
      true,
    );
    return true;
  }

  remove(entityId: string, context: Context): boolean {
    const old = this.states.get(entityId);
    if (!old) return false;
    this.states.delete(entityId);
    this.writtenElsewhere.delete(entityId);
    this.notify(entityId, undefined, true);
    this.bus.fire(
      'state_changed',
      { entity_id: entityId, old_state: old, new_state: null },
      context,
      nowUs(this.clock),
    );
    return true;
  }

  private notify(entityId: string, state: State | undefined, changed: boolean, replicated = false) {
    for (const l of this.writeListeners) l(entityId, state, changed, replicated);
  }
}
