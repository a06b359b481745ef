// choose action: runs the sequence of the first option whose conditions hold, else `default`.
import { compileConditions } from '../conditions/index.js';
import { ConfigProblem } from '../config-values.js';
import type { ActionType } from './types.js';

export const chooseAction: ActionType = {
  keys: ['choose'],
  compile(c, compileSequence) {
    const options = Array.isArray(c.choose) ? c.choose : [c.choose];
    const compiled = options.map((o, i) => {
      if (typeof o !== 'object' || o === null) throw new ConfigProblem(`expected a dictionary for choose[${i}]`);
      const opt = o as Record<string, unknown>;
      return { tests: compileConditions(opt.conditions ?? opt.condition), sequence: compileSequence(opt.sequence) };
    });
    const fallback = c.default === undefined ? undefined : compileSequence(c.default);
    return async (run) => {
      for (const o of compiled) {
        if (o.tests.every((t) => t(run.home, run.vars))) return o.sequence(run);
      }
      if (fallback) await fallback(run);
    };
  },
};
