// Compare Datasets: matches input A's items with input B's by fields and sorts them onto four
// outputs: only in A, the same in both, different, only in B. Rules observed with the oracle
// (n8n 2.8.4, nt-compare-*):
// - each A item pairs with the first B item whose fields match (a B item may pair with several
//   A items); B items no A item chose are "only in B";
// - a pair is "the same" when equal after the skipped fields are removed (deep paths); strict
//   comparison is deep equality, fuzzy compares A's fields one by one (see `fuzzyEqual`);
// - "the same" outputs A's item, or B's when B is preferred and nothing is skipped;
// - "different" outputs, per `resolve`: A's or B's item, a mix (the preferred item with the
//   `exceptWhenMix` fields read from the other, written under their names as given), or both:
//   {keys, same, different: {field: {inputA, inputB}}, skipped?} (v1: input1/input2);
// - `resolve` defaults to preferring B before v2.1, to both from v2.1;
// - "Fields to Match" needs at least one pair, each with both fields (checked first, every version);
// - a dotted field name reads a key of that literal name when the item has one, else the path.
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { checkPairs } from './match-fields.js';
import { clone, deletePath, fieldList, lodashGet, readPath, writePath } from './util.js';

type Json = Record<string, unknown>;

const isFalsy = (v: unknown) => v === null || v === '' || (Array.isArray(v) && v.length === 0);

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => k in b && deepEqual((a as Json)[k], (b as Json)[k]));
}

function parsedEquals(text: string, value: unknown): boolean {
  try {
    return deepEqual(JSON.parse(text), value);
  } catch {
    return false;
  }
}

/**
 * Fuzzy equality: same-typed values strictly; null, '' and [] alike (from v2.1 also like a
 * missing value); numbers like their text; objects like their JSON text; booleans like
 * "true"/"false" in any case and like 1/0 (or "1"/"0").
 */
function fuzzyEqual(a: unknown, b: unknown, missingIsFalsy: boolean): boolean {
  if (a !== null && b !== null && typeof a === typeof b) return deepEqual(a, b);
  if (isFalsy(a) && isFalsy(b)) return true;
  if (missingIsFalsy && ((isFalsy(a) && b === undefined) || (a === undefined && isFalsy(b)))) return true;
  if (typeof a === 'number' && typeof b === 'string') return String(a) === b;
  if (typeof a === 'string' && typeof b === 'number') return a === String(b);
  if (a !== null && typeof a === 'object' && typeof b === 'string') return parsedEquals(b, a);
  if (b !== null && typeof b === 'object' && typeof a === 'string') return parsedEquals(a, b);
  const bool = (x: boolean, y: unknown) =>
    (typeof y === 'string' && y.toLowerCase() === String(x)) || y === (x ? 1 : 0) || y === (x ? '1' : '0');
  if (typeof a === 'boolean') return bool(a, b);
  if (typeof b === 'boolean') return bool(b, a);
  return deepEqual(a, b);
}

interface Settings {
  fuzzy: boolean;
  missingIsFalsy: boolean;
  skip: string[];
  noDots: boolean;
}

function valuesEqual(a: unknown, b: unknown, s: Settings): boolean {
  return s.fuzzy ? fuzzyEqual(a, b, s.missingIsFalsy) : deepEqual(a, b);
}

/** Strict: deep equality; fuzzy: each of A's fields against B's. */
function itemsEqual(a: Json, b: Json, s: Settings): boolean {
  return s.fuzzy ? Object.keys(a).every((k) => fuzzyEqual(a[k], b[k], s.missingIsFalsy)) : deepEqual(a, b);
}

/** A match field's value: the key as named (no dot notation) or as lodash's get reads the path. */
function readField(json: Json, f: string, noDots: boolean): unknown {
  return noDots ? json[f] : lodashGet(json, f);
}

function withoutSkipped(json: Json, s: Settings): Json {
  const out = clone(json);
  for (const f of s.skip) {
    if (s.noDots) delete out[f];
    else deletePath(out, f);
  }
  return out;
}

export default {
  types: ['n8n-nodes-base.compareDatasets'],
  outputs: () => 4,
  async execute(ctx) {
    // n8n leaves items with an empty json out of both inputs.
    const a = (ctx.inputs[0] ?? []).filter((it) => Object.keys(it.json).length > 0);
    const b = (ctx.inputs[1] ?? []).filter((it) => Object.keys(it.json).length > 0);
    const v = ctx.typeVersion;
    const pairs = checkPairs(
      (await ctx.param<Array<{ field1?: string; field2?: string }>>('mergeByFields.values', 0, [])) ?? [],
    );
    const noDots = await ctx.param<boolean>('options.disableDotNotation', 0, false);
    const read = (json: Json, f: string) => readField(json, f, noDots);
    // Before 2.2 a match field that no item of a (non-empty) input has fails the node.
    if (v < 2.2) {
      for (const [items, side, label] of [
        [a, 'field1', 'Input A'],
        [b, 'field2', 'Input B'],
      ] as const) {
        const missing = items.length
          ? pairs
              .map((p) => p[side])
              .find((f) => !items.some((it) => (noDots ? Object.hasOwn(it.json, f) : read(it.json, f) !== undefined)))
          : undefined;
        if (missing !== undefined)
          throw new NodeOperationError(`Field '${missing}' is not present in any of items in '${label}'`);
      }
    }
    // v1 reads fuzzyCompare from its options; v2 has it beside them.
    const fuzzy = Boolean(await ctx.param<boolean>(v >= 2 ? 'fuzzyCompare' : 'options.fuzzyCompare', 0, false));
    const settings: Settings = {
      fuzzy,
      missingIsFalsy: v >= 2.1,
      skip: fieldList(await ctx.param('options.skipFields', 0, '')),
      noDots,
    };
    if (noDots) {
      const dotted = settings.skip.find((f) => f.includes('.'));
      if (dotted)
        throw new NodeOperationError(`Dot notation is disabled, but field to skip comparing '${dotted}' contains dot`);
    }
    const resolve = ctx.raw<string>('resolve', v >= 2.1 ? 'includeBoth' : 'preferInput2');
    // A's missing value matches nothing; fuzzy, B's missing value matches A's null, '' or [] (observed, every version).
    const keysMatch = (x: unknown, y: unknown) =>
      x !== undefined && (fuzzy ? fuzzyEqual(x, y, true) : y !== undefined && deepEqual(x, y));
    const [labelA, labelB] = v >= 2 ? ['inputA', 'inputB'] : ['input1', 'input2'];

    const onlyA: Item[] = [];
    const same: Item[] = [];
    const different: Item[] = [];
    const usedB = new Set<number>();
    for (let ia = 0; ia < a.length; ia++) {
      const itemA = a[ia].json;
      const ib = b.findIndex((itemB) =>
        pairs.every((p) => keysMatch(read(itemA, p.field1), read(itemB.json, p.field2))),
      );
      if (ib < 0) {
        onlyA.push({ json: clone(itemA), pairedItem: { item: ia, input: 0 } });
        continue;
      }
      usedB.add(ib);
      const itemB = b[ib].json;
      const paired = [
        { item: ia, input: 0 },
        { item: ib, input: 1 },
      ];
      const strippedA = withoutSkipped(itemA, settings);
      const strippedB = withoutSkipped(itemB, settings);
      if (itemsEqual(strippedA, strippedB, settings)) {
        const preferB = resolve === 'preferInput2' && !settings.skip.length;
        same.push({ json: clone(preferB ? itemB : itemA), pairedItem: paired });
        continue;
      }
      let json: Json;
      if (resolve === 'preferInput1') json = clone(itemA);
      else if (resolve === 'preferInput2') json = clone(itemB);
      else if (resolve === 'mix') {
        // n8n writes the other input's fields into the preferred item itself: the input node's
        // recorded output shows them too (observed), so this does as well.
        const preferA = ctx.raw<string>('preferWhenMix', 'input1') === 'input1';
        json = preferA ? itemA : itemB;
        const other = preferA ? itemB : itemA;
        for (const f of fieldList(await ctx.param('exceptWhenMix', 0, ''))) json[f] = clone(read(other, f)) ?? null;
      } else json = bothVersions(itemA, itemB, strippedA, strippedB, pairs, settings, labelA, labelB);
      different.push({ json, pairedItem: paired });
    }
    const onlyB = b.flatMap((itemB, ib) =>
      usedB.has(ib) ? [] : [{ json: clone(itemB.json), pairedItem: { item: ib, input: 1 } }],
    );
    return [onlyA, same, different, onlyB];
  },
} satisfies NodeType;

/** "Include both versions": the key values, the fields both share, those that differ, and the skipped parts that differ. */
function bothVersions(
  itemA: Json,
  itemB: Json,
  strippedA: Json,
  strippedB: Json,
  pairs: Array<{ field1: string }>,
  s: Settings,
  labelA: string,
  labelB: string,
): Json {
  const keys: Json = {};
  for (const p of pairs) keys[p.field1] = clone(readField(itemA, p.field1, s.noDots));
  const sameFields: Json = {};
  const diff: Json = {};
  for (const k of new Set([...Object.keys(itemA), ...Object.keys(itemB)])) {
    // Fields compare as they are (a field with a skipped part differs if that part does); a
    // wholly skipped field that differs is left out.
    const equal =
      k in itemA && k in itemB
        ? valuesEqual(itemA[k], itemB[k], s)
        : s.fuzzy && s.missingIsFalsy && valuesEqual(itemA[k], itemB[k], s);
    if (equal) sameFields[k] = clone(itemA[k]);
    else if (!s.skip.includes(k))
      diff[k] = { [labelA]: clone(strippedA[k]) ?? null, [labelB]: clone(strippedB[k]) ?? null };
  }
  const json: Json = { keys, same: sameFields, different: diff };
  const skipped: Json = {};
  for (const f of s.skip) {
    const [top, ...rest] = s.noDots ? [f] : f.split('.');
    const va = s.noDots ? itemA[f] : readPath(itemA, f);
    const vb = s.noDots ? itemB[f] : readPath(itemB, f);
    if (!rest.length || valuesEqual(va, vb, s)) continue;
    const entry = (skipped[top] ??= { [labelA]: {}, [labelB]: {} }) as Record<string, Json>;
    if (va !== undefined) writePath(entry[labelA], rest.join('.'), clone(va));
    if (vb !== undefined) writePath(entry[labelB], rest.join('.'), clone(vb));
  }
  if (Object.keys(skipped).length) json.skipped = skipped;
  return json;
}
