// numeric_state condition: every listed entity's value (its state, an attribute, or what
// value_template makes of the state) is above/below the given numbers.
import { ConfigProblem, idList, need } from '../config-values.js';
import { numericValue, templateOf } from '../templating.js';
import type { ConditionType } from './types.js';

export const numericStateCondition: ConditionType = {
  compile(c) {
    const ids = idList(need(c, 'entity_id'), 'entity_id');
    for (const k of ['above', 'below'])
      if (c[k] !== undefined && typeof c[k] !== 'number')
        throw new ConfigProblem(`expected float for dictionary value @ data['${k}']`);
    const above = c.above as number | undefined;
    const below = c.below as number | undefined;
    if (above === undefined && below === undefined)
      throw new ConfigProblem('must contain at least one of below, above.');
    const attribute = typeof c.attribute === 'string' ? c.attribute : undefined;
    const valueTemplate = c.value_template === undefined ? undefined : templateOf(c.value_template, 'value_template');
    return (home) =>
      ids.every((id) => {
        const n = numericValue(home, home.states.get(id), attribute, valueTemplate);
        return Number.isFinite(n) && (above === undefined || n > above) && (below === undefined || n < below);
      });
  },
};
