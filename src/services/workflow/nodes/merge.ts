// Merge: joins the items of two (v3: more) inputs. append; combine by position, by fields or
// every pair (multiplex / combineAll); choose a branch. Fields clash in favour of input 2,
// as n8n's default clash handling does.
import { NodeOperationError, type NodeContext, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { clone, readPath } from './util.js';

const merged = (a: Item | undefined, b: Item | undefined, ia: number, ib: number): Item => ({
  json: { ...clone(a?.json ?? {}), ...clone(b?.json ?? {}) },
  pairedItem: [...(a ? [{ item: ia, input: 0 }] : []), ...(b ? [{ item: ib, input: 1 }] : [])],
});

async function byFields(ctx: NodeContext, in1: Item[], in2: Item[]): Promise<Item[]> {
  let pairs: Array<{ field1: string; field2: string }>;
  if (ctx.typeVersion >= 3) {
    const adv = ctx.raw<boolean>('advanced', false);
    if (adv) pairs = await ctx.param('mergeByFields.values', 0, []);
    else {
      const fields = String(await ctx.param('fieldsToMatchString', 0, '')).split(',').map((s) => s.trim()).filter(Boolean);
      pairs = fields.map((f) => ({ field1: f, field2: f }));
    }
  } else pairs = await ctx.param('mergeByFields.values', 0, []);
  const join = ctx.raw<string>('joinMode', 'keepMatches');
  const key = (it: Item, side: 'field1' | 'field2') => JSON.stringify(pairs.map((p) => readPath(it.json, p[side])));
  const index = new Map<string, number[]>();
  in2.forEach((it, i) => {
    const k = key(it, 'field2');
    index.set(k, [...(index.get(k) ?? []), i]);
  });
  const used2 = new Set<number>();
  const out: Item[] = [];
  in1.forEach((a, ia) => {
    const matches = index.get(key(a, 'field1')) ?? [];
    matches.forEach((m) => used2.add(m));
    if (join === 'keepNonMatches' || join === 'keepEverything' || join === 'enrichInput1') {
      if (!matches.length) out.push({ json: clone(a.json), pairedItem: { item: ia, input: 0 } });
    }
    if (join === 'keepNonMatches') return;
    for (const m of matches) out.push(merged(a, in2[m], ia, m));
  });
  if (join === 'keepNonMatches' || join === 'keepEverything' || join === 'enrichInput2') {
    in2.forEach((b, ib) => {
      if (!used2.has(ib)) out.push({ json: clone(b.json), pairedItem: { item: ib, input: 1 } });
    });
  }
  return out;
}

export default {
  types: ['n8n-nodes-base.merge'],
  async execute(ctx) {
    const inputs = ctx.inputs.map((i) => i ?? []);
    const in1 = inputs[0] ?? [];
    const in2 = inputs[1] ?? [];
    const mode = ctx.raw<string>('mode', 'append');
    const v = ctx.typeVersion;
    if (mode === 'append') {
      return [inputs.flatMap((items, input) => items.map((it, i) => ({ ...it, pairedItem: { item: i, input } })))];
    }
    if (mode === 'chooseBranch') {
      if (ctx.raw('output', 'specifiedInput') === 'empty') return [[{ json: {} }]];
      const which = v >= 3 ? Number(ctx.raw('useDataOfInput', 1)) - 1 : ctx.raw('output', 'input1') === 'input2' ? 1 : 0;
      return [(inputs[which] ?? []).map((it, i) => ({ ...it, pairedItem: { item: i, input: which } }))];
    }
    if (mode === 'combine' || v < 2) {
      const how = v >= 3 ? ctx.raw<string>('combineBy', 'combineByFields') : ctx.raw<string>('combinationMode', v < 2 ? mode : 'mergeByFields');
      if (how === 'mergeByPosition' || how === 'combineByPosition' || how === 'mergeByIndex') {
        const includeUnpaired = await ctx.param<boolean>('options.includeUnpaired', 0, false);
        const n = includeUnpaired ? Math.max(in1.length, in2.length) : Math.min(in1.length, in2.length);
        return [Array.from({ length: n }, (_, i) => merged(in1[i], in2[i], i, i))];
      }
      if (how === 'multiplex' || how === 'combineAll') {
        const out: Item[] = [];
        in1.forEach((a, ia) => in2.forEach((b, ib) => out.push(merged(a, b, ia, ib))));
        return [out];
      }
      if (how === 'mergeByFields' || how === 'combineByFields' || how === 'mergeByKey') return [await byFields(ctx, in1, in2)];
    }
    throw new NodeOperationError(`Merge mode "${mode}" is not supported`);
  },
} satisfies NodeType;
