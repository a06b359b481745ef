// Compare Datasets: matches input A's items with input B's by fields and sorts them onto four
// outputs: only in A, the same in both, different (with the differing fields side by side),
// only in B. Shapes observed with the oracle (n8n 2.8.4, typeVersion 2.3, default options).
import type { NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { clone, readPath } from './util.js';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export default {
  types: ['n8n-nodes-base.compareDatasets'],
  outputs: () => 4,
  async execute(ctx) {
    const a = ctx.inputs[0] ?? [];
    const b = ctx.inputs[1] ?? [];
    const pairs = (await ctx.param<Array<{ field1: string; field2: string }>>('mergeByFields.values', 0, [])) ?? [];
    const onlyA: Item[] = [];
    const equal: Item[] = [];
    const different: Item[] = [];
    const usedB = new Set<number>();
    a.forEach((itemA, ia) => {
      const keys = pairs.map((p) => readPath(itemA.json, p.field1));
      const ib = keys.some((k) => k === undefined) ? -1 : b.findIndex((itemB, j) => !usedB.has(j) && pairs.every((p, n) => same(keys[n], readPath(itemB.json, p.field2))));
      if (ib < 0) return void onlyA.push({ json: clone(itemA.json), pairedItem: { item: ia, input: 0 } });
      usedB.add(ib);
      const itemB = b[ib]!;
      const paired = [{ item: ia, input: 0 }, { item: ib, input: 1 }];
      if (same(itemA.json, itemB.json) && Object.keys(itemA.json).length === Object.keys(itemB.json).length) {
        return void equal.push({ json: clone(itemA.json), pairedItem: paired });
      }
      const sameFields: Record<string, unknown> = {};
      const diff: Record<string, unknown> = {};
      const names = [...new Set([...Object.keys(itemA.json), ...Object.keys(itemB.json)])];
      for (const k of names) {
        const inA = k in itemA.json;
        const inB = k in itemB.json;
        if (inA && inB && same(itemA.json[k], itemB.json[k])) sameFields[k] = clone(itemA.json[k]);
        else diff[k] = { inputA: inA ? clone(itemA.json[k]) : null, inputB: inB ? clone(itemB.json[k]) : null };
      }
      const keyObject = Object.fromEntries(pairs.map((p, n) => [p.field1, keys[n]]));
      different.push({ json: { keys: keyObject, same: sameFields, different: diff }, pairedItem: paired });
    });
    const onlyB = b.flatMap((itemB, ib) => (usedB.has(ib) ? [] : [{ json: clone(itemB.json), pairedItem: { item: ib, input: 1 } }]));
    return [onlyA, equal, different, onlyB];
  },
} satisfies NodeType;
