// wait_for_trigger action: waits until one of its triggers fires, or its timeout passes
// (then the run goes on unless continue_on_timeout is false). Sets `wait.trigger`.
import { attachTriggers, normalizeTriggers } from '../triggers/index.js';
import { parseDuration } from '../config-values.js';
import { StopRun, type ActionType } from './types.js';

export const waitForTriggerAction: ActionType = {
  keys: ['wait_for_trigger'],
  compile(c) {
    const triggers = normalizeTriggers(c.wait_for_trigger);
    const timeoutMs = c.timeout === undefined ? undefined : parseDuration(c.timeout, 'timeout');
    const continueOnTimeout = c.continue_on_timeout !== false;
    return (run) =>
      new Promise<void>((resolve, reject) => {
        const started = run.home.clock.ms();
        let cancelTimeout = () => {};
        const finish = (trigger: unknown) => {
          detach();
          cancelTimeout();
          run.signal.removeEventListener('abort', onAbort);
          const remaining =
            timeoutMs === undefined ? null : Math.max(0, timeoutMs - (run.home.clock.ms() - started)) / 1000;
          run.vars.wait = { trigger, remaining };
          if (trigger === null && !continueOnTimeout) reject(new StopRun());
          else resolve();
        };
        const detach = attachTriggers(run.home, triggers, (vars) => finish(vars));
        const onAbort = () => {
          detach();
          cancelTimeout();
          reject(run.signal.reason);
        };
        run.signal.addEventListener('abort', onAbort, { once: true });
        if (timeoutMs !== undefined) cancelTimeout = run.home.scheduler.after(timeoutMs, () => finish(null));
      });
  },
};
