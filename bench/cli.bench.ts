// The command line (issues 30 and 31): `npm run bench -- cli`. What a person or an evaluation
// harness waits for each time it calls `hamlet`: `--version` and `keys create mail` (target:
// under 0.3 s each) and `hamlet start` until every service and the console answer /healthz
// (target: under 1.5 s), on a fresh data folder and again on one that holds a migrated database.
// Each runs the built CLI (`dist/cli.js`, what `npx hamlet` runs in an installed package) ROUNDS
// times as a child process; the table shows the median and the slowest wall time, the median
// CPU time of the command where it ends on its own, and bare Node (`node -e 0`) measured in the
// same run, since on a shared machine wall time also holds other processes' turns.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { distIsCurrent } from '../scripts/dist-current.mjs';
import { ANY_FREE_PORT } from '../test/helpers/ports.js';
import { ROOT, type BenchContext } from './lib.js';

const ROUNDS = Number(process.env.CLI_BENCH_ROUNDS ?? 10);
const CLI = path.join(ROOT, 'dist/cli.js');
interface Sample {
  wall: number;
  /** CPU seconds of the child (user + system), when it ended on its own. */
  cpu?: number;
}

/** Runs a command that ends on its own; its wall and CPU time from the kernel's accounting. */
function timedRun(args: string[], env: NodeJS.ProcessEnv): Sample {
  const started = performance.now();
  const result = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, ...args], { env, encoding: 'utf8' });
  const wall = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  const [user, system] = result.stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
  return { wall, cpu: user + system };
}

/** `hamlet start` until every URL it prints answers /healthz with 200; then SIGTERM. */
async function timedStart(dataDir: string): Promise<Sample> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, 'start'], {
    env: { ...process.env, ...ANY_FREE_PORT, HAMLET_DATA_DIR: dataDir, HAMLET_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    // The start banner prints one "<name> <label> <url>" line per listener, then a blank line.
    const urls = await new Promise<string[]>((resolve, reject) => {
      const check = () => {
        const lines = [...out.matchAll(/^(\w+)\s+(api|web)\s+(http\S+)$/gm)].map((m) => m[3]);
        if (lines.length >= 6) resolve(lines);
      };
      child.stdout.on('data', check);
      void exited.then((code) => reject(new Error(`hamlet start exited with ${code}:\n${out}`)));
    });
    await Promise.all(urls.map((url) => untilHealthy(url)));
    return { wall: (performance.now() - started) / 1000 };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

async function untilHealthy(base: string): Promise<void> {
  for (;;) {
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default async function cli(_ctx: BenchContext): Promise<void> {
  if (!distIsCurrent(ROOT)) throw new Error('dist/ is older than the sources: `npm run build` first');
  const dirs: string[] = [];
  const fresh = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hamlet-cli-bench-'));
    dirs.push(dir);
    return dir;
  };
  const migrated = fresh();
  const envFor = (dir: string) => ({ ...process.env, HAMLET_DATA_DIR: dir, HAMLET_LOG_LEVEL: 'warn' });
  timedRun([CLI, 'keys', 'create', 'mail'], envFor(migrated)); // makes and migrates the database once

  const scenarios: Array<{ name: string; target?: number; run: () => Sample | Promise<Sample> }> = [
    { name: 'bare Node (`node -e 0`, same run)', run: () => timedRun(['-e', '0'], process.env) },
    { name: '`hamlet --version`', target: 0.3, run: () => timedRun([CLI, '--version'], process.env) },
    {
      name: '`hamlet keys create mail` (database already migrated)',
      target: 0.3,
      run: () => timedRun([CLI, 'keys', 'create', 'mail'], envFor(migrated)),
    },
    {
      name: '`hamlet start` until every service and the console answer, fresh data folder',
      target: 1.5,
      run: () => timedStart(fresh()),
    },
    {
      name: '`hamlet start` until every service and the console answer, database already there',
      target: 1.5,
      run: () => timedStart(migrated),
    },
  ];

  const lines = [
    '| command | rounds | median wall s | slowest s | median CPU s | target | met |',
    '|---|---:|---:|---:|---:|---|---|',
  ];
  try {
    for (const s of scenarios) {
      const samples: Sample[] = [];
      for (let i = 0; i < ROUNDS; i++) samples.push(await s.run());
      const walls = samples.map((x) => x.wall);
      const cpus = samples.flatMap((x) => (x.cpu === undefined ? [] : [x.cpu]));
      const mid = median(walls);
      console.error(`  ${s.name}: median ${mid.toFixed(3)} s`);
      lines.push(
        `| ${s.name} | ${ROUNDS} | ${mid.toFixed(2)} | ${Math.max(...walls).toFixed(2)} | ${cpus.length ? median(cpus).toFixed(2) : '—'} | ${s.target ? `< ${s.target} s` : ''} | ${s.target ? (mid < s.target ? 'yes' : 'no') : ''} |`,
      );
    }
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\n## cli (the built CLI, ${ROUNDS} rounds each)\n\n${lines.join('\n')}\n`);
}
