// event action: fires an event with event_data (templates rendered), in the run's context.
import { hasTemplate, renderComplex } from '../../templates/index.js';
import { checkTemplatesIn } from '../templating.js';
import { ConfigProblem } from '../config-values.js';
import type { ActionType } from './types.js';

export const eventAction: ActionType = {
  keys: ['event'],
  compile(c) {
    if (typeof c.event !== 'string' || !c.event)
      throw new ConfigProblem("expected str for dictionary value @ data['event']");
    const data = {
      ...((c.event_data ?? {}) as Record<string, unknown>),
      ...((c.event_data_template ?? {}) as Record<string, unknown>),
    };
    for (const k of ['event_data', 'event_data_template'])
      if (c[k] !== undefined && (typeof c[k] !== 'object' || c[k] === null || Array.isArray(c[k])))
        throw new ConfigProblem(`expected a dictionary for dictionary value @ data['${k}']`);
    checkTemplatesIn(data, 'event_data');
    const templated = hasTemplate(data);
    return async (run) => {
      run.home.fire(
        c.event as string,
        templated ? (renderComplex(run.home, data, run.vars) as Record<string, unknown>) : { ...data },
        run.context,
      );
    };
  },
};
