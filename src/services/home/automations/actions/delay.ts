// delay action: waits on the home's clock ("00:00:05", seconds, or {minutes: 1}).
import { parseDuration } from '../config-values.js';
import type { ActionType } from './types.js';

export const delayAction: ActionType = {
  keys: ['delay'],
  compile(c) {
    const ms = parseDuration(c.delay, 'delay');
    return (run) => run.home.scheduler.sleep(ms, run.signal);
  },
};
