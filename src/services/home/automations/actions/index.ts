// Every action type. Adding one: write its file, add one line here.
import { ConfigProblem } from '../config-values.js';
import { chooseAction } from './choose.js';
import { conditionAction } from './condition.js';
import { delayAction } from './delay.js';
import { eventAction } from './event.js';
import { serviceAction } from './service.js';
import type { ActionType, Step } from './types.js';
import { waitForTriggerAction } from './wait_for_trigger.js';

const ACTIONS: ActionType[] = [
  serviceAction,
  delayAction,
  waitForTriggerAction,
  chooseAction,
  eventAction,
  conditionAction,
];

/** Compiles an action list into one step that runs them in order. */
export function compileSequence(raw: unknown): Step {
  const list = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  const steps = list.map((a, i) => {
    if (typeof a !== 'object' || a === null || Array.isArray(a))
      throw new ConfigProblem(`expected a dictionary for actions[${i}]`);
    const cfg = a as Record<string, unknown>;
    const type = ACTIONS.find((t) => t.keys.some((k) => k in cfg));
    if (!type) throw new ConfigProblem(`Unable to determine action @ data[${i}]`);
    if (cfg.enabled === false) return async () => {};
    return type.compile(cfg, compileSequence);
  });
  return async (run) => {
    for (const step of steps) {
      if (run.signal.aborted) throw run.signal.reason;
      await step(run);
    }
  };
}

export { StopRun, type Step } from './types.js';
