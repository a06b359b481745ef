// Trace benchmark (issues 19 and 27): what recording every call costs a cheap read. The blog's
// post list (no key, served from its cache) with HAMLET_TRACE=off, on, and on with the table
// at its HAMLET_TRACE_MAX_ENTRIES cap (every batch then also evicts the oldest entries); and the
// same list called with a 15 KB query string, the hostile case of issue 27 (the trace keeps no
// query values of calls without a key), with the trace off and on (issue 31: on within 5 % of
// off on every row). Each setting runs in its own process, one after another.
import { randomBytes } from 'node:crypto';
import { load, startHamletForBench, type BenchContext } from './lib.js';

const CAP = 10_000;
/** Requests before each row is measured: a fresh process's first seconds (JIT, caches, the trace's writer warming up) are not what a row compares. */
const WARM_UP = 3000;

async function measure(
  ctx: BenchContext,
  env: Record<string, string>,
  rows: Array<{ name: string; query?: string; warmUp?: number }>,
): Promise<void> {
  const hamlet = await startHamletForBench(['blog'], env);
  try {
    const list = `${hamlet.urls['blog api']}/api/posts`;
    for (const row of rows) {
      const url = row.query ? `${list}?${row.query}` : list;
      await load({ url, amount: row.warmUp ?? WARM_UP, duration: 60 });
      ctx.row(row.name, await load({ url }));
    }
  } finally {
    await hamlet.stopAndClean();
  }
}

export default async function traceBench(ctx: BenchContext): Promise<void> {
  const longQuery = `page=1&q=${randomBytes(11_250).toString('base64url')}`;
  await measure(ctx, { HAMLET_TRACE: 'off' }, [
    { name: 'blog post list, HAMLET_TRACE=off' },
    { name: 'blog post list with a 15 KB query string, HAMLET_TRACE=off', query: longQuery },
  ]);
  await measure(ctx, {}, [
    { name: 'blog post list, trace on' },
    { name: 'blog post list with a 15 KB query string, trace on', query: longQuery },
  ]);
  // Filled past the cap first, so every batch measured also deletes as many entries as it adds.
  await measure(ctx, { HAMLET_TRACE_MAX_ENTRIES: String(CAP) }, [
    { name: `blog post list, trace on, table at its cap (${CAP} entries)`, warmUp: CAP * 2 },
  ]);
}
