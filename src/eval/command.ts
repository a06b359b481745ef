// `hamlet eval …`: run tasks against an agent (docs/evaluations.md).
//   hamlet eval run <task.yaml…> --agent "<command>" [--parallel N] [--repeat N] [--out DIR]
//   hamlet eval check <task.yaml…>     read and check task files, run nothing
//   hamlet eval schema                 print the task format's JSON Schema
import type { HamletConfig } from '../config.js';
import { loadTasks, runEvaluation } from './run.js';
import { taskSchema, TaskError } from './task.js';
import { EVAL_USAGE } from './usage.js';

function whole(flags: Record<string, string>, name: string, fallback: number, max: number): number | string {
  const raw = flags[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= 1 && n <= max ? n : `--${name} takes a whole number from 1 to ${max}`;
}

export async function evalCommand(
  config: HamletConfig,
  args: string[],
  flags: Record<string, string>,
): Promise<number> {
  const [action, ...files] = args;
  try {
    if (action === 'schema') {
      console.log(JSON.stringify(taskSchema(), null, 2));
      return 0;
    }
    if (action === 'check' && files.length) {
      const tasks = loadTasks(files);
      for (const t of tasks) console.log(`${t.file}: ${t.id}, ${t.checks.length} check(s)`);
      return 0;
    }
    if (action === 'run' && files.length) {
      const agent = flags['agent'];
      if (!agent || agent === 'true')
        return fail('--agent "<command>" names the agent to evaluate (run in a shell, once per episode)');
      const parallel = whole(flags, 'parallel', 1, 64);
      const repeat = whole(flags, 'repeat', 1, 1000);
      if (typeof parallel === 'string') return fail(parallel);
      if (typeof repeat === 'string') return fail(repeat);
      const out = flags['out'] ?? `eval-runs/${new Date().toISOString().replace(/[:.]/g, '-')}`;
      const { summary } = await runEvaluation({
        tasks: files,
        agent,
        parallel,
        repeat,
        out,
        env: config.source.env,
        services: config.services,
        onEpisode: (r) => {
          console.error(
            `${r.passed ? 'pass' : 'FAIL'} ${r.task} #${r.episode} score ${r.score.toFixed(2)}${
              r.passed
                ? ''
                : `: ${r.checks
                    .filter((c) => !c.pass)
                    .map((c) => c.name)
                    .join('; ')}`
            }`,
          );
          // What went wrong around the agent (an event, a simulated person's simulator) is said too.
          for (const e of r.errors) console.error(`  error: ${e}`);
        },
      });
      console.error(`${summary.totals.passed}/${summary.totals.episodes} episodes passed; report: ${out}/report.html`);
      console.log(JSON.stringify(summary.totals));
      return summary.totals.passed === summary.totals.episodes ? 0 : 2;
    }
  } catch (err) {
    if (err instanceof TaskError) return fail(err.message);
    throw err;
  }
  return fail(`Usage:\n${EVAL_USAGE}`);
}

function fail(message: string): number {
  console.error(message);
  return 1;
}
