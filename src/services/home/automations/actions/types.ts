// An action compiles from its config to a step of a run. A run carries the automation's
// context (every state it changes is attributed to it), its variables, and an abort
// signal (restart mode, turning the automation off, shutdown).
import type { Context } from '../../core/context.js';
import type { Home } from '../../core/home.js';

export interface Run {
  home: Home;
  context: Context;
  vars: Record<string, unknown>;
  signal: AbortSignal;
}

export type Step = (run: Run) => Promise<void>;

/** Thrown by a condition action that is false: the run ends quietly. */
export class StopRun extends Error {}

export interface ActionType {
  /** The key that identifies this action in a config (`delay`, `choose`, ...). */
  keys: string[];
  compile(config: Record<string, unknown>, compileSequence: (raw: unknown) => Step): Step;
}
