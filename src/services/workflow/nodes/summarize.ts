// Summarize: count, sum, average, min, max, concatenate … fields, optionally split by fields
// (n8n's output names: count_<field>, unique_count_<field>, sum_<field>, …).
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { fieldList, readPath } from './util.js';

interface Spec {
  aggregation?: string;
  field?: string;
  separateBy?: string;
  customSeparator?: string;
  includeEmpty?: boolean;
}

const NAMES: Record<string, string> = {
  count: 'count', countUnique: 'unique_count', sum: 'sum', average: 'average', min: 'min', max: 'max', concatenate: 'concatenated', append: 'appended',
};

// Observed with the oracle: sum and average take only real numbers (numeric strings are
// skipped); min and max compare any values with < and >; null and missing values are skipped.
function aggregate(spec: Spec, values: unknown[]): unknown {
  const present = values.filter((v) => v !== undefined && v !== null);
  const nums = () => present.filter((v): v is number => typeof v === 'number');
  switch (spec.aggregation ?? 'count') {
    case 'count': return present.length;
    case 'countUnique': return new Set(present.filter((v) => v !== '').map((v) => JSON.stringify(v))).size;
    case 'sum': return nums().reduce((a, b) => a + b, 0);
    case 'average': { const n = nums(); return n.length ? n.reduce((a, b) => a + b, 0) / n.length : null; }
    case 'min': return present.length ? present.reduce((a, b) => ((b as number) < (a as number) ? b : a)) : null;
    case 'max': return present.length ? present.reduce((a, b) => ((b as number) > (a as number) ? b : a)) : null;
    case 'append': return spec.includeEmpty ? values.map((v) => (v === undefined ? null : v)) : present;
    case 'concatenate': {
      const sep = spec.separateBy === 'other' ? (spec.customSeparator ?? '') : spec.separateBy === 'newline' ? '\n' : spec.separateBy === ', ' ? ', ' : ',';
      return (spec.includeEmpty ? values : present.filter((v) => v !== '')).map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(sep);
    }
  }
  throw new NodeOperationError(`Aggregation "${spec.aggregation}" is not supported`);
}

export default {
  types: ['n8n-nodes-base.summarize'],
  async execute(ctx) {
    const specs = await ctx.param<Spec[]>('fieldsToSummarize.values', 0, [{ aggregation: 'count', field: '' }]);
    const splitBy = fieldList(await ctx.param('fieldsToSplitBy', 0, ''));
    const noDots = await ctx.param<boolean>('options.disableDotNotation', 0, false);
    const read = (json: Record<string, unknown>, f: string) => (noDots ? json[f] : readPath(json, f));
    for (const spec of specs) {
      const field = spec.field ?? '';
      if (ctx.items.length && !ctx.items.some((it) => read(it.json, field) !== undefined)) throw new NodeOperationError(`The field '${field}' does not exist in any items`);
    }
    // Groups are named by their values as text: missing → "undefined", objects as JSON.
    const asText = (v: unknown) => (v === undefined ? 'undefined' : v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v));
    const groups = new Map<string, { keys: Record<string, unknown>; items: Array<{ item: Item; index: number }> }>();
    ctx.items.forEach((item, index) => {
      const keys = Object.fromEntries(splitBy.map((f) => [f, asText(read(item.json, f))]));
      const k = JSON.stringify(splitBy.map((f) => keys[f]));
      const g = groups.get(k) ?? { keys, items: [] };
      g.items.push({ item, index });
      groups.set(k, g);
    });
    if (!groups.size) groups.set('[]', { keys: {}, items: [] });
    type Group = typeof groups extends Map<string, infer G> ? G : never;
    // Dots in a field's path become underscores in the aggregate's name (observed: `sum_m_v`).
    const name = (field: string) => (noDots ? field : field.replace(/\./g, '_'));
    const summary = (g: Group) =>
      Object.fromEntries(specs.map((spec) => [`${NAMES[spec.aggregation ?? 'count'] ?? spec.aggregation}_${name(spec.field ?? '')}`, aggregate(spec, g.items.map(({ item }) => read(item.json, spec.field ?? '')))]));
    if (await ctx.param('options.outputFormat', 0, 'separateItems') === 'singleItem' && splitBy.length) {
      // One item, keyed by the groups' values (nested, one level per split field), each holding
      // its aggregates.
      const json: Record<string, unknown> = {};
      for (const g of groups.values()) {
        let at = json;
        for (const f of splitBy) at = (at[g.keys[f] as string] ??= {}) as Record<string, unknown>;
        Object.assign(at, summary(g));
      }
      return [[{ json, pairedItem: ctx.items.map((_, i) => ({ item: i })) }]];
    }
    return [[...groups.values()].map((g) => ({ json: { ...g.keys, ...summary(g) }, pairedItem: g.items.map(({ index }) => ({ item: index })) }))];
  },
} satisfies NodeType;
