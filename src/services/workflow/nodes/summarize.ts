// Summarize: count, sum, average, min, max, concatenate … fields, optionally split by fields
// (n8n's output names: count_<field>, unique_count_<field>, sum_<field>, …).
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { fieldList, lodashGet } from './util.js';

/** One aggregation of the Summarize node (Item Lists' summarize reads the same fields). */
export interface SummarizeSpec {
  aggregation?: string;
  field?: string;
  separateBy?: string;
  customSeparator?: string;
  includeEmpty?: boolean;
}

const NAMES: Record<string, string> = {
  count: 'count',
  countUnique: 'unique_count',
  sum: 'sum',
  average: 'average',
  min: 'min',
  max: 'max',
  concatenate: 'concatenated',
  append: 'appended',
};

// Observed with the oracle: sum and average take only real numbers (numeric strings are
// skipped); min and max compare any values with < and >. "Empty" values (null, missing, '')
// are left out of every aggregation unless `includeEmpty`; count and countUnique count the rest
// ([], {}, 0 and false count), countUnique telling 0 from "0" and null from missing.
const isEmpty = (v: unknown) => v === undefined || v === null || v === '';
const typedKey = (v: unknown) => (v === undefined ? 'u' : `${typeof v}:${JSON.stringify(v)}`);
const asText = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v));

function aggregate(spec: SummarizeSpec, values: unknown[]): unknown {
  const kept = spec.includeEmpty ? values : values.filter((v) => !isEmpty(v));
  const present = values.filter((v) => v !== undefined && v !== null);
  const nums = () => present.filter((v): v is number => typeof v === 'number');
  switch (spec.aggregation ?? 'count') {
    case 'count':
      return kept.length;
    case 'countUnique': {
      // Objects and arrays are each their own value (a Set of references in n8n: observed).
      let n = 0;
      return new Set(kept.map((v) => (v !== null && typeof v === 'object' ? `object#${n++}` : typedKey(v)))).size;
    }
    case 'sum':
      return nums().reduce((a, b) => a + b, 0);
    case 'average': {
      const n = nums();
      return n.length ? n.reduce((a, b) => a + b, 0) / n.length : null;
    }
    case 'min':
    case 'max': {
      // '' is no value to compare either (observed: min of '' and missing is null).
      const values = present.filter((v) => v !== '');
      if (!values.length) return null;
      return spec.aggregation === 'min'
        ? values.reduce((a, b) => ((b as number) < (a as number) ? b : a))
        : values.reduce((a, b) => ((b as number) > (a as number) ? b : a));
    }
    case 'append':
      return spec.includeEmpty ? values.map((v) => (v === undefined ? null : v)) : present;
    case 'concatenate': {
      // The separator is the option's value itself ("\n", " ", ""), or the custom one for "other".
      const sep =
        spec.separateBy === 'other'
          ? (spec.customSeparator ?? '')
          : spec.separateBy === 'newline'
            ? '\n'
            : (spec.separateBy ?? ',');
      return kept.map(asText).join(sep);
    }
  }
  throw new NodeOperationError(`Aggregation "${spec.aggregation}" is not supported`);
}

interface Group {
  /** The split fields' values as the output shows them (absent: the item lacked the field, v1.1). */
  keys: Record<string, unknown>;
  items: Array<{ item: Item; index: number }>;
}

/**
 * The groups, nested field by field as n8n builds them: first by the first split field (in the
 * order its values first appear), then within each by the next. v1 names a group by its value
 * as text (a missing value is "undefined"); v1.1 keeps numbers, booleans and null as they are,
 * objects as JSON text, and leaves a missing value out.
 */
function groupItems(
  items: Item[],
  splitBy: string[],
  read: (json: Record<string, unknown>, f: string) => unknown,
  typed: boolean,
  skipEmpty = false,
): { groups: Group[]; root: GroupNode } {
  type Node = GroupNode;
  const root: Node = { name: '', children: new Map() };
  const order: Group[] = [];
  items.forEach((item, index) => {
    let at = root;
    const keys: Record<string, unknown> = {};
    for (const f of splitBy) {
      const v = read(item.json, f);
      // skipEmptySplitFields leaves out an item whose split value, as n8n keys it (objects as
      // JSON, v1 everything as text), is falsy and no number: v1's "undefined" is kept.
      const key = v && typeof v === 'object' ? JSON.stringify(v) : v;
      if (skipEmpty && typeof (typed ? key : String(key)) !== 'number' && !(typed ? key : String(key))) return;
      const name = v === undefined ? 'undefined' : asText(v);
      if (!typed) keys[f] = name;
      else if (v !== undefined) keys[f] = v !== null && typeof v === 'object' ? name : v;
      const id = typed ? typedKey(v) : name;
      let next = at.children.get(id);
      if (!next) at.children.set(id, (next = { name, children: new Map() }));
      at = next;
    }
    if (!at.group) at.group = { keys, items: [] };
    at.group.items.push({ item, index });
  });
  const walk = (n: Node) => {
    if (n.group) order.push(n.group);
    for (const child of n.children.values()) walk(child);
  };
  walk(root);
  return { groups: order, root };
}

/**
 * The split tree: a value's node exists once an item reached it, even when every such item was
 * then skipped at a deeper split field (skipEmptySplitFields); the single item shows it as {}.
 */
interface GroupNode {
  name: string;
  group?: Group;
  children: Map<string, GroupNode>;
}

export default {
  types: ['n8n-nodes-base.summarize'],
  async execute(ctx) {
    const specs = await ctx.param<SummarizeSpec[]>('fieldsToSummarize.values', 0, [
      { aggregation: 'count', field: '' },
    ]);
    // n8n wants one aggregation whose field is not '' (an absent field is '').
    if (!specs.some((spec) => (spec.field ?? '') !== ''))
      throw new NodeOperationError(
        "You need to add at least one aggregation to 'Fields to Summarize' with non empty 'Field'",
      );
    const splitBy = fieldList(await ctx.param('fieldsToSplitBy', 0, ''));
    const noDots = await ctx.param<boolean>('options.disableDotNotation', 0, false);
    // With dot notation a key that contains the dots literally wins over the nested path (as lodash's get).
    // An empty field reads nothing (not the whole item).
    const read = (json: Record<string, unknown>, f: string) =>
      f === '' ? undefined : noDots ? json[f] : lodashGet(json, f);
    // A field no item has fails the node, unless told to go on (Summarize from 1.1 and Item Lists
    // from 2.1 always go on: observed); an empty field is not looked for.
    const goOn =
      (await ctx.param<boolean>('options.continueIfFieldNotFound', 0, false)) ||
      ctx.typeVersion >= (ctx.node.type === 'n8n-nodes-base.itemLists' ? 2.1 : 1.1);
    for (const spec of goOn ? [] : specs) {
      const field = spec.field ?? '';
      if (field === '') continue;
      if (ctx.items.length && !ctx.items.some((it) => read(it.json, field) !== undefined))
        throw new NodeOperationError(`The field '${field}' does not exist in any items`);
    }
    // Summarize 1.1 and Item Lists 3 keep the split values' types; Summarize 1 and Item Lists 1–2.x do not.
    const typed = ctx.node.type === 'n8n-nodes-base.summarize' ? ctx.typeVersion >= 1.1 : ctx.typeVersion >= 3;
    const { groups, root } = groupItems(
      ctx.items,
      splitBy,
      read,
      typed,
      await ctx.param<boolean>('options.skipEmptySplitFields', 0, false),
    );
    if (!groups.length && !splitBy.length) groups.push({ keys: {}, items: [] });
    // Dots in a field's path become underscores in the output's names, brackets go (observed:
    // `sum_m_v`, `p_q`, `sum_tags0`).
    const name = (field: string) => field.replace(/\./g, '_').replace(/[[\]]/g, '');
    const summary = (g: Group) =>
      Object.fromEntries(
        specs.map((spec) => [
          `${NAMES[spec.aggregation ?? 'count'] ?? spec.aggregation}_${name(spec.field ?? '')}`,
          aggregate(
            spec,
            g.items.map(({ item }) => read(item.json, spec.field ?? '')),
          ),
        ]),
      );
    if ((await ctx.param('options.outputFormat', 0, 'separateItems')) === 'singleItem' && splitBy.length) {
      // One item, keyed by the groups' values as text (nested, one level per split field), each
      // holding its aggregates.
      const build = (n: GroupNode): Record<string, unknown> => {
        if (n.group) return summary(n.group);
        const out: Record<string, unknown> = {};
        for (const child of n.children.values()) out[child.name] = build(child);
        return out;
      };
      return [[{ json: build(root), pairedItem: ctx.items.map((_, i) => ({ item: i })) }]];
    }
    const keyed = (g: Group) => Object.fromEntries(Object.entries(g.keys).map(([f, v]) => [name(f), v]));
    return [
      groups.map((g) => ({
        json: { ...keyed(g), ...summary(g) },
        pairedItem: g.items.map(({ index }) => ({ item: index })),
      })),
    ];
  },
} satisfies NodeType;
