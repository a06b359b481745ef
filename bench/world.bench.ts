// Worlds (issue 19): `npm run bench -- world`. Generates the large demo world (≥ 100k rows,
// most of them the house's recorded week) in a private instance, then measures, on SQLite,
// what an evaluator waits for between episodes: restoring a snapshot file (decode, verify its
// hash, replace every row, reload the services) and saving one (read every row, hash, encode).
// Target: each < 5 s. Each is run ROUNDS times into a fresh instance's database; the table
// shows the median and the slowest, with the CPU time of the median round (on a shared
// machine the wall time also holds other processes' turns).
// WORLD_BENCH_SIZE=small runs the same on the small world (a quick check of the harness);
// WORLD_BENCH_FILE=<snapshot> measures that snapshot instead of generating one.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configure } from '../src/config.js';
import { SERVICE_NAMES } from '../src/services/registry.js';
import { generateDemoWorld, type DemoSize } from '../src/commands/world-demo.js';
import { decodeWorld, saveWorld } from '../src/console/world/file.js';
import { worldOf } from '../src/console/world/index.js';
import { createLogger } from '../src/platform/logger.js';
import { startHamlet } from '../src/server.js';
import type { BenchContext } from './lib.js';

const size = (process.env.WORLD_BENCH_SIZE ?? 'large') as DemoSize;
const ROUNDS = Number(process.env.WORLD_BENCH_ROUNDS ?? 3);
const TARGET_S = 5;

interface Timing {
  wall: number;
  cpu: number;
}

async function timed<T>(work: () => Promise<T>): Promise<[T, Timing]> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(cpu);
  return [result, { wall: (performance.now() - start) / 1000, cpu: (used.user + used.system) / 1e6 }];
}

const median = (ts: Timing[]): Timing => [...ts].sort((a, b) => a.wall - b.wall)[Math.floor(ts.length / 2)]!;
const slowest = (ts: Timing[]): number => Math.max(...ts.map((t) => t.wall));

export default async function world(_ctx: BenchContext): Promise<void> {
  let file: Buffer;
  let source: string;
  if (process.env.WORLD_BENCH_FILE) {
    file = readFileSync(process.env.WORLD_BENCH_FILE);
    source = `snapshot ${path.basename(process.env.WORLD_BENCH_FILE)}`;
  } else {
    const [state, generated] = await timed(() => generateDemoWorld({ seed: 1, size }));
    file = saveWorld(state, new Date().toISOString()).file;
    source = `${size} demo world, seed 1, generated in ${generated.wall.toFixed(1)} s`;
  }
  const { header } = decodeWorld(file);
  const rows = header.tables.reduce((n, t) => n + t.rows, 0);
  const biggest = [...header.tables].sort((a, b) => b.rows - a.rows)[0]!;

  const restores: Timing[] = [];
  const saves: Timing[] = [];
  let bytes = 0;
  let same = true;
  for (let round = 0; round < ROUNDS; round++) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hamlet-world-bench-'));
    const env = { HAMLET_DATA_DIR: dataDir, HAMLET_SERVICES: SERVICE_NAMES.join(','), HAMLET_CONSOLE: 'off', HAMLET_LOG_LEVEL: 'silent' };
    const { ports } = await configure(env, {});
    const { config, services } = await configure({ ...env, ...Object.fromEntries(ports.map((p) => [p.setting, '0'])) }, {});
    const hamlet = await startHamlet(config, { services, logger: createLogger({ level: 'silent', pretty: false }) });
    try {
      const target = worldOf(hamlet.platform, services);
      // Restore: the file decoded and checked against its hash, every row put back, the services reloaded.
      const [, restore] = await timed(async () => target.restore(decodeWorld(file).state));
      // Save: every row read and sorted, the hash, the gzip'd file.
      const [saved, save] = await timed(async () => saveWorld(await target.read(), new Date().toISOString()));
      restores.push(restore);
      saves.push(save);
      bytes = saved.file.length;
      same &&= saved.header.hash === header.hash;
    } finally {
      await hamlet.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  const line = (step: string, ts: Timing[]) => {
    const m = median(ts);
    return `| ${step} | ${rows} | ${m.wall.toFixed(2)} | ${slowest(ts).toFixed(2)} | ${m.cpu.toFixed(2)} | < ${TARGET_S} s | ${slowest(ts) < TARGET_S ? 'yes' : 'no'} |`;
  };
  console.log(`\n## world (${source}; SQLite)\n`);
  console.log(`${rows} rows in ${header.tables.length} tables (the biggest: ${biggest.name}, ${biggest.rows}); snapshot file ${(bytes / 1e6).toFixed(1)} MB; ${ROUNDS} rounds.\n`);
  console.log('| step | rows | median s | slowest s | CPU s (median) | target | met |\n|---|---:|---:|---:|---:|---|---|');
  console.log(line('restore a snapshot (decode, verify, replace rows, reload)', restores));
  console.log(line('save a snapshot (read, sort, hash, encode)', saves));
  console.log(`\nEvery saved hash equals the restored file's: ${same ? 'yes' : 'NO'}.\n`);
}
