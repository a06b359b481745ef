// Service call action: `action: light.turn_on` (old: `service:`), with target and data.
import { ConfigProblem } from '../triggers/types.js';
import type { ActionType } from './types.js';

export const serviceAction: ActionType = {
  keys: ['action', 'service'],
  compile(c) {
    const name = c.action ?? c.service;
    if (typeof name !== 'string' || !/^[a-z0-9_]+\.[a-z0-9_]+$/.test(name)) throw new ConfigProblem(`Service ${JSON.stringify(name)} does not match format <domain>.<name> for dictionary value @ data['action']`);
    const [domain, service] = name.split('.') as [string, string];
    const data = (c.data ?? c.service_data ?? {}) as Record<string, unknown>;
    if (typeof data !== 'object' || Array.isArray(data)) throw new ConfigProblem("expected a dictionary for dictionary value @ data['data']");
    const target = c.target;
    const merged = c.entity_id !== undefined ? { ...data, entity_id: c.entity_id } : data;
    const continueOnError = c.continue_on_error === true;
    return async (run) => {
      try {
        const r = await run.home.callService(domain, service, merged, { target, context: run.context, returnResponse: typeof c.response_variable === 'string' });
        if (typeof c.response_variable === 'string') run.vars[c.response_variable] = r.response;
      } catch (err) {
        if (!continueOnError) throw err;
      }
    };
  },
};
