// An evaluation episode's reset (issue 31): `npm run bench -- episode`. One warm instance of
// `hamlet eval run`'s pool (every service, data in /dev/shm when roomy, as episodes run), the
// small demo world (seed 1) generated once, then ROUNDS resets exactly as an episode makes them:
// wait for the previous episode's queued work, restore the world (rows, keys, clock, every
// service's reload, a new trace epoch). Between resets a little of what an agent does (a mail
// sent, a light switched), so each restore has something to undo. Target: median under 150 ms.
import { SERVICE_NAMES } from '../src/services/registry.js';
import { generateDemoWorld } from '../src/demo/world-demo.js';
import { InstancePool } from '../src/eval/pool.js';
import type { BenchContext } from './lib.js';

const ROUNDS = Number(process.env.EPISODE_BENCH_ROUNDS ?? 20);
const TARGET_MS = 150;

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

export default async function episode(_ctx: BenchContext): Promise<void> {
  const state = await generateDemoWorld({ seed: 1, size: 'small' });
  const rows = state.tables.reduce((n, t) => n + t.rows.length, 0);
  const pool = await InstancePool.start(1, { ...process.env, HAMLET_LOG_LEVEL: 'warn' }, [...SERVICE_NAMES]);
  const instance = pool.instances[0];
  const { platform } = instance.hamlet;
  const homeKey = (await platform.keys.create('home')).key;
  const walls: number[] = [];
  const cpus: number[] = [];
  try {
    for (let i = 0; i < ROUNDS + 2; i++) {
      // What an agent leaves behind: a light switched (a state row, events, the recorder).
      await fetch(`${instance.urls.home.api}/api/services/light/toggle`, {
        method: 'POST',
        headers: { authorization: `Bearer ${homeKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ entity_id: 'light.kitchen' }),
      });
      const cpu = process.cpuUsage();
      const started = performance.now();
      await platform.jobs.idle(undefined, 60_000);
      await instance.world.restore(state);
      const wall = performance.now() - started;
      const used = process.cpuUsage(cpu);
      // The first two warm the reload paths up (an episode's first reset is also its pool's).
      if (i < 2) continue;
      walls.push(wall);
      cpus.push((used.user + used.system) / 1000);
    }
  } finally {
    await pool.stop();
  }
  const median = percentile(walls, 50);
  console.log(`
## episode (small demo world, seed 1: ${rows} rows in ${state.tables.length} tables; one warm instance)

| step | rounds | min ms | median ms | p90 ms | median CPU ms | target | met |
|---|---:|---:|---:|---:|---:|---|---|
| reset: queued work done, world restored, services reloaded | ${ROUNDS} | ${Math.min(...walls).toFixed(0)} | ${median.toFixed(0)} | ${percentile(walls, 90).toFixed(0)} | ${percentile(cpus, 50).toFixed(0)} | < ${TARGET_MS} ms | ${median < TARGET_MS ? 'yes' : 'no'} |
`);
}
