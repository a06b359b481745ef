// Remove Duplicates: within the input (all fields, all but some, or selected fields), or
// against values seen in earlier executions (kept in the workflow's static data).
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { checkFields, sortedOrder } from './dedupe-order.js';
import { clone, fieldList, isPlainObject, lodashGet, readPath, writePath } from './util.js';

function stable(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'undefined';
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  return `{${Object.keys(v)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`)
    .join(',')}}`;
}

/** Leaf values by dotted path; an empty array or object is a leaf. */
function flatten(value: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  const entries = Array.isArray(value)
    ? value.map((v, i) => [String(i), v] as const)
    : isPlainObject(value)
      ? Object.entries(value)
      : null;
  if (!entries || (entries.length === 0 && prefix)) {
    if (prefix) out.set(prefix, value);
    return out;
  }
  for (const [k, v] of entries) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

export default {
  types: ['n8n-nodes-base.removeDuplicates'],
  // v2's "items seen in previous executions" has a second output: the items removed.
  outputs: (node) =>
    (node.typeVersion ?? 1) >= 2 &&
    (node.parameters as { operation?: string } | undefined)?.operation === 'removeItemsSeenInPreviousExecutions'
      ? 2
      : 1,
  async execute(ctx) {
    const operation =
      ctx.typeVersion >= 2 ? ctx.raw<string>('operation', 'removeDuplicateInputItems') : 'removeDuplicateInputItems';
    if (operation === 'clearDeduplicationHistory') {
      ctx.staticData.node.seen = [];
      return [ctx.items];
    }
    if (operation === 'removeItemsSeenInPreviousExecutions') {
      const limit = Number(await ctx.param('options.historySize', 0, 10000));
      const logic = ctx.raw<string>('logic', 'removeItemsWithAlreadySeenKeyValues');
      const valueParam =
        logic === 'removeItemsUpToStoredDate'
          ? 'dateDedupeValue'
          : logic === 'removeItemsUpToStoredIncrementalKey'
            ? 'incrementalDedupeValue'
            : 'dedupeValue';
      // A date or an incremental key must be given (an expression reading nothing included).
      for (let i = 0; valueParam !== 'dedupeValue' && i < ctx.items.length; i++) {
        const v = await ctx.param(valueParam, i, '');
        if (v === '' || v === undefined || v === null)
          throw new NodeOperationError('The `Value to Dedupe` On is empty. Please provide a value.', undefined, i);
      }
      if (ctx.items.length > limit)
        throw new NodeOperationError(
          'The number of items to be processed exceeds the maximum history size. Please increase the history size or reduce the number of items to be processed.',
        );
      // Two outputs: the items kept, the items removed. A manual run keeps every item and
      // remembers nothing (observed with the oracle).
      if (ctx.mode === 'manual') return [ctx.items.map((it, i) => ({ ...it, pairedItem: { item: i } })), []];
      const seen = new Set<string>((ctx.staticData.node.seen as string[] | undefined) ?? []);
      const out: Item[] = [];
      const added: string[] = [];
      for (let i = 0; i < ctx.items.length; i++) {
        const key = stable(await ctx.param('dedupeValue', i, ''));
        if (seen.has(key)) continue;
        seen.add(key);
        added.push(key);
        out.push({ ...ctx.items[i], pairedItem: { item: i } });
      }
      ctx.staticData.node.seen = [...seen].slice(-limit);
      const kept = new Set(out.map((o) => (o.pairedItem as { item: number }).item));
      return [out, ctx.items.flatMap((it, i) => (kept.has(i) ? [] : [{ ...it, pairedItem: { item: i } }]))];
    }
    if (operation !== 'removeDuplicateInputItems')
      throw new NodeOperationError(`Operation "${operation}" is not supported`);
    const compare = ctx.raw<string>('compare', 'allFields');
    const rawFields = await ctx.param(compare === 'selectedFields' ? 'fieldsToCompare' : 'fieldsToExclude', 0, '');
    // The older {fields: [{fieldName}]} form is Item Lists' only; this node refuses it (observed).
    if (isPlainObject(rawFields) && ctx.node.type === 'n8n-nodes-base.removeDuplicates') {
      throw new NodeOperationError(
        `The '${compare === 'selectedFields' ? 'Fields To Compare' : 'Fields To Exclude'}' parameter must be a string of fields separated by commas or an array of strings.`,
      );
    }
    const fields = fieldList(rawFields);
    if (compare === 'selectedFields' && !fields.length)
      throw new NodeOperationError('No fields specified. Please add a field to compare on');
    if (compare === 'allFieldsExcept' && !fields.length && ctx.typeVersion >= 1.1)
      throw new NodeOperationError('No fields specified. Please add a field to exclude from comparison');
    const noDots = await ctx.param<boolean>('options.disableDotNotation', 0, false);
    // Fields are read as lodash's get reads them (a key named with the dots wins over the path).
    const get = (json: Record<string, unknown>, f: string) => (noDots ? json[f] : lodashGet(json, f));
    const fail = (message: string) => new NodeOperationError(message);
    // The type check: Remove Duplicates after 1.0 passes over nulls; Item Lists (this code with
    // typeVersion 1) counts null as an object, and from 3.1 has no type check.
    const listsWithoutTypes =
      ctx.node.type !== 'n8n-nodes-base.removeDuplicates' && Number(ctx.node.typeVersion) >= 3.1;
    const typeOf = listsWithoutTypes
      ? undefined
      : (v: unknown) => (v === undefined || (v === null && ctx.typeVersion > 1) ? undefined : typeof v);
    const equal = (a: unknown, b: unknown) => stable(a) === stable(b);
    let keyOf: (json: Record<string, unknown>, i: number) => string;
    // The compared fields, by path: with `removeOtherFields` an item keeps only these.
    let compared: string[];
    if (compare === 'selectedFields') {
      const value = (i: number, f: string) => get(ctx.items[i].json, f);
      const order = sortedOrder(ctx.items.length, fields, value, equal);
      checkFields(order, fields, (i, f) => value(i, f) === undefined, typeOf, value, fail);
      keyOf = (json) => stable(fields.map((f) => get(json, f)));
      compared = fields;
    } else {
      // Items compare by their flattened paths (tags.0, a.b): every path of any item (all
      // fields) or of the first item less the excluded ones, each required in every item.
      const flats = ctx.items.map((it) => flatten(it.json));
      const keys =
        compare === 'allFieldsExcept'
          ? [...(flats[0]?.keys() ?? [])].filter((k) => !fields.includes(k))
          : [...new Set(flats.flatMap((f) => [...f.keys()]))];
      // Each path must be found by lodash's get in every item: a flattened path through a key
      // with dots in its name is not (observed: "'a.b.y' field is missing").
      const isMissing = (i: number, k: string) =>
        !flats[i].has(k) || (!noDots && lodashGet(ctx.items[i].json, k) === undefined && flats[i].get(k) !== undefined);
      const value = (i: number, k: string) => flats[i].get(k);
      checkFields(sortedOrder(ctx.items.length, keys, value, equal), keys, isMissing, typeOf, value, fail);
      keyOf = (_json, i) => stable(keys.map((k) => flats[i].get(k)));
      compared = keys;
    }
    const removeOthers = await ctx.param<boolean>('options.removeOtherFields', 0, false);
    const only = (json: Record<string, unknown>) => {
      const out: Record<string, unknown> = {};
      for (const f of compared) writePath(out, f, clone(readPath(json, f)));
      return out;
    };
    const seen = new Set<string>();
    const out: Item[] = [];
    ctx.items.forEach((it, i) => {
      const k = keyOf(it.json, i);
      if (seen.has(k)) return;
      seen.add(k);
      out.push(removeOthers ? { json: only(it.json), pairedItem: { item: i } } : { ...it, pairedItem: { item: i } });
    });
    return [out];
  },
} satisfies NodeType;
