// `npm run eval:starter`: the starter suite (examples/eval/starter/, docs/evaluations.md) run
// with its three scripted agents over one preparation (each world made once, one pool of warm
// instances), and each agent's outcome held to what it must be:
//   reference  every task passes;
//   nothing    every task fails (a task a do-nothing agent passes checks nothing);
//   careless   every task's collateral rule fires, and only it (the agent did the task and
//              more, so the rule, not another check, is what catches it).
// Prints a line per agent and every task that broke its expectation; exits 1 if any did.
//   npm run eval:starter [-- --parallel N] [-- --out DIR] [-- task-or-folder…]
import { readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EpisodeResult } from '../src/eval/episode.js';
import { runAgentOver, withPreparedRun, type RunSummary } from '../src/eval/run.js';

const STARTER_DIR = path.resolve(import.meta.dirname, '../examples/eval/starter');
const AGENTS = path.join(STARTER_DIR, 'agents');
/** Folders of the starter directory that hold no tasks. */
const NOT_TASKS = new Set(['agents', 'worlds']);

export type AgentKind = 'reference' | 'nothing' | 'careless';
const AGENT_KINDS: AgentKind[] = ['reference', 'nothing', 'careless'];

const COMMANDS: Record<AgentKind, string> = {
  reference: `node ${path.join(AGENTS, 'reference.mjs')}`,
  // The shell's `true`: an agent that does nothing, without the cost of starting node 40 times.
  nothing: 'true',
  careless: `node ${path.join(AGENTS, 'reference.mjs')} careless`,
};

/** The suite's task files: every YAML file of its concept folders (or of the folders and files named). */
export function starterTasks(names: string[] = []): string[] {
  const roots = names.length
    ? names.map((n) => path.resolve(n))
    : readdirSync(STARTER_DIR)
        .filter((d) => !NOT_TASKS.has(d))
        .map((d) => path.join(STARTER_DIR, d));
  return roots
    .flatMap((p) =>
      statSync(p).isDirectory()
        ? readdirSync(p)
            .filter((f) => /\.ya?ml$/.test(f))
            .map((f) => path.join(p, f))
        : [p],
    )
    .sort();
}

/** What is wrong with one episode of an agent kind, or nothing. */
function brokenExpectation(kind: AgentKind, r: EpisodeResult): string | undefined {
  const failed = r.checks.filter((c) => !c.pass);
  const collateral = r.checks.filter((c) => c.kind === 'collateral');
  const say = (checks: typeof failed) => checks.map((c) => `${c.name}: ${c.message}`).join('; ');
  if (kind === 'reference')
    return r.passed ? undefined : `failed ${say(failed)}${r.errors.length ? `; ${r.errors.join('; ')}` : ''}`;
  if (kind === 'nothing') return r.passed ? 'passed without doing anything' : undefined;
  if (!collateral.length) return 'has no collateral rule';
  const quiet = collateral.filter((c) => c.pass);
  if (quiet.length) return `the collateral rule did not fire: ${say(quiet)}`;
  const other = failed.filter((c) => c.kind !== 'collateral');
  return other.length ? `failed more than the collateral rule: ${say(other)}` : undefined;
}

export interface StarterOutcome {
  kind: AgentKind;
  summary: RunSummary;
  results: EpisodeResult[];
  /** Task id → what broke its expectation. */
  broken: Record<string, string>;
}

export interface StarterOptions {
  tasks?: string[];
  parallel?: number;
  out?: string;
  kinds?: AgentKind[];
  /** The instances' environment (default: this process's, with a fixed mail domain). */
  env?: Record<string, string | undefined>;
  log?: (line: string) => void;
}

/** Runs the suite with each agent kind over one preparation; the outcomes, with what broke. */
export async function runStarterSuite(opts: StarterOptions = {}): Promise<{
  outcomes: StarterOutcome[];
  timings: { poolStartMs: number; prepareMs: number; totalMs: number; cpuMs: number };
}> {
  const began = performance.now();
  const cpu = process.cpuUsage();
  const tasks = opts.tasks ?? starterTasks();
  const kinds = opts.kinds ?? AGENT_KINDS;
  const out = opts.out ?? path.join(os.tmpdir(), `hamlet-eval-starter-${process.pid}`);
  const log = opts.log ?? (() => {});
  // The tasks name addresses in this domain (mail from bob@mail.test).
  const env = { ...(opts.env ?? process.env), MAIL_DOMAIN: 'mail.test', HAMLET_LOG_LEVEL: 'silent' } as Record<
    string,
    string
  >;
  const services = ['blog', 'mail', 'community', 'home', 'workflow'];
  return withPreparedRun(
    { tasks, parallel: opts.parallel ?? 4, episodes: tasks.length, out, env, services },
    async (run) => {
      log(
        `${run.tasks.length} tasks, ${new Set(run.starts.values()).size} worlds made in ${Math.round(run.timings.prepareMs)} ms, ${run.pool.instances.length} instances started in ${Math.round(run.timings.poolStartMs)} ms`,
      );
      const outcomes: StarterOutcome[] = [];
      for (const kind of kinds) {
        const { summary, results } = await runAgentOver(run, {
          agent: COMMANDS[kind],
          repeat: 1,
          out: path.join(out, kind),
        });
        const broken: Record<string, string> = {};
        for (const r of results) {
          const wrong = brokenExpectation(kind, r);
          if (wrong) broken[r.task] = wrong;
        }
        const t = summary.timings;
        log(
          `${kind}: ${summary.totals.passed}/${summary.totals.episodes} passed, ${Object.keys(broken).length} broke the expectation; episodes ${Math.round(t.episodesMs)} ms, reset mean ${Math.round(t.meanResetMs)} ms (max ${Math.round(t.maxResetMs)} ms); report ${path.join(out, kind, 'report.html')}`,
        );
        for (const [task, why] of Object.entries(broken)) log(`  ${task}: ${why}`);
        outcomes.push({ kind, summary, results, broken });
      }
      // This process's CPU (it serves every instance and every agent's calls); the agents' own is theirs.
      const used = process.cpuUsage(cpu);
      return {
        outcomes,
        timings: { ...run.timings, totalMs: performance.now() - began, cpuMs: (used.user + used.system) / 1000 },
      };
    },
  );
}

function flagsOf(argv: string[]): { parallel?: number; out?: string; kinds?: AgentKind[]; names: string[] } {
  const names: string[] = [];
  const flags: { parallel?: number; out?: string; kinds?: AgentKind[] } = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--parallel') flags.parallel = Number(argv[++i]);
    else if (a === '--out') flags.out = argv[++i];
    else if (a === '--agents') flags.kinds = argv[++i].split(',') as AgentKind[];
    else names.push(a);
  }
  if (flags.parallel !== undefined && !(Number.isSafeInteger(flags.parallel) && flags.parallel >= 1))
    throw new Error('--parallel takes a whole number from 1');
  if (flags.kinds?.some((k) => !AGENT_KINDS.includes(k)))
    throw new Error(`--agents takes some of ${AGENT_KINDS.join(',')}`);
  return { ...flags, names };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { names, ...flags } = flagsOf(process.argv.slice(2));
  const { outcomes, timings } = await runStarterSuite({
    ...flags,
    tasks: starterTasks(names),
    log: (l) => console.log(l),
  });
  const broken = outcomes.reduce((n, o) => n + Object.keys(o.broken).length, 0);
  console.log(
    `${broken ? 'FAILED' : 'ok'}: ${outcomes.map((o) => `${o.kind} ${Object.keys(o.broken).length ? 'broke' : 'met'} its expectation`).join(', ')} (${Math.round(timings.totalMs / 1000)} s, ${Math.round(timings.cpuMs / 1000)} s of CPU in this process)`,
  );
  process.exitCode = broken ? 1 : 0;
}
