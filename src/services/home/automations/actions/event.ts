// event action: fires an event with event_data, in the run's context.
import { ConfigProblem } from '../triggers/types.js';
import type { ActionType } from './types.js';

export const eventAction: ActionType = {
  keys: ['event'],
  compile(c) {
    if (typeof c.event !== 'string' || !c.event) throw new ConfigProblem("expected str for dictionary value @ data['event']");
    const data = (c.event_data ?? {}) as Record<string, unknown>;
    if (typeof data !== 'object' || Array.isArray(data)) throw new ConfigProblem("expected a dictionary for dictionary value @ data['event_data']");
    return async (run) => {
      run.home.fire(c.event as string, { ...data }, run.context);
    };
  },
};
