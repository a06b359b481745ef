// condition action: ends the run quietly when the condition does not hold.
import { compileConditions } from '../conditions/index.js';
import { StopRun, type ActionType } from './types.js';

export const conditionAction: ActionType = {
  keys: ['condition'],
  compile(c) {
    const [test] = compileConditions([c]);
    return async (run) => {
      if (!test(run.home, run.vars)) throw new StopRun();
    };
  },
};
