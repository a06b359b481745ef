// Where a scenario given to the admin API comes from, and so where its workflow `file`s are
// read from: relative to the scenario file, as on the command line.
//
// - `?example=newsroom`: one of the scenarios Hamlet ships (examples/scenarios/), its files
//   beside it;
// - `?file=team/week.yaml`: a scenario file inside HAMLET_SCENARIO_DIR, its files relative to
//   its own folder (and inside HAMLET_SCENARIO_DIR);
// - a YAML or JSON body: the scenario itself, which lives nowhere, so its files are read from
//   HAMLET_SCENARIO_DIR (without it, only inline definitions).
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScenarioError } from './scenario-error.js';
import { parseScenario, type Scenario, type ScenarioFiles } from './scenario.js';

/** The scenarios that ship with Hamlet (beside src/ and dist/ alike). */
const EXAMPLE_SCENARIOS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../examples/scenarios');

/** Largest scenario file read (a scenario is a page of YAML; a seeded week is the demo's business). */
const MAX_SCENARIO_FILE = 4 * 1024 * 1024;

export interface ScenarioSource {
  example?: string;
  file?: string;
}

export function scenarioFromRequest(
  body: unknown,
  source: ScenarioSource,
  scenarioDir: string | undefined,
): { scenario: Scenario; files: ScenarioFiles } {
  if (source.example !== undefined && source.file !== undefined)
    throw new ScenarioError('example and file: one or the other');
  if (source.example !== undefined) {
    if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(source.example))
      throw new ScenarioError(
        'example: the name of a scenario in examples/scenarios (newsroom, help-desk, smart-home)',
      );
    return readInside(EXAMPLE_SCENARIOS, `${source.example}.yaml`, 'examples/scenarios', 'example');
  }
  if (source.file !== undefined) {
    if (!scenarioDir)
      throw new ScenarioError(
        'file: scenario files are read from HAMLET_SCENARIO_DIR, which is not set; post the scenario itself as the body',
      );
    return readInside(scenarioDir, source.file, 'HAMLET_SCENARIO_DIR', 'file');
  }
  const scenario = typeof body === 'string' ? parseScenario(body) : parseScenario(JSON.stringify(body ?? null));
  return {
    scenario,
    files: scenarioDir ? { folder: scenarioDir, setting: 'HAMLET_SCENARIO_DIR' } : { setting: 'HAMLET_SCENARIO_DIR' },
  };
}

/** A scenario file inside a folder (symbolic links resolved), and its own folder for its files. */
function readInside(
  folder: string,
  name: string,
  named: string,
  param: string,
): { scenario: Scenario; files: ScenarioFiles } {
  const where = `${param} ${JSON.stringify(name.slice(0, 200))}`;
  const inside = (root: string, target: string) => {
    const rel = path.relative(root, target);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  };
  let root: string;
  let real: string;
  try {
    root = realpathSync(folder);
  } catch {
    throw new ScenarioError(`${where}: the folder ${named} names does not exist`);
  }
  const target = path.resolve(root, name);
  if (!inside(root, target))
    throw new ScenarioError(`${where}: outside ${named}; scenarios are read from inside it only`);
  try {
    real = realpathSync(target);
  } catch {
    throw new ScenarioError(`${where}: no such scenario in ${named}`);
  }
  if (!inside(root, real)) throw new ScenarioError(`${where}: a link that leads outside ${named}`);
  const stat = statSync(real);
  if (!stat.isFile()) throw new ScenarioError(`${where}: not a file`);
  if (stat.size > MAX_SCENARIO_FILE) throw new ScenarioError(`${where}: larger than ${MAX_SCENARIO_FILE} bytes`);
  return {
    scenario: parseScenario(readFileSync(real, 'utf8')),
    files: { folder: path.dirname(real), setting: `the folder of ${where} in ${named}` },
  };
}
