// IF: routes each item to output 0 (true) or 1 (false).
// v1: typed condition lists (number/string/boolean/dateTime) with all/any.
// v2+: the shared filter format.
import { evaluateFilter, type FilterValue } from '../engine/filter.js';
import type { NodeContext, NodeType } from '../engine/node-type.js';
import { compareLegacy, legacyDateTime, legacyField } from './legacy-compare.js';
import type { Item } from '../expressions/api.js';

interface V1Condition {
  value1?: unknown;
  operation?: string;
  value2?: unknown;
}

// The fields' defaults n8n fills in (observed: a string condition without value1 compares '').
const V1_DEFAULTS: Record<string, { value1: unknown; operation: string; value2: unknown }> = {
  boolean: { value1: false, operation: 'equal', value2: false },
  number: { value1: 0, operation: 'smaller', value2: 0 },
  string: { value1: '', operation: 'equal', value2: '' },
  dateTime: { value1: '', operation: 'after', value2: '' },
};

/**
 * IF v1 and Filter v1: the condition lists are walked type by type (boolean, dateTime, number,
 * string), each in order, stopping at the first condition that decides: a true one under
 * "any"/OR, a false one under "all"/AND. A combine mode that is neither decides nothing and the
 * item fails. A dateTime condition reads both its values as dates first, so an unreadable one
 * fails the node, but only once the walk reaches it.
 */
async function matchV1(ctx: NodeContext, i: number, combine: { any: boolean; all: boolean }): Promise<boolean> {
  const lists = ctx.raw<Record<string, V1Condition[]>>('conditions', {});
  for (const type of ['boolean', 'dateTime', 'number', 'string']) {
    const list = Array.isArray(lists[type]) ? lists[type] : [];
    for (let c = 0; c < list.length; c++) {
      const cond = await ctx.param<V1Condition>(`conditions.${type}.${c}`, i, {});
      const d = V1_DEFAULTS[type];
      const written = list[c] ?? {};
      const operation = written.operation === undefined ? d.operation : (cond.operation as string);
      let value1 = legacyField(written.value1, cond.value1, type, d.value1);
      let value2 = legacyField(written.value2, cond.value2, type, d.value2);
      if (type === 'dateTime') {
        value1 = legacyDateTime(value1);
        value2 = legacyDateTime(value2);
      }
      const ok = compareLegacy(operation, value1, value2);
      if (ok && combine.any) return true;
      if (!ok && combine.all) return false;
    }
  }
  return combine.all;
}

async function itemMatchesFilter(ctx: NodeContext, i: number, path = 'conditions'): Promise<boolean> {
  const filter = await ctx.param<FilterValue>(path, i, {});
  return evaluateFilter(filter, { itemIndex: i });
}

/**
 * Routes every item to a first (passes) or second (fails) output. v1 fails the node on a bad
 * condition (with continueOnFail the engine's handling applies); v2+ sends such an item to the
 * second output under continueOnFail.
 */
export async function splitItems(ctx: NodeContext, combine: { any: boolean; all: boolean }): Promise<Item[][]> {
  const yes: Item[] = [];
  const no: Item[] = [];
  for (let i = 0; i < ctx.items.length; i++) {
    let ok: boolean;
    if (ctx.typeVersion < 2) ok = await matchV1(ctx, i, combine);
    else
      try {
        ok = await itemMatchesFilter(ctx, i);
      } catch (err) {
        if (!ctx.continueOnFail) throw err;
        ok = false;
      }
    (ok ? yes : no).push({ ...ctx.items[i], pairedItem: { item: i } });
  }
  return [yes, no];
}

export default {
  types: ['n8n-nodes-base.if'],
  outputs: () => 2,
  execute(ctx) {
    const mode = ctx.raw('combineOperation', 'all');
    return splitItems(ctx, { any: mode === 'any', all: mode === 'all' });
  },
} satisfies NodeType;
