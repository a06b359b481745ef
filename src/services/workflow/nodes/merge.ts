// Merge: joins the items of two (v3: more) inputs. Each version's rules were checked against
// n8n 2.8.4 with the oracle (test/fixtures/n8n-oracle, merge-*):
// - v1: append, mergeByIndex (inner/left/outer), mergeByKey (overwrite always/undefined/blank),
//   keepKeyMatches, removeKeyMatches, multiplex, passThrough, wait; shallow merges, keys compared
//   as strings, an empty second input passes the first through.
// - v2/v2.1 and v3: append, combine (by fields with join modes, by position, every pair) and
//   chooseBranch; clashes resolved by `options.clashHandling` (default: input 2 wins, deep merge).
import { NodeOperationError, type NodeContext, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { checkPairs } from './match-fields.js';
import { clone, lodashGet, readPath } from './util.js';

type Paired = { item: number; input: number };
const pair = (ia: number | undefined, ib: number | undefined): Paired[] => [
  ...(ia !== undefined ? [{ item: ia, input: 0 }] : []),
  ...(ib !== undefined ? [{ item: ib, input: 1 }] : []),
];
const passOn = (items: Item[], input: number): Item[] =>
  items.map((it, i) => ({ ...it, json: clone(it.json), pairedItem: { item: i, input } }));

/**
 * lodash's merge (n8n's deep merge), into `target` (a copy): an object or array of the source
 * merges into a value of the same kind (an object into an array too, where only index keys show
 * in JSON), else into a fresh one; other values replace, except that undefined never does, nor,
 * with `keepOnEmpty`, '' or null over a value that is there (observed, at every level).
 */
function deepMerge(target: any, source: Record<string, unknown> | unknown[], keepOnEmpty = false): unknown {
  for (const [k, v] of Object.entries(source)) {
    if (Array.isArray(target) && !/^\d+$/.test(k)) continue; // a named key on an array: not in JSON
    const cur = target[k];
    if (v !== null && typeof v === 'object') {
      const into = Array.isArray(v)
        ? Array.isArray(cur)
          ? cur
          : []
        : cur !== null && typeof cur === 'object'
          ? cur
          : {};
      target[k] = deepMerge(into, v as Record<string, unknown>, keepOnEmpty);
    } else if (v === undefined) {
      if (!(k in target)) target[k] = v;
    } else if (!(keepOnEmpty && (v === '' || v === null) && cur !== undefined)) target[k] = v;
  }
  return target;
}

interface Clash {
  resolveClash: 'preferInput1' | 'preferInput2' | 'addSuffix';
  mergeMode: 'deepMerge' | 'shallowMerge';
  /** Empty values ('', null) of the preferred input do not replace the other's (observed). */
  overrideEmpty: boolean;
}

/** '' and null are empty (0, false, [] and {} count as values: observed). */
const isEmptyValue = (v: unknown) => v === '' || v === null || v === undefined;

function combine(
  a: Record<string, unknown> | undefined,
  b: Record<string, unknown> | undefined,
  clash: Clash,
): Record<string, unknown> {
  if (clash.resolveClash === 'addSuffix') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(a ?? {})) out[`${k}_1`] = clone(v);
    for (const [k, v] of Object.entries(b ?? {})) out[`${k}_2`] = clone(v);
    return out;
  }
  const [base, preferred] = clash.resolveClash === 'preferInput1' ? [b, a] : [a, b];
  if (clash.mergeMode === 'shallowMerge') {
    const out = clone(base ?? {});
    // With overrideEmpty an empty value ('', null) of the preferred input keeps the other's
    // value, but is written where the other has none (lodash's assignWith: observed `when: null`).
    for (const [k, v] of Object.entries(preferred ?? {}))
      if (!(clash.overrideEmpty && isEmptyValue(v) && out[k] !== undefined)) out[k] = clone(v);
    return out;
  }
  return deepMerge(clone(base ?? {}), clone(preferred ?? {}), clash.overrideEmpty) as Record<string, unknown>;
}

async function clashOptions(ctx: NodeContext): Promise<Clash> {
  const v = (await ctx.param<Partial<Clash>>('options.clashHandling.values', 0, {})) ?? {};
  return {
    resolveClash: v.resolveClash ?? 'preferInput2',
    mergeMode: v.mergeMode ?? 'deepMerge',
    overrideEmpty: Boolean(v.overrideEmpty),
  };
}

// ---- v2 / v3 --------------------------------------------------------------------------------

async function matchPairs(ctx: NodeContext): Promise<Array<{ field1: string; field2: string }>> {
  if (ctx.typeVersion >= 3 && !ctx.raw<boolean>('advanced', false)) {
    const fields = String(await ctx.param('fieldsToMatchString', 0, ''))
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    return checkPairs(fields.map((f) => ({ field1: f, field2: f })));
  }
  return checkPairs(
    (await ctx.param<Array<{ field1?: string; field2?: string }>>('mergeByFields.values', 0, [])) ?? [],
  );
}

async function byFields(ctx: NodeContext, in1: Item[], in2: Item[], clash: Clash): Promise<Item[][]> {
  const v = ctx.typeVersion;
  const join = ctx.raw<string>('joinMode', 'keepMatches');
  const pairs = await matchPairs(ctx);
  const fuzzy = await ctx.param<boolean>('options.fuzzyCompare', 0, false);
  const noDots = await ctx.param<boolean>('options.disableDotNotation', 0, false);
  const firstOnly = (await ctx.param<string>('options.multipleMatches', 0, 'all')) === 'first';
  const none: Item[][] = v >= 3 ? [] : [[]];
  if (v < 2.1) {
    // Merge 2.0 insists that every matched field exists somewhere in each input.
    for (const p of pairs) {
      if (!in1.some((it) => readPath(it.json, p.field1) !== undefined))
        throw new NodeOperationError(`Field '${p.field1}' is not present in any of items in 'Input 1'`);
      if (!in2.some((it) => readPath(it.json, p.field2) !== undefined))
        throw new NodeOperationError(`Field '${p.field2}' is not present in any of items in 'Input 2'`);
    }
  }
  // Empty inputs (observed): the join either has nothing to give or passes the other side on.
  if (!in1.length || !in2.length) {
    if (join === 'keepMatches') return none;
    if (join === 'enrichInput1') return in1.length ? [passOn(in1, 0)] : none;
    if (join === 'enrichInput2') return in2.length ? [passOn(in2, 1)] : none;
    // Non-matches from the side that has items, unless the output is only the other side's.
    const from = ctx.raw<string>('outputDataFrom', 'both');
    if (join === 'keepNonMatches' && from === (in1.length ? 'input2' : 'input1')) return [[]];
    return [in1.length ? passOn(in1, 0) : passOn(in2, 1)];
  }
  const read = (it: Item, f: string) => (noDots ? it.json[f] : readPath(it.json, f));
  const same = (x: unknown, y: unknown) => {
    if (x === undefined || y === undefined) return false;
    if (fuzzy) return x === y || String(x) === String(y);
    return JSON.stringify(x) === JSON.stringify(y);
  };
  const matchesOf = (a: Item, side: Item[], aField: 'field1' | 'field2', bField: 'field1' | 'field2') => {
    const found: number[] = [];
    side.forEach((b, ib) => {
      if (pairs.every((p) => same(read(a, p[aField]), read(b, p[bField])))) found.push(ib);
    });
    return firstOnly ? found.slice(0, 1) : found;
  };
  // With addSuffix, the unmatched items kept beside merged ones (keepEverything, enrichInput1/2)
  // get their input's suffix on every key too, clash or not (n8n 2.8.4's rule).
  const unmatchedJson = (json: Record<string, unknown>, suffix: string) =>
    clash.resolveClash === 'addSuffix' && join !== 'keepNonMatches'
      ? Object.fromEntries(Object.entries(json).map(([k, v]) => [`${k}_${suffix}`, clone(v)]))
      : clone(json);
  const out: Item[] = [];
  const used2 = new Set<number>();
  const outputFrom = ctx.raw<string>('outputDataFrom', 'both');
  if (join === 'enrichInput2') {
    // Input 2's items enriched from input 1 (which then wins clashes): matches in input 1's
    // order, then input 2's unmatched items.
    in1.forEach((a, ia) => {
      for (const m of matchesOf(a, in2, 'field1', 'field2')) {
        used2.add(m);
        out.push({ json: combine(in2[m].json, a.json, clash), pairedItem: pair(ia, m) });
      }
    });
    in2.forEach((b, ib) => {
      if (!used2.has(ib)) out.push({ json: unmatchedJson(b.json, '2'), pairedItem: { item: ib, input: 1 } });
    });
    return [out];
  }
  const unmatched1: Item[] = [];
  in1.forEach((a, ia) => {
    const ms = matchesOf(a, in2, 'field1', 'field2');
    ms.forEach((m) => used2.add(m));
    if (!ms.length) {
      unmatched1.push({ json: unmatchedJson(a.json, '1'), pairedItem: { item: ia, input: 0 } });
      if (join === 'enrichInput1') out.push(unmatched1[unmatched1.length - 1]);
      return;
    }
    if (join === 'keepNonMatches') return;
    if (join === 'keepMatches' && outputFrom === 'input1')
      return void out.push({ json: clone(a.json), pairedItem: { item: ia, input: 0 } });
    if (join === 'keepMatches' && outputFrom === 'input2') {
      for (const m of ms) out.push({ json: clone(in2[m].json), pairedItem: { item: m, input: 1 } });
      return;
    }
    for (const m of ms) out.push({ json: combine(a.json, in2[m].json, clash), pairedItem: pair(ia, m) });
  });
  const unmatched2 = in2.flatMap((b, ib) =>
    used2.has(ib) ? [] : [{ json: unmatchedJson(b.json, '2'), pairedItem: { item: ib, input: 1 } }],
  );
  if (join === 'keepEverything') return [[...out, ...unmatched1, ...unmatched2]];
  if (join === 'keepNonMatches') {
    if (outputFrom === 'input1') return [unmatched1];
    if (outputFrom === 'input2') return [unmatched2];
    const tag = (items: Item[], source: string) =>
      items.map((it) => ({ ...it, json: { ...it.json, _source: source } }));
    return [[...tag(unmatched1, 'input1'), ...tag(unmatched2, 'input2')]];
  }
  return [out];
}

async function combineV2V3(ctx: NodeContext, in1: Item[], in2: Item[]): Promise<Item[][]> {
  const v = ctx.typeVersion;
  const how =
    v >= 3 ? ctx.raw<string>('combineBy', 'combineByFields') : ctx.raw<string>('combinationMode', 'mergeByFields');
  const clash = await clashOptions(ctx);
  if (how === 'combineByFields' || how === 'mergeByFields') return byFields(ctx, in1, in2, clash);
  if (how === 'combineByPosition' || how === 'mergeByPosition') {
    const includeUnpaired = await ctx.param<boolean>('options.includeUnpaired', 0, false);
    if (!in1.length || !in2.length)
      return [includeUnpaired || v < 3 ? (in1.length ? passOn(in1, 0) : passOn(in2, 1)) : []];
    const n = includeUnpaired ? Math.max(in1.length, in2.length) : Math.min(in1.length, in2.length);
    // With addSuffix, v3's position mode also keeps input 2's fields under their own names
    // (observed: {x:1} and {x:'b'} give {x_1:1, x_2:'b', x:'b'}); v2 and by fields do not.
    const pairOf = (i: number) => {
      const json = combine(in1[i]?.json, in2[i]?.json, clash);
      return clash.resolveClash === 'addSuffix' && v >= 3 ? { ...json, ...clone(in2[i]?.json ?? {}) } : json;
    };
    return [
      Array.from({ length: n }, (_, i) => ({
        json: pairOf(i),
        pairedItem: pair(in1[i] ? i : undefined, in2[i] ? i : undefined),
      })),
    ];
  }
  if (how === 'combineAll' || how === 'multiplex') {
    const out: Item[] = [];
    const each = (a: Item, ia: number, b: Item, ib: number) =>
      out.push({ json: combine(a.json, b.json, clash), pairedItem: pair(ia, ib) });
    // Preferring input 1, n8n walks input 2 in the outer loop (observed: a1b1, a2b1, a1b2, …).
    if (clash.resolveClash === 'preferInput1') in2.forEach((b, ib) => in1.forEach((a, ia) => each(a, ia, b, ib)));
    else in1.forEach((a, ia) => in2.forEach((b, ib) => each(a, ia, b, ib)));
    return [out];
  }
  throw new NodeOperationError(`Merge combine mode "${how}" is not supported`);
}

// ---- v1 -------------------------------------------------------------------------------------

function isBlank(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

async function executeV1(ctx: NodeContext, mode: string, in1: Item[], in2: Item[]): Promise<Item[][]> {
  const shallow = (a: Item | undefined, b: Item | undefined, ia: number | undefined, ib: number | undefined): Item => ({
    json: { ...clone(a?.json ?? {}), ...clone(b?.json ?? {}) },
    pairedItem: pair(a ? ia : undefined, b ? ib : undefined),
  });
  switch (mode) {
    case 'passThrough': {
      const which = ctx.raw<string>('output', 'input1') === 'input2' ? 1 : 0;
      return [passOn(which ? in2 : in1, which)];
    }
    case 'wait':
      return [[{ json: {} }]];
    case 'multiplex': {
      const out: Item[] = [];
      in1.forEach((a, ia) => in2.forEach((b, ib) => out.push(shallow(a, b, ia, ib))));
      return [out];
    }
    case 'mergeByIndex': {
      // As many items as both inputs have (inner), as the first (left, the default), or as the longer (outer).
      const join = ctx.raw<string>('join', 'left');
      if (!in1.length) return [join === 'outer' ? passOn(in2, 1) : []];
      if (!in2.length && join !== 'inner') return [passOn(in1, 0)];
      const n =
        join === 'outer'
          ? Math.max(in1.length, in2.length)
          : join === 'left'
            ? in1.length
            : Math.min(in1.length, in2.length);
      return [Array.from({ length: n }, (_, i) => shallow(in1[i], in2[i], i, i))];
    }
  }
  const p1 = await ctx.param<string>('propertyName1', 0, '');
  const p2 = await ctx.param<string>('propertyName2', 0, '');
  // Without both names there is no matching: keepKeyMatches gives nothing, the others input 1.
  if (!p1 || !p2) return [mode === 'keepKeyMatches' ? [] : passOn(in1, 0)];
  // n8n 2.8.4's rules (read from its behaviour): keys are read as lodash's get (a literal dotted
  // key wins) and compared as object-property text; input 2's items with a falsy key ('', 0,
  // false, null) are left out and the last item of a key wins; an input-1 item whose key is
  // missing, or is no string, number or null, matches nothing and is skipped (kept by
  // removeKeyMatches).
  const index = new Map<string, number>();
  in2.forEach((it, i) => {
    const k = lodashGet(it.json, p2);
    if (k) index.set(String(k), i);
  });
  const keyOf = (it: Item, p: string): string | undefined => {
    const v = lodashGet(it.json, p);
    return v === null || typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
  };
  const out: Item[] = [];
  if (mode === 'mergeByKey') {
    if (!in2.length) return [passOn(in1, 0)];
    const overwrite = ctx.raw<string>('overwrite', 'always');
    in1.forEach((a, ia) => {
      const k = keyOf(a, p1);
      if (k === undefined) return; // items without the key are dropped
      const m = index.get(k);
      if (m === undefined) return void out.push({ json: clone(a.json), pairedItem: { item: ia, input: 0 } });
      const json = clone(a.json);
      for (const [key, value] of Object.entries(in2[m].json)) {
        if (key === p2) continue; // input 2's key field is not copied
        if (
          overwrite === 'always' ||
          (overwrite === 'undefined' && !Object.hasOwn(json, key)) ||
          (overwrite === 'blank' && isBlank(json[key]))
        )
          json[key] = clone(value);
      }
      out.push({ json, pairedItem: pair(ia, m) });
    });
    return [out];
  }
  if (mode === 'keepKeyMatches') {
    in1.forEach((a, ia) => {
      const k = keyOf(a, p1);
      if (k !== undefined && index.has(k)) out.push({ json: clone(a.json), pairedItem: { item: ia, input: 0 } });
    });
    return [out];
  }
  if (mode === 'removeKeyMatches') {
    in1.forEach((a, ia) => {
      const k = keyOf(a, p1);
      if (k === undefined || !index.has(k)) out.push({ json: clone(a.json), pairedItem: { item: ia, input: 0 } });
    });
    return [out];
  }
  throw new NodeOperationError(`Merge mode "${mode}" is not supported`);
}

function chooseBranch(ctx: NodeContext, inputs: Item[][]): Item[][] {
  const v = ctx.typeVersion;
  const output = ctx.raw<string>('output', v >= 3 ? 'specifiedInput' : 'input1');
  // The empty item is paired with every item of every input ($('A').item finds its own).
  if (output === 'empty')
    return [[{ json: {}, pairedItem: inputs.flatMap((items, input) => items.map((_, item) => ({ item, input }))) }]];
  const which = v >= 3 ? Number(ctx.raw('useDataOfInput', 1)) - 1 : output === 'input2' ? 1 : 0;
  return [passOn(inputs[which] ?? [], which)];
}

export default {
  types: ['n8n-nodes-base.merge'],
  // chooseBranch waits for every input: with one input empty, n8n does not run the node.
  requiresAllInputs: (node) =>
    (node.typeVersion ?? 1) >= 2 && (node.parameters as { mode?: string } | undefined)?.mode === 'chooseBranch',
  async execute(ctx) {
    const inputs = ctx.inputs.map((i) => i ?? []);
    const in1 = inputs[0] ?? [];
    const in2 = inputs[1] ?? [];
    const mode = ctx.raw<string>('mode', 'append');
    if (mode === 'append') return [inputs.flatMap((items, input) => passOn(items, input))];
    if (ctx.typeVersion < 2) return executeV1(ctx, mode, in1, in2);
    if (mode === 'chooseBranch') return chooseBranch(ctx, inputs);
    if (mode === 'combine') return combineV2V3(ctx, in1, in2);
    // A v1 mode name left in a v2+ node (older workflows edited by hand): n8n outputs nothing.
    return [[]];
  },
} satisfies NodeType;
