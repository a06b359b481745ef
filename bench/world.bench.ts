// Worlds (issue 19): `npm run bench -- world`. Generates the large demo world (≥ 100k rows,
// most of them the house's recorded week) in a private instance, then measures, on SQLite,
// what an evaluator waits for between episodes, on the paths the admin API takes (issue 27):
// restoring a snapshot file (read as a stream under the limits, verified, every row replaced,
// the services reloaded) and saving one (on the world worker: every table read in key order
// from its own connection, hashed, gzip'd). Target: each < 5 s. A diff of the file against the
// world now (saving now, then comparing every row) is measured beside them, with no target. Each is run ROUNDS times into a fresh instance's database; the table
// shows the median and the slowest, with the CPU time of the median round (on a shared
// machine the wall time also holds other processes' turns).
// WORLD_BENCH_SIZE=small runs the same on the small world (a quick check of the harness);
// WORLD_BENCH_FILE=<snapshot> measures that snapshot instead of generating one.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configure } from '../src/config.js';
import { SERVICE_NAMES } from '../src/services/registry.js';
import { generateDemoWorld, type DemoSize } from '../src/demo/world-demo.js';
import { decodeWorld, decodeWorldFile, saveWorld, type WorldHeader } from '../src/console/world/file.js';
import { worldOf } from '../src/console/world/index.js';
import { WORLD_DEFAULTS } from '../src/console/world/settings.js';
import { WorldWorker } from '../src/console/world/worker-client.js';
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

const median = (ts: Timing[]): Timing => [...ts].sort((a, b) => a.wall - b.wall)[Math.floor(ts.length / 2)];
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
  const biggest = [...header.tables].sort((a, b) => b.rows - a.rows)[0];

  const restores: Timing[] = [];
  const saves: Timing[] = [];
  const diffs: Timing[] = [];
  let bytes = 0;
  let same = true;
  let unchanged = true;
  const worker = new WorldWorker();
  // The worker starts once per console: started (and the file checked on it) before the rounds.
  const warm = mkdtempSync(path.join(os.tmpdir(), 'hamlet-world-bench-'));
  writeFileSync(path.join(warm, 'snapshot.jsonl.gz'), file);
  await worker.run({ kind: 'verify', file: path.join(warm, 'snapshot.jsonl.gz'), limits: WORLD_DEFAULTS });
  rmSync(warm, { recursive: true, force: true });
  for (let round = 0; round < ROUNDS; round++) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hamlet-world-bench-'));
    const snapshot = path.join(dataDir, 'snapshot.jsonl.gz');
    writeFileSync(snapshot, file);
    const env = {
      HAMLET_DATA_DIR: dataDir,
      HAMLET_SERVICES: SERVICE_NAMES.join(','),
      HAMLET_CONSOLE: 'off',
      HAMLET_LOG_LEVEL: 'silent',
    };
    const { ports } = await configure(env, {});
    const { config, services } = await configure(
      { ...env, ...Object.fromEntries(ports.map((p) => [p.setting, '0'])) },
      {},
    );
    const hamlet = await startHamlet(config, { services, logger: createLogger({ level: 'silent', pretty: false }) });
    try {
      const target = worldOf(hamlet.platform, services);
      // Restore: the file read as a stream and checked against its hash, every row put back, the services reloaded.
      const [, restore] = await timed(async () =>
        target.restore((await decodeWorldFile(snapshot, WORLD_DEFAULTS)).state),
      );
      // Save: on the world worker, every table read in key order, the hash, the gzip'd file.
      const out = path.join(dataDir, 'saved.jsonl.gz');
      const [saved, save] = await timed(async () =>
        worker.run<WorldHeader>({ kind: 'save', ...(await target.saveTask(new Date().toISOString())), out }),
      );
      // Diff: the world now saved, then every row of the two files compared (one page: nothing changed).
      const now = path.join(dataDir, 'now.jsonl.gz');
      const [page, diff] = await timed(async () => {
        await worker.run<WorldHeader>({ kind: 'save', ...(await target.saveTask(new Date().toISOString())), out: now });
        const refs = { from: '0000000000000000', to: '0000000000000001' };
        return JSON.parse(
          await worker.run<string>({
            kind: 'diff',
            from: snapshot,
            to: now,
            labels: refs,
            refs,
            limit: WORLD_DEFAULTS.diffPage,
            pageBytes: WORLD_DEFAULTS.diffPageBytes,
            limits: WORLD_DEFAULTS,
          }),
        );
      });
      restores.push(restore);
      saves.push(save);
      diffs.push(diff);
      bytes = readFileSync(out).length;
      same &&= saved.hash === header.hash;
      unchanged &&=
        !page.next &&
        Object.values(page.services as Record<string, Record<string, unknown[]>>).every(
          (c) => !c.added.length && !c.changed.length && !c.removed.length,
        );
    } finally {
      await hamlet.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  await worker.close();

  const line = (step: string, ts: Timing[], target = true) => {
    const m = median(ts);
    const goal = target ? `< ${TARGET_S} s | ${slowest(ts) < TARGET_S ? 'yes' : 'no'}` : '— | —';
    return `| ${step} | ${rows} | ${m.wall.toFixed(2)} | ${slowest(ts).toFixed(2)} | ${m.cpu.toFixed(2)} | ${goal} |`;
  };
  console.log(`\n## world (${source}; SQLite)\n`);
  console.log(
    `${rows} rows in ${header.tables.length} tables (the biggest: ${biggest.name}, ${biggest.rows}); snapshot file ${(bytes / 1e6).toFixed(1)} MB; ${ROUNDS} rounds.\n`,
  );
  console.log(
    '| step | rows | median s | slowest s | CPU s (median) | target | met |\n|---|---:|---:|---:|---:|---|---|',
  );
  console.log(line('restore a snapshot (stream-decode, verify, replace rows, reload)', restores));
  console.log(line('save a snapshot (worker: read in key order, hash, gzip)', saves));
  console.log(line('diff against now (worker: save now, compare every row)', diffs, false));
  console.log(
    `\nEvery saved hash equals the restored file's: ${same ? 'yes' : 'NO'}. Every diff found nothing changed: ${unchanged ? 'yes' : 'NO'}.`,
  );
  console.log(
    'CPU s is the whole process, the world worker included (the save and the diff run there, off the event loop).\n',
  );
}
