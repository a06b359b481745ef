// IF: routes each item to output 0 (true) or 1 (false).
// v1: typed condition lists (number/string/boolean/dateTime) with all/any.
// v2+: the shared filter format.
import { evaluateFilter, type FilterValue } from '../engine/filter.js';
import { NodeOperationError, type NodeContext, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';

interface V1Condition {
  value1?: unknown;
  operation?: string;
  value2?: unknown;
}

const V1_DEFAULTS: Record<string, { operation: string; value2: unknown }> = {
  boolean: { operation: 'equal', value2: false },
  number: { operation: 'smaller', value2: 0 },
  string: { operation: 'equal', value2: '' },
  dateTime: { operation: 'after', value2: '' },
};

/** v1 calls value1.startsWith/endsWith directly: what JavaScript says for a value that is no string (observed). */
function stringOnly(a: unknown, method: string): string {
  if (typeof a === 'string') return a;
  if (a === undefined || a === null)
    throw new NodeOperationError(`Cannot read properties of ${a} (reading '${method}')`);
  throw new NodeOperationError(`value1.${method} is not a function`);
}

function compareV1(type: string, op: string, a: unknown, b: unknown): boolean {
  const isEmpty = (v: unknown) =>
    v === undefined || v === null || v === '' || (typeof v === 'number' && Number.isNaN(v));
  switch (op) {
    case 'equal':
      return a === b;
    case 'notEqual':
      return a !== b;
    case 'smaller':
      return (a as number) < (b as number);
    case 'smallerEqual':
      return (a as number) <= (b as number);
    case 'larger':
      return (a as number) > (b as number);
    case 'largerEqual':
      return (a as number) >= (b as number);
    case 'contains':
      return String(a ?? '').includes(String(b ?? ''));
    case 'notContains':
      return !String(a ?? '').includes(String(b ?? ''));
    case 'startsWith':
      return stringOnly(a, 'startsWith').startsWith(String(b ?? ''));
    case 'notStartsWith':
      return !stringOnly(a, 'startsWith').startsWith(String(b ?? ''));
    case 'endsWith':
      return stringOnly(a, 'endsWith').endsWith(String(b ?? ''));
    case 'notEndsWith':
      return !stringOnly(a, 'endsWith').endsWith(String(b ?? ''));
    case 'isEmpty':
      return isEmpty(a);
    case 'isNotEmpty':
      return !isEmpty(a);
    case 'regex':
    case 'notRegex': {
      const m = /^\/(.*)\/([gimusy]*)$/.exec(String(b ?? ''));
      const re = m ? new RegExp(m[1], m[2]) : new RegExp(String(b ?? ''));
      return re.test(String(a ?? '')) === (op === 'regex');
    }
    case 'after':
    case 'before': {
      const ta = new Date(a as string).getTime();
      const tb = new Date(b as string).getTime();
      return op === 'after' ? ta > tb : ta < tb;
    }
  }
  throw new NodeOperationError(`Unknown ${type} operation "${op}"`);
}

export async function matchV1(ctx: NodeContext, i: number): Promise<boolean> {
  // IF v1 says `combineOperation: any`, Filter v1 `combineConditions: OR`.
  const any = ctx.raw('combineOperation', 'all') === 'any' || ctx.raw('combineConditions', 'AND') === 'OR';
  const all = ctx.raw<Record<string, V1Condition[]>>('conditions', {});
  for (const type of ['boolean', 'dateTime', 'number', 'string']) {
    const list = all[type] ?? [];
    for (let c = 0; c < list.length; c++) {
      const cond = await ctx.param<V1Condition>(`conditions.${type}.${c}`, i, {});
      const d = V1_DEFAULTS[type];
      const ok = compareV1(type, cond.operation ?? d.operation, cond.value1, 'value2' in cond ? cond.value2 : d.value2);
      if (any && ok) return true;
      if (!any && !ok) return false;
    }
  }
  // No conditions: every one of none holds, any one of none does not (observed: "any" and "OR"
  // send every item to false).
  return !any;
}

export async function itemMatchesFilter(ctx: NodeContext, i: number, path = 'conditions'): Promise<boolean> {
  const filter = await ctx.param<FilterValue>(path, i, {});
  const loose =
    ctx.raw<boolean>('looseTypeValidation', false) || ctx.raw<boolean>('options.looseTypeValidation', false);
  return evaluateFilter(filter, { loose, ignoreCase: ctx.raw<boolean>('options.ignoreCase', false), itemIndex: i });
}

export default {
  types: ['n8n-nodes-base.if'],
  outputs: () => 2,
  async execute(ctx) {
    const yes: Item[] = [];
    const no: Item[] = [];
    for (let i = 0; i < ctx.items.length; i++) {
      const item = ctx.items[i];
      let ok: boolean;
      try {
        ok = await (ctx.typeVersion >= 2 ? itemMatchesFilter(ctx, i) : matchV1(ctx, i));
      } catch (err) {
        if (!ctx.continueOnFail) throw err;
        ok = false;
      }
      (ok ? yes : no).push({ ...item, pairedItem: { item: i } });
    }
    return [yes, no];
  },
} satisfies NodeType;
