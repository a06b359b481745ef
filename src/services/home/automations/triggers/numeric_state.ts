// numeric_state trigger: fires when an entity's value (state, attribute, or value_template of the state) enters the range
// above < value < below, i.e. it was outside the range (or not numeric) before.
import type { State } from '../../core/state.js';
import { numericValue, templateOf } from '../templating.js';
import { ConfigProblem, idList, need, parseDuration } from '../config-values.js';
import { HoldTimers, type TriggerType } from './types.js';

const numberOrNone = (v: unknown, key: string): number | undefined => {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new ConfigProblem(`expected float for dictionary value @ data['${key}']`);
  return v;
};

export const numericStateTrigger: TriggerType = {
  validate(c) {
    const above = numberOrNone(c.above, 'above');
    const below = numberOrNone(c.below, 'below');
    if (above === undefined && below === undefined)
      throw new ConfigProblem('must contain at least one of below, above.');
    const valueTemplate = c.value_template === undefined ? undefined : templateOf(c.value_template, 'value_template');
    return {
      ...c,
      entity_id: idList(need(c, 'entity_id'), 'entity_id'),
      above,
      below,
      value_template: valueTemplate,
      for: c.for === undefined ? undefined : parseDuration(c.for, 'for'),
    };
  },
  describe: (c) => `numeric state of ${(c.entity_id as string[]).join(', ')}`,
  attach(c, home, fire) {
    const ids = new Set(c.entity_id as string[]);
    const above = c.above as number | undefined;
    const below = c.below as number | undefined;
    const attribute = typeof c.attribute === 'string' ? c.attribute : undefined;
    const forMs = c.for as number | undefined;
    const valueTemplate = c.value_template as string | undefined;
    const inRange = (s: State | null): boolean => {
      let n: number;
      try {
        n = numericValue(home, s, attribute, valueTemplate);
      } catch (err) {
        home.logger.warn(
          { err: (err as Error).message, template: valueTemplate },
          'home: numeric_state value_template failed',
        );
        return false;
      }
      if (!Number.isFinite(n)) return false;
      return (above === undefined || n > above) && (below === undefined || n < below);
    };
    const holds = new HoldTimers(home);
    const stop = home.bus.listen('state_changed', (e) => {
      const id = e.data.entity_id as string;
      if (!ids.has(id)) return;
      const next = e.data.new_state as State | null;
      if (!inRange(next)) {
        holds.cancel(id);
        return;
      }
      if (inRange(e.data.old_state as State | null)) return;
      const vars = {
        platform: 'numeric_state',
        entity_id: id,
        below: below ?? null,
        above: above ?? null,
        from_state: e.data.old_state,
        to_state: next,
        for: forMs === undefined ? null : forMs / 1000,
        description: `numeric state of ${id}`,
      };
      holds.fireAfter(id, forMs, () => fire(vars, e.context));
    });
    return () => {
      stop();
      holds.clear();
    };
  },
};
