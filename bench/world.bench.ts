// Worlds (issue 19): `npm run bench -- world`. Generates the large demo world (≥ 100k rows,
// most of them the house's recorded week) in a private instance, then measures, on SQLite,
// what an evaluator waits for between episodes: reading the world and writing its snapshot
// file (save), and reading the file and putting the rows back (restore). Target: each < 5 s.
// WORLD_BENCH_SIZE=small runs the same on the small world (a quick check of the harness).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configure, SERVICE_NAMES } from '../src/config.js';
import { generateDemoWorld, type DemoSize } from '../src/console/world/demo.js';
import { decodeWorld, encodeWorld, headerOf } from '../src/console/world/file.js';
import { worldOf } from '../src/console/world/index.js';
import { createLogger } from '../src/platform/logger.js';
import { startHamlet } from '../src/server.js';
import type { BenchContext } from './lib.js';

const size = (process.env.WORLD_BENCH_SIZE ?? 'large') as DemoSize;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await work();
  return [result, (performance.now() - start) / 1000];
}

export default async function world(_ctx: BenchContext): Promise<void> {
  const [state, generateS] = await timed(() => generateDemoWorld({ seed: 1, size }));
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
    console.log(`| generate (${rows} rows, through the services' APIs) | ${generateS.toFixed(1)} | none |`);
    console.log(`| restore (decode, verify, write, reload) | ${restoreS.toFixed(2)} | < 5 |`);
    console.log(`| save (read, hash, encode: ${(saved.length / 1e6).toFixed(1)} MB) | ${saveS.toFixed(2)} | < 5 |`);
    console.log(`\nSaved hash equals the restored file's: ${same ? 'yes' : 'NO'}.\n`);
  } finally {
    await hamlet.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
