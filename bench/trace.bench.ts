// Trace benchmark (issues 19 and 27): what recording every call costs a cheap read. The blog's
// post list (no key, served from its cache) with HAMLET_TRACE=off, on, and on with the table
// at its HAMLET_TRACE_MAX_ENTRIES cap (every batch then also evicts the oldest entries); and the
// same list called with a 15 KB query string, the hostile case of issue 27 (the trace keeps no
// query values of calls without a key), with the trace off and on (issue 31: on within 5 % of
// off on every row). Each setting runs in its own process, all three at once; they take turns
// under load a second at a time (takeTurns), and the rows with the trace on are compared with the
// same list with it off.
import { randomBytes } from 'node:crypto';
import { load, loadWithWrk, startHamletForBench, type BenchContext } from './lib.js';

const CAP = 10_000;
/** Requests before each server is measured: a fresh process's first seconds (JIT, caches, the trace's writer warming up) are not what a row compares. */
const WARM_UP = 3000;
/**
 * One-second slices per server and row. The servers being compared run side by side and take
 * turns, a slice each in a rotating order, so the machine's drift (on a shared VM, the same
 * server measured twice five seconds apart differed by a third) falls on every setting alike.
 */
const SLICES = Number(process.env.TRACE_BENCH_SLICES ?? 12);
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

export default async function traceBench(ctx: BenchContext): Promise<void> {
  const longQuery = `page=1&q=${randomBytes(11_250).toString('base64url')}`;
  const LIST = 'blog post list';
  const LONG = 'blog post list with a 15 KB query string';
  const CAPPED = `blog post list, table at its cap (${CAP} entries)`;
  const off = await startHamletForBench(['blog'], { HAMLET_TRACE: 'off' });
  const on = await startHamletForBench(['blog'], {});
  const capped = await startHamletForBench(['blog'], { HAMLET_TRACE_MAX_ENTRIES: String(CAP) });
  try {
    const list = (h: typeof off) => `${h.urls['blog api']}/api/posts`;
    const long = (h: typeof off) => `${list(h)}?${longQuery}`;
    for (const h of [off, on]) {
      await load({ url: list(h), amount: WARM_UP, duration: 60 });
      await load({ url: long(h), amount: WARM_UP, duration: 60 });
    }
    // Filled past the cap first, so every batch measured also deletes as many entries as it adds.
    await load({ url: list(capped), amount: CAP * 2, duration: 60 });
    const [listOff, listOn, listCapped] = await takeTurns([list(off), list(on), list(capped)]);
    const [longOff, longOn] = await takeTurns([long(off), long(on)]);
    const note = `${SLICES} slices of ${SLICE_SECONDS} s each, taking turns`;
    ctx.row(`${LIST}, HAMLET_TRACE=off (${note})`, listOff);
    ctx.row(`${LONG}, HAMLET_TRACE=off`, longOff);
    // The trace's rows against the same list with the trace off, measured in the same turns (target: within 5 %).
    ctx.row(`${LIST}, trace on`, listOn, { ratio: 0.95 }, 'vs the trace off', listOff.rps);
    ctx.row(`${LONG}, trace on`, longOn, { ratio: 0.95 }, 'vs the trace off', longOff.rps);
    ctx.row(`${CAPPED}, trace on`, listCapped, { ratio: 0.95 }, 'vs the list with the trace off', listOff.rps);
  } finally {
    await Promise.all([off, on, capped].map((h) => h.stopAndClean()));
  }
}
