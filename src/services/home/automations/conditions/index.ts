// Every condition type by name (plus and/or/not). Adding one: write its file, add one line here.
import { isTemplate } from '../../templates/index.js';
import { ConfigProblem } from '../config-values.js';
import { numericStateCondition } from './numeric_state.js';
import { stateCondition } from './state.js';
import { templateCondition } from './template.js';
import { timeCondition } from './time.js';
import type { ConditionType, Test } from './types.js';

const logic = (combine: 'and' | 'or' | 'not'): ConditionType => ({
  compile(c, compileList) {
    const tests = compileList(c.conditions);
    if (combine === 'and') return (h, v) => tests.every((t) => t(h, v));
    if (combine === 'or') return (h, v) => tests.some((t) => t(h, v));
    return (h, v) => !tests.some((t) => t(h, v));
  },
});

const CONDITIONS: Record<string, ConditionType> = {
  state: stateCondition,
  numeric_state: numericStateCondition,
  time: timeCondition,
  template: templateCondition,
  and: logic('and'),
  or: logic('or'),
  not: logic('not'),
};

export function compileConditions(raw: unknown): Test[] {
  const list = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  return list.map((c, i) => {
    // HA's shorthand: a condition that is just a template.
    if (typeof c === 'string' && isTemplate(c))
      return templateCondition.compile({ condition: 'template', value_template: c }, compileConditions);
    if (typeof c !== 'object' || c === null) throw new ConfigProblem(`expected a dictionary for conditions[${i}]`);
    const cfg = c as Record<string, unknown>;
    const type = CONDITIONS[String(cfg.condition)];
    if (!type)
      throw new ConfigProblem(
        `Unexpected value for condition: '${String(cfg.condition)}'. Expected ${Object.keys(CONDITIONS).join(', ')} @ data[${i}]`,
      );
    return type.compile(cfg, compileConditions);
  });
}

export type { Test };
