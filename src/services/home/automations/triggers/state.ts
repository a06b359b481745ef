// state trigger: an entity's state (or one attribute) changes, optionally from/to given
// values, optionally staying there for a duration.
import type { State } from '../../core/state.js';
import { ConfigProblem, idList, need, parseDuration } from '../config-values.js';
import { HoldTimers, type TriggerType } from './types.js';

const values = (v: unknown, key: string): Array<string | null> | undefined => {
  if (v === undefined) return undefined;
  const list = Array.isArray(v) ? v : [v];
  if (list.some((x) => x !== null && typeof x !== 'string' && typeof x !== 'number' && typeof x !== 'boolean'))
    throw new ConfigProblem(`expected str for dictionary value @ data['${key}']`);
  return list.map((x) => (x === null ? null : String(x)));
};

export const stateTrigger: TriggerType = {
  validate(c) {
    return {
      ...c,
      entity_id: idList(need(c, 'entity_id'), 'entity_id'),
      from: values(c.from, 'from'),
      to: values(c.to, 'to'),
      not_from: values(c.not_from, 'not_from'),
      not_to: values(c.not_to, 'not_to'),
      for: c.for === undefined ? undefined : parseDuration(c.for, 'for'),
    };
  },
  describe: (c) => `state of ${(c.entity_id as string[]).join(', ')}`,
  attach(c, home, fire) {
    const ids = new Set(c.entity_id as string[]);
    const attribute = typeof c.attribute === 'string' ? c.attribute : undefined;
    const from = c.from as Array<string | null> | undefined;
    const to = c.to as Array<string | null> | undefined;
    const notFrom = c.not_from as string[] | undefined;
    const notTo = c.not_to as string[] | undefined;
    const forMs = c.for as number | undefined;
    const constrained = from || to || notFrom || notTo || attribute;
    const valueOf = (s: State | null): string | null => {
      if (!s) return null;
      if (!attribute) return s.state;
      const v = s.attributes[attribute];
      return v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v);
    };
    // null in a list means "any" (HA: `to: ~` matches every state change).
    const inList = (list: Array<string | null> | undefined, v: string | null) =>
      !list || list.includes(null) || list.includes(v);
    const matchesTo = (v: string | null) => inList(to, v) && !(notTo && v !== null && notTo.includes(v));
    const holds = new HoldTimers(home);

    const stop = home.bus.listen('state_changed', (e) => {
      const id = e.data.entity_id as string;
      if (!ids.has(id)) return;
      const old = e.data.old_state as State | null;
      const next = e.data.new_state as State | null;
      const ov = valueOf(old);
      const nv = valueOf(next);
      // Leaving the target state during a `for` wait cancels it.
      if (holds.has(id) && !matchesTo(nv)) holds.cancel(id);
      if (!next) return;
      if (constrained && ov === nv) return;
      if (!inList(from, ov) || (notFrom && ov !== null && notFrom.includes(ov)) || !matchesTo(nv)) return;
      const vars = {
        platform: 'state',
        entity_id: id,
        from_state: old,
        to_state: next,
        for: forMs === undefined ? null : forMs / 1000,
        attribute: attribute ?? null,
        description: `state of ${id}`,
      };
      holds.fireAfter(id, forMs, () => fire(vars, e.context));
    });
    return () => {
      stop();
      holds.clear();
    };
  },
};
