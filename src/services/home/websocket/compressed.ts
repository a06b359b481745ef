// `subscribe_entities`' compressed format: states as {s, a, c, lc, lu?} with epoch-second
// times, and per-change diffs {"+": changed keys, "-": {a: removed attributes}}. A diff is
// computed once per state change and shared by every subscriber (as its JSON text).
import type { HomeEvent } from '../core/bus.js';
import type { Context } from '../core/context.js';
import { deepEqual, type State } from '../core/state.js';

const sec = (us: number) => us / 1_000_000;

const compressContext = (c: Context) => (c.parent_id === null && c.user_id === null ? c.id : c);

export function compressState(s: State): Record<string, unknown> {
  return {
    s: s.state,
    a: s.attributes,
    c: compressContext(s.context),
    lc: sec(s.lastChangedUs),
    ...(s.lastUpdatedUs !== s.lastChangedUs ? { lu: sec(s.lastUpdatedUs) } : {}),
  };
}

export function stateDiff(old: State, next: State): Record<string, unknown> {
  const plus: Record<string, unknown> = {};
  if (old.state !== next.state) plus.s = next.state;
  if (old.lastChangedUs !== next.lastChangedUs) plus.lc = sec(next.lastChangedUs);
  else if (old.lastUpdatedUs !== next.lastUpdatedUs) plus.lu = sec(next.lastUpdatedUs);
  const oc = old.context;
  const nc = next.context;
  if (oc.parent_id !== nc.parent_id || oc.user_id !== nc.user_id) {
    const c: Record<string, unknown> = {};
    if (oc.id !== nc.id) c.id = nc.id;
    if (oc.parent_id !== nc.parent_id) c.parent_id = nc.parent_id;
    if (oc.user_id !== nc.user_id) c.user_id = nc.user_id;
    plus.c = c;
  } else if (oc.id !== nc.id) plus.c = nc.id;
  const added: Record<string, unknown> = {};
  let anyAdded = false;
  for (const [k, v] of Object.entries(next.attributes)) {
    if (!(k in old.attributes) || !deepEqual(old.attributes[k], v)) {
      added[k] = v;
      anyAdded = true;
    }
  }
  if (anyAdded) plus.a = added;
  const removed = Object.keys(old.attributes).filter((k) => !(k in next.attributes));
  return removed.length ? { '+': plus, '-': { a: removed } } : { '+': plus };
}

/** The kind of message a state_changed event becomes, and its body text inside the event object. */
export interface EntityMessage {
  kind: 'a' | 'c' | 'r';
  entityId: string;
  /** `"entity_id":{...}` for a/c, `"entity_id"` for r. */
  text: string;
}

const cache = new WeakMap<HomeEvent, EntityMessage>();

export function entityMessage(event: HomeEvent): EntityMessage {
  let m = cache.get(event);
  if (m) return m;
  const entityId = event.data.entity_id as string;
  const old = event.data.old_state as State | null;
  const next = event.data.new_state as State | null;
  const key = JSON.stringify(entityId);
  if (!next) m = { kind: 'r', entityId, text: key };
  else if (!old) m = { kind: 'a', entityId, text: `${key}:${JSON.stringify(compressState(next))}` };
  else m = { kind: 'c', entityId, text: `${key}:${JSON.stringify(stateDiff(old, next))}` };
  cache.set(event, m);
  return m;
}
