// Issue 9: "one source of truth for sandbox state". Random interleavings of expressions (fast
// path and sandbox), Code in all four modes and nested evaluations ($evaluateExpression, from
// an expression and from Code), across several workflows whose data carry distinct markers,
// run concurrently through the worker pool. No run may ever see a marker other than its own.
import { afterAll, describe, expect, it } from 'vitest';
import { createExpressions, type HamletExpressions } from '../../../src/services/workflow/expressions/index.js';
import type { CodeMode } from '../../../src/services/workflow/expressions/code-node.js';
import type { ExpressionData } from '../../../src/services/workflow/expressions/api.js';
import { items, makeData } from './helpers.js';

/** A small deterministic PRNG (mulberry32), so a failure can be replayed from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One workflow's run data: every place a run can read from carries the marker. */
function workflowData(marker: string, itemIndex = 0): ExpressionData {
  const data = makeData({
    input: items({ marker, i: 0 }, { marker, i: 1 }, { marker, i: 2 }),
    itemIndex,
    outputs: { Prev: items({ marker }, { marker }, { marker }) },
    env: { MARKER: marker },
    staticData: { global: { marker }, node: {} },
  });
  return {
    ...data,
    workflow: { id: marker, name: marker, active: true },
    execution: { ...data.execution, id: marker },
  };
}

type Op = (ex: HamletExpressions, data: ExpressionData) => Promise<unknown[]>;

// (Braces split, since the first `}}` would close the template that contains it, as in n8n.)
const NESTED = `$evaluateExpression('{' + '{ $json.marker + "," + $("Prev").first().json.marker }' + '}')`;

const expressionOps: Op[] = [
  // The fast path (main thread).
  async (ex, d) => [await ex.resolve('={{ $json.marker }}', d)],
  // Sandbox: every kind of read, several templates in one resolve() call.
  async (ex, d) => {
    const out = (await ex.resolve(
      {
        a: '={{ [$json.marker, $input.first().json.marker, $("Prev").item.json.marker, $node["Prev"].json.marker, $workflow.name, $execution.id, $env.MARKER].join(",") }}',
        b: [
          '={{ $input.all().map(i => i.json.marker).join(",") }}',
          '={{ $json.marker }}',
          '=x{{ $items("Prev").map(i => i.json.marker).join(",") }}',
        ],
      },
      d,
    )) as { a: string; b: [string, string, string] };
    return [...out.a.split(','), ...out.b[0].split(','), out.b[1], ...out.b[2].slice(1).split(',')];
  },
  // Nested evaluation from an expression.
  async (ex, d) => String(await ex.resolve(`={{ ${NESTED} }}`, d)).split(','),
];

const CODE: Record<CodeMode, string> = {
  runOnceForAllItems: `return [{ json: { seen: [...$input.all().map(i => i.json.marker), ...items.map(i => i.json.marker), $('Prev').first().json.marker, $workflow.name, $env.MARKER, $getWorkflowStaticData('global').marker, ...${NESTED}.split(',')] } }];`,
  runOnceForEachItem: `return { json: { seen: [$json.marker, $input.item.json.marker, $('Prev').item.json.marker, $execution.id, ...${NESTED}.split(',')] } };`,
  functionAllItems: `return [{ json: { seen: items.map(i => i.json.marker).concat([$('Prev').first().json.marker, $workflow.id]) } }];`,
  functionItem: `item.seen = [item.marker, $json.marker, $('Prev').first().json.marker, $workflow.name, ...${NESTED}.split(',')]; return item;`,
};

const codeOps: Op[] = (Object.keys(CODE) as CodeMode[]).map((mode) => async (ex, d) => {
  const out =
    mode === 'runOnceForAllItems' || mode === 'runOnceForEachItem'
      ? await ex.runCode({ code: CODE[mode], mode, data: d })
      : await ex.runFunction({ code: CODE[mode], perItem: mode === 'functionItem', data: d });
  return out.flatMap((item) => item.json.seen as unknown[]);
});

const ops = [...expressionOps, ...codeOps];
const LIMITS = { timeoutMs: 5000, memoryBytes: 64 * 1024 * 1024 };
const instances: HamletExpressions[] = [];
afterAll(() => instances.forEach((ex) => ex.close()));

describe('no run sees another run’s data', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`random interleaving, seed ${seed}`, async () => {
      const next = random(seed);
      // A fresh instance each time, as in a fresh process: run counters (if any) start equal.
      const ex = createExpressions({ ...LIMITS, workers: 1 + (seed % 2) });
      instances.push(ex);
      const markers = ['alpha', 'bravo', 'charlie', 'delta', 'echo'].map((m) => `${m}-${seed}`);
      // Batches of concurrent runs: each picks a workflow, an operation and an item.
      for (let batch = 0; batch < 6; batch++) {
        const runs = Array.from({ length: 1 + Math.floor(next() * 8) }, () => {
          const marker = markers[Math.floor(next() * markers.length)];
          const op = ops[Math.floor(next() * ops.length)];
          const data = workflowData(marker, Math.floor(next() * 3));
          return op(ex, data).then((seen) => ({ marker, seen, op: ops.indexOf(op) }));
        });
        for (const { marker, seen, op } of await Promise.all(runs)) {
          expect(seen.length, `op ${op}`).toBeGreaterThan(0);
          expect(
            seen.filter((value) => value !== marker),
            `op ${op} of ${marker}`,
          ).toEqual([]);
        }
      }
    });
  }

  it('the same holds one run at a time through a single worker (every run reuses one sandbox)', async () => {
    const single = createExpressions({ ...LIMITS, workers: 1 });
    try {
      const next = random(42);
      for (let i = 0; i < 40; i++) {
        const marker = `m${i % 4}`;
        const data = workflowData(marker, i % 3);
        const seen =
          i % 2 === 0
            ? String(
                await single.resolve('={{ [$json.marker, $("Prev").first().json.marker].join(",") }}', data),
              ).split(',')
            : (await single.runCode({ code: 'return $input.all();', mode: 'runOnceForAllItems', data })).map(
                (item) => item.json.marker,
              );
        expect(
          seen.filter((value) => value !== marker),
          `step ${i}`,
        ).toEqual([]);
        next();
      }
    } finally {
      single.close();
    }
  });
});
