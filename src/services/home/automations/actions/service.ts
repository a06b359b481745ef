// Service call action: `action: light.turn_on` (old: `service:`), with target and data; the
// templates in data (or the old data_template) and target are rendered when the action runs.
import { hasTemplate, renderComplex } from '../../templates/index.js';
import { checkTemplatesIn } from '../templating.js';
import { ConfigProblem } from '../config-values.js';
import type { ActionType } from './types.js';

export const serviceAction: ActionType = {
  keys: ['action', 'service'],
  compile(c) {
    const name = c.action ?? c.service;
    if (typeof name !== 'string' || !/^[a-z0-9_]+\.[a-z0-9_]+$/.test(name))
      throw new ConfigProblem(
        `Service ${JSON.stringify(name)} does not match format <domain>.<name> for dictionary value @ data['action']`,
      );
    const [domain, service] = name.split('.') as [string, string];
    // data_template is HA's old name for templated data; both may hold templates now.
    const data = {
      ...((c.data ?? c.service_data ?? {}) as Record<string, unknown>),
      ...((c.data_template ?? {}) as Record<string, unknown>),
    };
    for (const k of ['data', 'data_template'])
      if (c[k] !== undefined && (typeof c[k] !== 'object' || c[k] === null || Array.isArray(c[k])))
        throw new ConfigProblem(`expected a dictionary for dictionary value @ data['${k}']`);
    const merged = c.entity_id !== undefined ? { ...data, entity_id: c.entity_id } : data;
    checkTemplatesIn(merged, 'data');
    checkTemplatesIn(c.target, 'target');
    const templated = hasTemplate(merged) || hasTemplate(c.target);
    const continueOnError = c.continue_on_error === true;
    return async (run) => {
      try {
        // Templates see the run's variables (trigger, this, response variables…).
        const callData = templated ? (renderComplex(run.home, merged, run.vars) as Record<string, unknown>) : merged;
        const target = templated ? renderComplex(run.home, c.target, run.vars) : c.target;
        const r = await run.home.callService(domain, service, callData, {
          target,
          context: run.context,
          returnResponse: typeof c.response_variable === 'string',
        });
        if (typeof c.response_variable === 'string') run.vars[c.response_variable] = r.response;
      } catch (err) {
        if (!continueOnError) throw err;
      }
    };
  },
};
