// A task's world, made once and restored for each of its episodes: its base (the demo world
// from a seed, a snapshot file, or nothing), its scenario seeded on top through the services'
// APIs (which hands out the agents' keys), the clock set where the task says (frozen unless it
// says otherwise). The result is kept as a world state (restored by every episode) and as a
// snapshot file (the start of every episode's diff). The keys are rows of that world, so every
// restore brings them back: they are the task's, not the evaluator's.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateDemoWorld } from '../demo/world-demo.js';
import { decodeWorldFile, saveWorld, WorldFileError } from '../console/world/file.js';
import { ScenarioError, type SeedKeys } from '../console/world/scenario.js';
import { seedScenario } from '../console/world/seed.js';
import type { WorldState } from '../console/world/state.js';
import { ControllableClock } from '../platform/clock.js';
import { checkPeopleCanAct } from './people.js';
import type { Instance } from './pool.js';
import { TaskError, type Task } from './task.js';

export interface StartWorld {
  state: WorldState;
  /** The same state as a snapshot file (the diff reads files). */
  file: string;
  keys: SeedKeys;
  /** Real time it took to make. */
  prepareMs: number;
}

/** Demo worlds by seed and size: generating one takes seconds, and several tasks share one. */
export class DemoWorlds {
  private readonly made = new Map<string, Promise<WorldState>>();

  get(seed: number, size: 'small' | 'large'): Promise<WorldState> {
    const key = `${seed}/${size}`;
    let state = this.made.get(key);
    if (!state) this.made.set(key, (state = generateDemoWorld({ seed, size })));
    return state;
  }
}

function readKeys(file: string, task: Task): SeedKeys {
  try {
    const keys = JSON.parse(readFileSync(file, 'utf8')) as SeedKeys;
    if (!keys || typeof keys.agents !== 'object') throw new Error('no `agents`');
    return keys;
  } catch (err) {
    throw new TaskError(
      `${task.file}: world.keys: not a keys file as \`hamlet world seed --keys-out\` writes it (${(err as Error).message})`,
    );
  }
}

/** The task's agent must be one the world handed keys to. */
export function checkAgent(task: Task, start: Pick<StartWorld, 'keys'>): void {
  if (start.keys.agents[task.agent.name]) return;
  const known = Object.keys(start.keys.agents);
  throw new TaskError(
    `${task.file}: agent.name: the world has no agent "${task.agent.name}" with keys (${known.length ? `it has: ${known.join(', ')}` : 'add it to the scenario'})`,
  );
}

/**
 * Makes the task's world on an instance (whose world it replaces) and keeps it in `dir`. Runs
 * while no episode does: the demo generator draws the process's randomness from its seed.
 */
export async function prepareStartWorld(
  task: Task,
  instance: Instance,
  dir: string,
  demos: DemoWorlds,
): Promise<StartWorld> {
  const started = performance.now();
  const { world, hamlet } = instance;
  const platform = hamlet.platform;
  let keys: SeedKeys = { agents: {} };
  try {
    if (task.world.demo) await world.restore(await demos.get(task.world.demo.seed, task.world.demo.size));
    else if (task.world.snapshot)
      await world.restore((await decodeWorldFile(task.world.snapshot, instance.limits)).state);
    else await world.reset();
    if (task.world.keys) keys = readKeys(task.world.keys, task);
    if (task.world.scenario) {
      const seeded = await seedScenario(
        platform,
        hamlet.services,
        task.world.scenario.scenario,
        task.world.scenario.baseDir,
      );
      for (const [agent, services] of Object.entries(seeded.agents))
        keys.agents[agent] = { ...keys.agents[agent], ...services };
    }
  } catch (err) {
    if (err instanceof WorldFileError) throw new TaskError(`${task.file}: world.snapshot: ${err.message}`);
    if (err instanceof ScenarioError) throw new TaskError(`${task.file}: world.scenario: ${err.message}`);
    throw err;
  }
  checkAgent(task, { keys });
  await checkPeopleCanAct(task, instance);
  const clock = platform.clock;
  if (clock instanceof ControllableClock) {
    if (task.world.clock?.now) clock.set(task.world.clock.now);
    if (task.world.clock?.frozen === false) clock.unfreeze();
    else clock.freeze();
  }
  await platform.jobs.idle(undefined, 60_000);
  const state = await world.read();
  const file = path.join(dir, 'start.jsonl.gz');
  writeFileSync(file, saveWorld(state, clock.now().toISOString(), task.id).file);
  return { state, file, keys, prepareMs: performance.now() - started };
}
