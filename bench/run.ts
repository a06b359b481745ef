// `npm run bench [-- blog mail … soak]`: runs each service's benchmark next to a bare Fastify
// handler measured in the same run, and prints one markdown table per service; `soak` is the
// two-minute mixed-load scenario of all services under hostile clients (bench/soak.bench.ts).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { formatTable, load, ROOT, startBaseline, type BenchContext, type Row } from './lib.js';

const wanted = process.argv.slice(2);
const available = readdirSync(path.join(ROOT, 'bench'))
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace('.bench.ts', ''));
const selected = wanted.length ? wanted.filter((w) => available.includes(w)) : available;

for (const name of selected) {
  const baseline = await startBaseline();
  const measureBaseline = async () => (await load({ url: baseline.url })).rps;
  const before = await measureBaseline();
  const rows: Row[] = [];
  const ctx: BenchContext = {
    baselineRps: before,
    baselineUrl: baseline.url,
    row: (n, r, target, note, base) => {
      rows.push({ name: n, rps: r.rps, p99: r.p99, target, note, baseline: base });
      console.error(`  ${n}: ${Math.round(r.rps)} req/s, p99 ${r.p99} ms`);
    },
  };
  console.error(`# ${name} (baseline ${Math.round(before)} req/s)`);
  const mod = await import(`./${name}.bench.ts`);
  await mod.default(ctx);
  // The machine is shared and noisy: measure the ceiling again and compare with the mean.
  const after = await measureBaseline();
  baseline.stop();
  const mean = (before + after) / 2;
  // A scenario with no throughput rows (the soak) prints its own table.
  if (rows.length)
    console.log(
      `\n## ${name}\n\nBaseline before/after: ${Math.round(before)} / ${Math.round(after)} req/s.\n\n${formatTable(mean, rows)}\n`,
    );
  else
    console.log(
      `Baseline before/after the ${name} run: ${Math.round(before)} / ${Math.round(after)} req/s (how busy the machine was).\n`,
    );
}
