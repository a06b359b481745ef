// Item Lists' Summarize operation (v1–3). It predates the Summarize node and differs from it
// (read from n8n 2.8.4's behaviour): groups are keys of a plain object, so every split value is
// text ("undefined" for a missing one, JSON for objects and null) and number-like keys come
// first in ascending order; the output names are built by string rules of their own.
import { NodeOperationError, type NodeContext } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import type { SummarizeSpec } from './summarize.js';
import { lodashGet } from './util.js';

type Row = Record<string, unknown>;

const PREFIX: Record<string, string> = {
  append: 'appended_',
  average: 'average_',
  concatenate: 'concatenated_',
  count: 'count_',
  countUnique: 'unique_count_',
  max: 'max_',
  min: 'min_',
  sum: 'sum_',
};

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/** Output names from v2 on: brackets and quotes dropped, then dots and spaces made underscores. */
const cleanName = (name: string) => name.replace(/[\]["]/g, '').replace(/[ .]/g, '_');

/**
 * Renames a result's keys in place as n8n does, in two passes (each renamed key moves to the end,
 * and overwrites a key that already had the new name).
 */
function cleanKeys(row: Row): void {
  const passes: Array<[RegExp, string]> = [
    [/[\]["]/g, ''],
    [/[ .]/g, '_'],
  ];
  for (const [re, by] of passes) {
    for (const key of Object.keys(row)) {
      if (!key.match(re)) continue;
      const value = row[key];
      delete row[key];
      row[key.replace(re, by)] = value;
    }
  }
}

function aggregate(rows: Row[], spec: SummarizeSpec, get: (r: Row, f: string) => unknown, version: number): unknown {
  const field = spec.field ?? '';
  const aggregation = spec.aggregation ?? 'count';
  // v3 compares any values for min and max; before, they are numeric like sum and average.
  const numeric = version >= 3 ? ['average', 'sum'] : ['average', 'sum', 'min', 'max'];
  let values = rows.map((r) => get(r, field));
  if (numeric.includes(aggregation)) values = values.filter((v) => typeof v === 'number');
  const nonEmpty = values.filter((v) => !isEmpty(v));
  switch (aggregation) {
    case 'append':
      return spec.includeEmpty ? values : nonEmpty;
    case 'concatenate': {
      const sep = spec.separateBy === 'other' ? spec.customSeparator : (spec.separateBy ?? ',');
      return (spec.includeEmpty ? values : nonEmpty)
        .map((v) => (v === undefined ? 'undefined' : typeof v === 'object' ? JSON.stringify(v) : v))
        .join(sep);
    }
    case 'average':
      return (values as number[]).reduce((a, b) => a + b, 0) / values.length;
    case 'sum':
      return (values as number[]).reduce((a, b) => a + b, 0);
    case 'min':
    case 'max': {
      if (version < 3)
        return aggregation === 'min' ? Math.min(...(values as number[])) : Math.max(...(values as number[]));
      let best: unknown;
      for (const v of nonEmpty)
        if (
          best === undefined ||
          (aggregation === 'min' ? (v as number) < (best as number) : (v as number) > (best as number))
        )
          best = v;
      return best ?? null;
    }
    case 'countUnique':
      // A Set: objects are each their own value, 0 and "0" differ.
      return new Set(nonEmpty).size;
    default:
      return nonEmpty.length;
  }
}

interface Options {
  specs: SummarizeSpec[];
  get: (r: Row, f: string) => unknown;
  version: number;
  singleItem: boolean;
  skipEmpty: boolean;
}

/** One group's results; in separate items it carries its items' indexes along. */
function summarizeRows(rows: Row[], o: Options): Row {
  const out: Row = {};
  for (const spec of o.specs)
    out[`${PREFIX[spec.aggregation ?? 'count']}${spec.field ?? ''}`] = aggregate(rows, spec, o.get, o.version);
  if (o.version >= 2) cleanKeys(out);
  if (!o.singleItem) out.pairedItems = rows.map((r) => r._itemIndex);
  return out;
}

/** Groups nested by the split fields, keyed by each value as an object key (text). */
function split(keys: string[], rows: Row[], o: Options): Row {
  if (!keys.length) return summarizeRows(rows, o);
  const [first, ...rest] = keys;
  const groups: Record<string, Row[]> = {};
  for (const r of rows) {
    let v = o.get(r, first);
    if (typeof v === 'object') v = JSON.stringify(v);
    // Skipped: a falsy value that is no number (so undefined, '' and false, but not 0).
    if (o.skipEmpty && typeof v !== 'number' && !v) continue;
    const key = String(v);
    (Object.hasOwn(groups, key) ? groups[key] : (groups[key] = [])).push(r);
  }
  const out: Row = {};
  for (const key of Object.keys(groups)) out[key] = split(rest, groups[key], o);
  return out;
}

/** The nested groups flattened to one row per group, each split field named by its value. */
function flatten(result: Row, names: string[], before: Row = {}): Row[] {
  const [name, ...rest] = names;
  return Object.keys(result).flatMap((key) => {
    const stage = { ...before, [name]: key };
    return rest.length ? flatten(result[key] as Row, rest, stage) : [{ ...stage, ...(result[key] as Row) }];
  });
}

export async function summarizeItemLists(ctx: NodeContext): Promise<Item[][]> {
  const version = ctx.typeVersion;
  const rows: Row[] = ctx.items.map((it, i) => ({ ...it.json, _itemIndex: i }));
  const splitBy = String((await ctx.param('fieldsToSplitBy', 0, '')) ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const specs = (await ctx.param<SummarizeSpec[]>('fieldsToSummarize.values', 0, [])) ?? [];
  // An absent field counts as '' (the parameter's default).
  if (!specs.some((s) => (s.field ?? '') !== ''))
    throw new NodeOperationError(
      "You need to add at least one aggregation to 'Fields to Summarize' with non empty 'Field'",
    );
  const noDots = await ctx.param<boolean>('options.disableDotNotation', 0, false);
  const get = (r: Row, f: string) => (noDots ? r[f] : lodashGet(r, f));
  // Before 2.1 a field no item has fails the node.
  if (version < 2.1)
    for (const spec of specs) {
      const field = spec.field ?? '';
      if (field !== '' && !rows.some((r) => get(r, field) !== undefined))
        throw new NodeOperationError(`The field '${field}' does not exist in any items`);
    }
  const singleItem = (await ctx.param('options.outputFormat', 0, 'separateItems')) === 'singleItem';
  const o: Options = {
    specs,
    get,
    version,
    singleItem,
    skipEmpty: !!(await ctx.param<boolean>('options.skipEmptySplitFields', 0, false)),
  };
  const result = split(splitBy, rows, o);
  const everyItem = rows.map((_, i) => ({ item: i }));
  if (singleItem) return [[{ json: result, pairedItem: everyItem }]];
  const asItem = ({ pairedItems, ...json }: Row): Item => ({
    json,
    pairedItem: ((pairedItems as number[] | undefined) ?? []).map((item) => ({ item })),
  });
  if (!splitBy.length) return [[asItem(result)]];
  return [flatten(result, version >= 2 ? splitBy.map(cleanName) : splitBy).map(asItem)];
}
