// Trace benchmark (issues 19 and 27): what recording every call costs a cheap read. The blog's
// post list (no key, served from its cache) with HAMLET_TRACE=off, on, and on with the table
// at its HAMLET_TRACE_MAX_ENTRIES cap (every batch then also evicts the oldest entries); and the
// same list called with a 15 KB query string, the hostile case of issue 27 (the trace keeps no
// query values of calls without a key), with the trace off and on (issue 31: on within 5 % of
// off on every row). Each setting runs in its own process, and the settings alternate
// TRACE_BENCH_ROUNDS times (default 3); each row is the median of its processes, and the rows
// with the trace on are compared with the same list with it off.
import { randomBytes } from 'node:crypto';
import { load, startHamletForBench, type BenchContext } from './lib.js';

const CAP = 10_000;
/** Requests before each row is measured: a fresh process's first seconds (JIT, caches, the trace's writer warming up) are not what a row compares. */
const WARM_UP = 3000;

/** Processes per setting, alternating off / on / at the cap: on a shared machine one process's luck is not the setting's cost. */
const ROUNDS = Number(process.env.TRACE_BENCH_ROUNDS ?? 3);

type Result = Awaited<ReturnType<typeof load>>;

async function measure(
  env: Record<string, string>,
  rows: Array<{ name: string; query?: string; warmUp?: number }>,
  record: (name: string, result: Result) => void,
): Promise<void> {
  const hamlet = await startHamletForBench(['blog'], env);
  try {
    const list = `${hamlet.urls['blog api']}/api/posts`;
    for (const row of rows) {
      const url = row.query ? `${list}?${row.query}` : list;
      await load({ url, amount: row.warmUp ?? WARM_UP, duration: 60 });
      record(row.name, await load({ url }));
    }
  } finally {
    await hamlet.stopAndClean();
  }
}

/** The run whose rate is the median of a row's rounds. */
function median(results: Result[]): Result {
  return [...results].sort((a, b) => a.rps - b.rps)[Math.floor((results.length - 1) / 2)];
}

export default async function traceBench(ctx: BenchContext): Promise<void> {
  const longQuery = `page=1&q=${randomBytes(11_250).toString('base64url')}`;
  const LIST = 'blog post list';
  const LONG = 'blog post list with a 15 KB query string';
  const CAPPED = `blog post list, table at its cap (${CAP} entries)`;
  const settings: Array<{
    trace: string;
    env: Record<string, string>;
    rows: Array<{ name: string; query?: string; warmUp?: number }>;
  }> = [
    { trace: 'off', env: { HAMLET_TRACE: 'off' }, rows: [{ name: LIST }, { name: LONG, query: longQuery }] },
    { trace: 'on', env: {}, rows: [{ name: LIST }, { name: LONG, query: longQuery }] },
    // Filled past the cap first, so every batch measured also deletes as many entries as it adds.
    { trace: 'on', env: { HAMLET_TRACE_MAX_ENTRIES: String(CAP) }, rows: [{ name: CAPPED, warmUp: CAP * 2 }] },
  ];
  const results = new Map<string, Result[]>();
  for (let round = 0; round < ROUNDS; round++)
    for (const setting of settings)
      await measure(setting.env, setting.rows, (name, result) => {
        const key = `${name}|${setting.trace}`;
        console.log(`  round ${round + 1}, trace ${setting.trace}: ${name}: ${Math.round(result.rps)} req/s`);
        results.set(key, [...(results.get(key) ?? []), result]);
      });
  const off = (name: string) => median(results.get(`${name}|off`)!);
  // Each row: the median of its rounds; the trace's rows are compared with the same list with the trace off (target: within 5 %).
  ctx.row(`${LIST}, HAMLET_TRACE=off (median of ${ROUNDS} processes)`, off(LIST));
  ctx.row(`${LONG}, HAMLET_TRACE=off`, off(LONG));
  const on = (row: string, name: string, against: string, note: string) =>
    ctx.row(row, median(results.get(`${name}|on`)!), { ratio: 0.95 }, note, off(against).rps);
  on(`${LIST}, trace on`, LIST, LIST, 'vs the trace off');
  on(`${LONG}, trace on`, LONG, LONG, 'vs the trace off');
  on(`${CAPPED}, trace on`, CAPPED, LIST, 'vs the list with the trace off');
}
