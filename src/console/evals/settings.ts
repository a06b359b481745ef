// Where the console's evaluation pages (/evals) look for runs: the folder `hamlet eval run`
// writes into by default (eval-runs/<time>, relative to where it is started), so a console
// started from the same place sees them without a setting. Read with the platform's settings
// kit like every other setting.
import path from 'node:path';
import type { SettingsKit } from '../../platform/settings.js';

export interface EvalPageSettings {
  /** HAMLET_EVAL_RUNS: the folder holding one subfolder per run (each with summary.json), resolved at start. */
  runsDir: string;
}

const EVAL_RUNS_DEFAULT = 'eval-runs';

export function readEvalPageSettings(kit: SettingsKit, cwd = process.cwd()): EvalPageSettings {
  return { runsDir: path.resolve(cwd, kit.text('HAMLET_EVAL_RUNS', EVAL_RUNS_DEFAULT)) };
}
