// Remove Duplicates: within the input (all fields, all but some, or selected fields), or
// against values seen in earlier executions (kept in the workflow's static data).
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { clone, fieldList, isPlainObject, readPath, writePath } from './util.js';

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
  async execute(ctx) {
    const operation =
      ctx.typeVersion >= 2 ? ctx.raw<string>('operation', 'removeDuplicateInputItems') : 'removeDuplicateInputItems';
    if (operation === 'clearDeduplicationHistory') {
      ctx.staticData.node.seen = [];
      return [ctx.items];
    }
    if (operation === 'removeItemsSeenInPreviousExecutions') {
      const limit = Number(await ctx.param('options.historySize', 0, 10000));
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
      return [out];
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
    const missing = (key: string) => new NodeOperationError(`'${key}' field is missing from some input items`);
    let keyOf: (json: Record<string, unknown>, i: number) => string;
    // The compared fields, by path: with `removeOtherFields` an item keeps only these.
    let compared: string[];
    if (compare === 'selectedFields') {
      for (const f of fields) if (ctx.items.some((it) => readPath(it.json, f) === undefined)) throw missing(f);
      keyOf = (json) => stable(fields.map((f) => readPath(json, f)));
      compared = fields;
    } else {
      // Items compare by their flattened paths (tags.0, a.b): every path of any item (all
      // fields) or of the first item less the excluded ones, each required in every item.
      const flats = ctx.items.map((it) => flatten(it.json));
      const keys =
        compare === 'allFieldsExcept'
          ? [...(flats[0]?.keys() ?? [])].filter((k) => !fields.includes(k))
          : [...new Set(flats.flatMap((f) => [...f.keys()]))];
      for (const k of keys) if (flats.some((f) => !f.has(k))) throw missing(k);
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
