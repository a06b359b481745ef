// A condition compiles from its config to a test of the home's current state and the run's variables.
import type { Home } from '../../core/home.js';

export type Test = (home: Home, vars: Record<string, unknown>) => boolean;

export interface ConditionType {
  compile(config: Record<string, unknown>, compileList: (raw: unknown) => Test[]): Test;
}
