// Worlds (issue 19): `npm run bench -- world`. Generates the large demo world (≥ 100k rows,
// most of them the house's recorded week) in a private instance, then measures, on SQLite,
// what an evaluator waits for between episodes: reading the world and writing its snapshot
// file (save), and reading the file and putting the rows back (restore). Target: each < 5 s.
// WORLD_BENCH_SIZE=small runs the same on the small world (a quick check of the harness);
// WORLD_BENCH_ROWS=N then adds recorded house history to the generated world until it holds N
// rows (the large world's bulk is that history), to measure save and restore at that size
// without waiting for the large world's generation (minutes: one API call per reading).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configure, SERVICE_NAMES } from '../src/config.js';
import { generateDemoWorld, type DemoSize } from '../src/console/world/demo.js';
import { decodeWorld, encodeWorld, headerOf } from '../src/console/world/file.js';
import { worldOf } from '../src/console/world/index.js';
import { createLogger } from '../src/platform/logger.js';
import { startHamlet } from '../src/server.js';
import { sortRows } from '../src/console/world/canonical.js';
import type { WorldState } from '../src/console/world/state.js';
import type { BenchContext } from './lib.js';

const size = (process.env.WORLD_BENCH_SIZE ?? 'large') as DemoSize;

/** Repeats the recorded sensor history a week further on each round until the world holds `target` rows. */
function padHistory(state: WorldState, target: number): void {
  const history = state.tables.find((t) => t.rows.some((r) => typeof r.last_updated_ts === 'number' && typeof r.entity_id === 'string'));
  if (!history) return;
  const original = [...history.rows];
  const week = 7 * 86_400;
  for (let round = 1; state.tables.reduce((n, t) => n + t.rows.length, 0) < target; round++) {
    for (const r of original) history.rows.push({ ...r, last_changed_ts: Number(r.last_changed_ts) + round * week, last_updated_ts: Number(r.last_updated_ts) + round * week });
  }
  // A state's rows are in key order (its hash depends on it).
  sortRows(history.rows, history.key);
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await work();
  return [result, (performance.now() - start) / 1000];
}

export default async function world(_ctx: BenchContext): Promise<void> {
  const [state, generateS] = await timed(() => generateDemoWorld({ seed: 1, size }));
  padHistory(state, Number(process.env.WORLD_BENCH_ROWS ?? 0));
  const rows = state.tables.reduce((n, t) => n + t.rows.length, 0);

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hamlet-world-bench-'));
  const env = { HAMLET_DATA_DIR: dataDir, HAMLET_SERVICES: SERVICE_NAMES.join(','), HAMLET_CONSOLE: 'off', HAMLET_LOG_LEVEL: 'silent' };
  const { ports } = await configure(env, {});
  const { config, services } = await configure({ ...env, ...Object.fromEntries(ports.map((p) => [p.setting, '0'])) }, {});
  const hamlet = await startHamlet(config, { services, logger: createLogger({ level: 'silent', pretty: false }) });
  try {
    const target = worldOf(hamlet.platform, services);
    const file = encodeWorld(state, headerOf(state, new Date().toISOString()));
    // Restore: the file decoded and checked against its hash, every row put back, the services reloaded.
    const [, restoreS] = await timed(async () => target.restore(decodeWorld(file).state));
    // Save: every row read and sorted, the hash, the gzip'd file.
    const [saved, saveS] = await timed(async () => {
      const now = await target.read();
      return encodeWorld(now, headerOf(now, new Date().toISOString()));
    });
    const same = decodeWorld(saved).header.hash === decodeWorld(file).header.hash;
    console.log(`\n## world (${size} demo world, SQLite)\n`);
    console.log('| step | seconds | target |\n|---|---|---|');
    console.log(`| generate (through the services' APIs${process.env.WORLD_BENCH_ROWS ? ', then padded with house history' : ''}: ${rows} rows) | ${generateS.toFixed(1)} | none |`);
    console.log(`| restore (decode, verify, write, reload) | ${restoreS.toFixed(2)} | < 5 |`);
    console.log(`| save (read, hash, encode: ${(saved.length / 1e6).toFixed(1)} MB) | ${saveS.toFixed(2)} | < 5 |`);
    console.log(`\nSaved hash equals the restored file's: ${same ? 'yes' : 'NO'}.\n`);
  } finally {
    await hamlet.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
