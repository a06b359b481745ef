// Trace benchmark (issues 19 and 27): what recording every call costs a cheap read. The blog's
// post list (no key, served from its cache) with HAMLET_TRACE=off, on, and on with the table
// at its HAMLET_TRACE_MAX_ENTRIES cap (every batch then also evicts the oldest entries); and the
// same list called with a 15 KB query string, the hostile case of issue 27 (the trace keeps no
// query values of calls without a key), with the trace off and on (issue 31: on within 5 % of
// off on every row).
//
// Each setting runs in its own process beside the one with the trace off; they take turns under
// load a second at a time (takeTurns), and the rows with the trace on are compared with the same
// list with it off. That is done in several rounds, each with new processes, and every row is the median of
// its rounds: on these shared two-core machines two processes of the very same build and
// settings, started a second apart, were measured 25–30 % apart for their whole life (user and
// kernel time per request alike, so not the code), which one process per setting would put
// straight into the comparison.
import { randomBytes } from 'node:crypto';
import { load, loadWithWrk, startHamletForBench, type BenchContext } from './lib.js';

const CAP = 10_000;
/** Seconds of load before each server is measured: a fresh process's first seconds (JIT, caches, the trace's writer warming up) are not what a row compares. */
const WARM_UP_SECONDS = 3;
/** Rounds, each with new processes; every row is the median of its rounds. */
const ROUNDS = Number(process.env.TRACE_BENCH_ROUNDS ?? 5);
/**
 * One-second slices per server and row. The servers being compared run side by side and take
 * turns, a slice each in a rotating order, so the machine's drift (on a shared VM, the same
 * server measured twice five seconds apart differed by a third) falls on every setting alike.
 */
const SLICES = Number(process.env.TRACE_BENCH_SLICES ?? 6);
const SLICE_SECONDS = 1;

type Result = Awaited<ReturnType<typeof load>>;

/**
 * One slice of load. With Debian's wrk installed it makes the load: autocannon, JavaScript on one
 * core, needs about as much CPU per request as the server, and on two cores it shares them with
 * the server's threads; wrk needs a fraction of that, so the rows measure the server.
 */
async function slice(url: string): Promise<Result> {
  const wrk = await loadWithWrk({ url, duration: SLICE_SECONDS });
  return wrk ? { ...wrk, errors: 0, non2xx: 0 } : load({ url, duration: SLICE_SECONDS });
}

/** Every server's rate over its slices (their requests over their time) and its median p99. */
async function takeTurns(urls: string[]): Promise<Result[]> {
  const slices: Result[][] = urls.map(() => []);
  for (let turn = 0; turn < SLICES; turn++)
    for (let k = 0; k < urls.length; k++) {
      const which = (turn + k) % urls.length; // the order rotates, so no server always goes first
      slices[which].push(await slice(urls[which]));
    }
  return slices.map((list) => {
    const p99s = list.map((r) => r.p99).sort((a, b) => a - b);
    return {
      rps: list.reduce((sum, r) => sum + r.rps, 0) / list.length,
      p99: p99s[Math.floor(p99s.length / 2)],
      errors: list.reduce((sum, r) => sum + r.errors, 0),
      non2xx: list.reduce((sum, r) => sum + r.non2xx, 0),
    };
  });
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The median of each field over the rounds (errors: their sum). */
function medianOf(results: Result[]): Result {
  return {
    rps: median(results.map((r) => r.rps)),
    p99: median(results.map((r) => r.p99)),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

/**
 * One round, with new processes: the trace off and on, warmed up and measured taking turns on
 * both lists; then the server with the trace on leaves and one at the cap takes its place beside
 * the same server with the trace off. Never more than two servers at once: with three running,
 * the third one started was the slow one (see above) in every round measured.
 */
async function round(longQuery: string): Promise<{ list: Result[]; long: Result[]; capped: Result[] }> {
  const list = (h: Server) => `${h.urls['blog api']}/api/posts`;
  const long = (h: Server) => `${list(h)}?${longQuery}`;
  const warmUp = async (h: Server) => {
    await load({ url: long(h), duration: 1 });
    await load({ url: list(h), duration: WARM_UP_SECONDS });
  };
  const off = await startHamletForBench(['blog'], { HAMLET_TRACE: 'off' });
  const started: Server[] = [off];
  try {
    const on = await startHamletForBench(['blog'], {});
    started.push(on);
    for (const h of [off, on]) await warmUp(h);
    const listed = await takeTurns([list(off), list(on)]);
    const longs = await takeTurns([long(off), long(on)]);
    await on.stopAndClean();
    started.pop();
    const capped = await startHamletForBench(['blog'], { HAMLET_TRACE_MAX_ENTRIES: String(CAP) });
    started.push(capped);
    await warmUp(capped);
    // Filled past the cap first, so every batch measured also deletes as many entries as it adds.
    await load({ url: list(capped), amount: CAP * 2, duration: 60 });
    return { list: listed, long: longs, capped: await takeTurns([list(off), list(capped)]) };
  } finally {
    await Promise.all(started.map((h) => h.stopAndClean()));
  }
}

type Server = Awaited<ReturnType<typeof startHamletForBench>>;

export default async function traceBench(ctx: BenchContext): Promise<void> {
  const longQuery = `page=1&q=${randomBytes(11_250).toString('base64url')}`;
  const LIST = 'blog post list';
  const LONG = 'blog post list with a 15 KB query string';
  const CAPPED = `blog post list, table at its cap (${CAP} entries)`;
  const rounds: Array<Awaited<ReturnType<typeof round>>> = [];
  for (let r = 0; r < ROUNDS; r++) rounds.push(await round(longQuery));
  // A setting's rate is the median over the rounds; its ratio to the trace off is the median of
  // each round's own ratio (the two measured in the same turns), not a ratio of two medians that
  // may come from different rounds.
  const pair = (of: (r: (typeof rounds)[number]) => Result[]) => {
    const [off, on] = [0, 1].map((i) => medianOf(rounds.map((r) => of(r)[i])));
    const ratio = median(rounds.map((r) => of(r)[1].rps / of(r)[0].rps));
    return { off, on, versus: on.rps / ratio };
  };
  const list = pair((r) => r.list);
  const long = pair((r) => r.long);
  const capped = pair((r) => r.capped);
  const note = `median of ${ROUNDS} rounds of new processes, each ${SLICES} slices of ${SLICE_SECONDS} s taking turns`;
  ctx.row(`${LIST}, HAMLET_TRACE=off (${note})`, list.off);
  ctx.row(`${LONG}, HAMLET_TRACE=off`, long.off);
  // The trace's rows against the same list with the trace off (target: within 5 %); `versus` is
  // the off rate that makes the table's percentage the median of the rounds' ratios.
  ctx.row(`${LIST}, trace on`, list.on, { ratio: 0.95 }, 'vs the trace off, median of the rounds', list.versus);
  ctx.row(`${LONG}, trace on`, long.on, { ratio: 0.95 }, 'vs the trace off, median of the rounds', long.versus);
  ctx.row(
    `${CAPPED}, trace on`,
    capped.on,
    { ratio: 0.95 },
    'vs the list with the trace off, median of the rounds',
    capped.versus,
  );
  // Each round's ratios, for the reader who wants to see the spread behind the medians.
  for (const [i, r] of rounds.entries())
    console.log(
      `  round ${i + 1}: list on ${pct(r.list[1], r.list[0])}, long on ${pct(r.long[1], r.long[0])}, capped ${pct(r.capped[1], r.capped[0])} of off`,
    );
}

const pct = (a: Result, b: Result) => `${Math.round((100 * a.rps) / b.rps)} %`;
