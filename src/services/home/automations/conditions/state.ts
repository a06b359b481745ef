// state condition: every listed entity is in one of the given states (or an attribute has one of the values).
import { ConfigProblem, idList, need } from '../config-values.js';
import type { ConditionType } from './types.js';

export const stateCondition: ConditionType = {
  compile(c) {
    const ids = idList(need(c, 'entity_id'), 'entity_id');
    const raw = need(c, 'state');
    const wanted = (Array.isArray(raw) ? raw : [raw]).map((x) => {
      if (typeof x === 'object' && x !== null)
        throw new ConfigProblem("expected str for dictionary value @ data['state']");
      return String(x);
    });
    const attribute = typeof c.attribute === 'string' ? c.attribute : undefined;
    const match = c.match === 'any' ? 'some' : 'every';
    return (home) =>
      ids[match]((id) => {
        const s = home.states.get(id);
        if (!s) return false;
        const v = attribute ? s.attributes[attribute] : s.state;
        return v !== undefined && wanted.includes(typeof v === 'string' ? v : JSON.stringify(v));
      });
  },
};
