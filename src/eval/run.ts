// An evaluation run: every task read and checked first (one bad file stops the run before
// anything starts), a pool of warm instances, each task's world made once, then the episodes
// (tasks × repeats) spread over the pool, `parallel` at a time, each in an instance of its own.
// Writes <out>/<task>/<n>/… per episode, and <out>/summary.json and <out>/report.html.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Env } from '../platform/settings.js';
import { runEpisode, type EpisodeResult } from './episode.js';
import { checkPeopleCanAct } from './people.js';
import { InstancePool } from './pool.js';
import { renderReport } from './report.js';
import { loadTask, TaskError, type Task } from './task.js';
import { checkAgent, DemoWorlds, prepareStartWorld, type StartWorld } from './world-setup.js';

export interface RunOptions {
  tasks: string[];
  agent: string;
  parallel: number;
  repeat: number;
  out: string;
  env: Env;
  services: string[];
  /** Told of each episode as it ends (the CLI prints a line). */
  onEpisode?: (r: EpisodeResult) => void;
}

export interface TaskSummary {
  id: string;
  file: string;
  episodes: number;
  passed: number;
  meanScore: number;
  checks: Array<{ name: string; kind: string; passed: number; of: number }>;
}

export interface RunSummary {
  agent: string;
  parallel: number;
  startedAt: string;
  tasks: TaskSummary[];
  episodes: Array<
    Pick<EpisodeResult, 'task' | 'episode' | 'instance' | 'epoch' | 'score' | 'passed' | 'errors' | 'timings'> & {
      failed: string[];
      timedOut: boolean;
      dir: string;
    }
  >;
  totals: { episodes: number; passed: number; meanScore: number };
  timings: { poolStartMs: number; prepareMs: number; episodesMs: number; meanResetMs: number; maxResetMs: number };
}

/** Reads every task; all that are wrong are named together. */
export function loadTasks(files: string[]): Task[] {
  const problems: string[] = [];
  const tasks: Task[] = [];
  for (const file of files) {
    try {
      tasks.push(loadTask(file));
    } catch (err) {
      if (!(err instanceof TaskError)) throw err;
      problems.push(err.message);
    }
  }
  const ids = new Map<string, string>();
  for (const t of tasks) {
    const other = ids.get(t.id);
    if (other) problems.push(`${t.file}: id: "${t.id}" is also the id of ${other}`);
    ids.set(t.id, t.file);
  }
  if (problems.length) throw new TaskError(problems.join('\n'));
  return tasks;
}

function summarize(tasks: Task[], results: EpisodeResult[]): TaskSummary[] {
  return tasks.map((task) => {
    const mine = results.filter((r) => r.task === task.id);
    const checks = task.checks.map((_, i) => ({
      name: mine[0]?.checks[i]?.name ?? `check ${i}`,
      kind: mine[0]?.checks[i]?.kind ?? '',
      passed: mine.filter((r) => r.checks[i]?.pass).length,
      of: mine.length,
    }));
    return {
      id: task.id,
      file: task.file,
      episodes: mine.length,
      passed: mine.filter((r) => r.passed).length,
      meanScore: mine.length ? mine.reduce((s, r) => s + r.score, 0) / mine.length : 0,
      checks,
    };
  });
}

/** Everything a run's episodes need: the tasks, the warm instances, each task's world made. */
export interface PreparedRun {
  tasks: Task[];
  pool: InstancePool;
  starts: Map<string, StartWorld>;
  startedAt: string;
  timings: { poolStartMs: number; prepareMs: number };
}

/**
 * Same world, same start: tasks whose worlds are written alike (base, scenario with its folder,
 * clock) share one prepared world, which a suite of tasks on a few worlds makes once each.
 */
function worldKey(task: Task): string {
  return JSON.stringify(task.world);
}

/**
 * Reads the tasks, starts the pool (at most `parallel` instances, no more than there are
 * episodes) and makes every task's world, then hands them to `use`, and stops the pool after.
 * Several agents can be run over one preparation (runAgentOver), the way the starter suite is.
 */
export async function withPreparedRun<T>(
  opts: { tasks: string[]; parallel: number; episodes: number; out: string; env: Env; services: string[] },
  use: (run: PreparedRun) => Promise<T>,
): Promise<T> {
  const tasks = loadTasks(opts.tasks);
  mkdirSync(opts.out, { recursive: true });
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const pool = await InstancePool.start(Math.max(1, Math.min(opts.parallel, opts.episodes)), opts.env, opts.services);
  const poolStartMs = performance.now() - t0;
  try {
    const t1 = performance.now();
    const starts = new Map<string, StartWorld>();
    const byWorld = new Map<string, StartWorld>();
    const demos = new DemoWorlds();
    const maker = await pool.acquire();
    try {
      for (const task of tasks) {
        const key = worldKey(task);
        let start = byWorld.get(key);
        if (!start) {
          const dir = path.join(opts.out, task.id);
          mkdirSync(dir, { recursive: true });
          byWorld.set(key, (start = await prepareStartWorld(task, maker, dir, demos)));
        } else {
          checkAgent(task, start);
          // People named by the task alone are checked in its world (a scenario's were, at load).
          if (task.people.length && (task.world.demo || task.world.snapshot)) {
            await maker.world.restore(start.state);
            await checkPeopleCanAct(task, maker);
          }
        }
        starts.set(task.id, start);
      }
    } finally {
      pool.release(maker);
    }
    return await use({ tasks, pool, starts, startedAt, timings: { poolStartMs, prepareMs: performance.now() - t1 } });
  } finally {
    await pool.stop();
  }
}

/** Runs one agent over a prepared run's tasks (each `repeat` times), writes its summary and report to `out`. */
export async function runAgentOver(
  run: PreparedRun,
  opts: { agent: string; repeat: number; out: string; onEpisode?: (r: EpisodeResult) => void },
): Promise<{ summary: RunSummary; results: EpisodeResult[] }> {
  const { tasks, pool, starts } = run;
  mkdirSync(opts.out, { recursive: true });
  const t2 = performance.now();
  const queue = tasks.flatMap((task) => Array.from({ length: opts.repeat }, (_, i) => ({ task, episode: i + 1 })));
  const results: EpisodeResult[] = [];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const instance = await pool.acquire();
      try {
        const result = await runEpisode(next.task, starts.get(next.task.id)!, instance, {
          agent: opts.agent,
          dir: path.join(opts.out, next.task.id, String(next.episode)),
          episode: next.episode,
        });
        results.push(result);
        opts.onEpisode?.(result);
      } finally {
        pool.release(instance);
      }
    }
  };
  await Promise.all(pool.instances.map(() => worker()));
  const episodesMs = performance.now() - t2;
  results.sort((a, b) => (a.task === b.task ? a.episode - b.episode : a.task < b.task ? -1 : 1));

  const resets = results.map((r) => r.timings.resetMs);
  const summary: RunSummary = {
    agent: opts.agent,
    parallel: pool.instances.length,
    startedAt: run.startedAt,
    tasks: summarize(tasks, results),
    episodes: results.map((r) => ({
      task: r.task,
      episode: r.episode,
      instance: r.instance,
      epoch: r.epoch,
      score: r.score,
      passed: r.passed,
      errors: r.errors,
      timings: r.timings,
      failed: r.checks.filter((c) => !c.pass).map((c) => c.name),
      timedOut: r.agent.timedOut,
      dir: path.relative(opts.out, r.dir),
    })),
    totals: {
      episodes: results.length,
      passed: results.filter((r) => r.passed).length,
      meanScore: results.length ? results.reduce((s, r) => s + r.score, 0) / results.length : 0,
    },
    timings: {
      ...run.timings,
      episodesMs,
      meanResetMs: resets.reduce((s, x) => s + x, 0) / Math.max(1, resets.length),
      maxResetMs: Math.max(0, ...resets),
    },
  };
  writeFileSync(path.join(opts.out, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
  writeFileSync(path.join(opts.out, 'report.html'), renderReport(summary, results));
  return { summary, results };
}

export async function runEvaluation(opts: RunOptions): Promise<{ summary: RunSummary; results: EpisodeResult[] }> {
  const episodes = opts.tasks.length * opts.repeat;
  return withPreparedRun({ ...opts, episodes }, (run) => runAgentOver(run, opts));
}
