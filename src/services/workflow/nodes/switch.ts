// Switch: routes items by rules. v3.x: one output per rule (filter format), optional fallback
// output, first or all matching rules; or an expression giving the output index. v1/v2:
// rules on one value with an operation each.
import { evaluateFilter, type FilterValue } from '../engine/filter.js';
import { NodeOperationError, type NodeContext, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import type { WorkflowNode } from '../engine/types.js';

function outputCount(node: WorkflowNode): number {
  const p = (node.parameters ?? {}) as Record<string, any>;
  const version = Number(node.typeVersion ?? 1);
  if (version < 3) {
    if (version < 2) return 4;
    // v2: one output per rule, by position (a rule's old `output` key is ignored: observed).
    return p.mode === 'expression' ? Number(p.outputsAmount ?? 4) : Math.max(1, (p.rules?.rules ?? []).length);
  }
  if (p.mode === 'expression') return Number(p.numberOutputs ?? 4);
  const rules = p.rules === undefined ? 1 : (p.rules?.values?.length ?? 0);
  return rules + (p.options?.fallbackOutput === 'extra' ? 1 : 0);
}

const LEGACY: Record<string, (a: any, b: any) => boolean> = {
  equal: (a, b) => a === b,
  notEqual: (a, b) => a !== b,
  smaller: (a, b) => a < b,
  smallerEqual: (a, b) => a <= b,
  larger: (a, b) => a > b,
  largerEqual: (a, b) => a >= b,
  contains: (a, b) => String(a).includes(String(b)),
  notContains: (a, b) => !String(a).includes(String(b)),
  startsWith: (a, b) => String(a).startsWith(String(b)),
  endsWith: (a, b) => String(a).endsWith(String(b)),
  regex: (a, b) => new RegExp(String(b).replace(/^\/(.*)\/\w*$/, '$1')).test(String(a)),
  after: (a, b) => new Date(a).getTime() > new Date(b).getTime(),
  before: (a, b) => new Date(a).getTime() < new Date(b).getTime(),
};

async function routeV3(ctx: NodeContext, i: number, outputs: number): Promise<number[]> {
  if (ctx.raw('mode', 'rules') === 'expression') {
    // The output's default is the expression "={{}}", which n8n cannot read (observed).
    if (ctx.raw<unknown>('output', undefined) === undefined) throw new NodeOperationError('invalid syntax');
    const o = Number(await ctx.param('output', i, 0));
    if (!Number.isInteger(o) || o < 0 || o >= outputs)
      throw new NodeOperationError(`The output ${o} is not allowed. It has to be between 0 and ${outputs - 1}!`);
    return [o];
  }
  // No `rules` at all is n8n's default: one rule whose condition ('' equals '') every item meets.
  if (ctx.raw<unknown>('rules', undefined) === undefined) return [0];
  const rules = ctx.raw<Array<unknown>>('rules.values', []);
  const all = await ctx.param<boolean>('options.allMatchingOutputs', i, false);
  // Switch reads its loose validation from the options only (a top-level key is ignored, observed).
  const loose = ctx.raw<boolean>('options.looseTypeValidation', false);
  const ignoreCase = ctx.raw<boolean>('options.ignoreCase', false);
  const hits: number[] = [];
  for (let r = 0; r < rules.length; r++) {
    const filter = await ctx.param<FilterValue>(`rules.values.${r}.conditions`, i, {});
    if (evaluateFilter(filter, { loose, ignoreCase, itemIndex: i })) {
      hits.push(r);
      if (!all) break;
    }
  }
  if (hits.length) return hits;
  const fallback = ctx.raw<unknown>('options.fallbackOutput', 'none');
  if (fallback === 'extra') return [rules.length];
  if (fallback !== 'none' && fallback !== undefined && fallback !== '' && Number(fallback) >= 0)
    return [Number(fallback)];
  return [];
}

// A rule's defaults per data type (its operation and value2 when the rule leaves them out, as
// n8n's parameter defaults), and what a value1 that resolves to nothing compares as (observed:
// a missing number is below 2 yet not equal to 0, as null is).
const LEGACY_DEFAULTS: Record<string, { operation: string; value2: unknown; missing: unknown }> = {
  number: { operation: 'smaller', value2: 0, missing: null },
  string: { operation: 'equal', value2: '', missing: '' },
  boolean: { operation: 'equal', value2: false, missing: false },
  dateTime: { operation: 'after', value2: '', missing: '' },
};

async function routeLegacy(ctx: NodeContext, i: number): Promise<number[]> {
  const routes = await routeLegacyRaw(ctx, i);
  // v2 has as many outputs as its rules name; n8n's message (with its spelling) for any other.
  const count = outputCount(ctx.node);
  if (ctx.typeVersion >= 2)
    for (const o of routes)
      if (o >= count)
        throw new NodeOperationError(`The ouput ${o} is not allowed. It has to be between 0 and ${count - 1}!`);
  return routes;
}

async function routeLegacyRaw(ctx: NodeContext, i: number): Promise<number[]> {
  if (ctx.raw('mode', 'rules') === 'expression') return [Number(await ctx.param('output', i, 0))];
  const defaults = LEGACY_DEFAULTS[ctx.raw<string>('dataType', 'number')] ?? LEGACY_DEFAULTS.number;
  const value1 = (await ctx.param<unknown>('value1', i, undefined)) ?? defaults.missing;
  const rules = ctx.raw<Array<unknown>>('rules.rules', []);
  for (let r = 0; r < rules.length; r++) {
    const rule = await ctx.param<{ operation?: string; value2?: unknown; output?: number }>(`rules.rules.${r}`, i, {});
    const cmp = LEGACY[rule.operation ?? defaults.operation];
    // v1 sends a match to the rule's `output` (default 0); v2 to the rule's own position.
    if (cmp?.(value1, 'value2' in rule ? rule.value2 : defaults.value2))
      return [ctx.typeVersion >= 2 ? r : Number(rule.output ?? 0)];
  }
  const fallback = ctx.raw<unknown>('fallbackOutput', -1);
  // v2 has no "extra" fallback output: n8n fails on the missing output list (its words, observed).
  if (fallback === 'extra') throw new NodeOperationError("Cannot read properties of undefined (reading 'push')");
  const fb = Number(fallback);
  return fb >= 0 ? [fb] : [];
}

export default {
  types: ['n8n-nodes-base.switch'],
  outputs: outputCount,
  async execute(ctx) {
    // v3's expression mode makes an array of `numberOutputs` outputs: a fraction or a negative
    // number fails as JavaScript's Array does (observed).
    if (ctx.typeVersion >= 3 && ctx.raw('mode', 'rules') === 'expression') {
      const n = Number(ctx.raw('numberOutputs', 4));
      if (!Number.isInteger(n) || n < 0) throw new NodeOperationError('Invalid array length');
    }
    const count = outputCount(ctx.node);
    const outs: Item[][] = Array.from({ length: count }, () => []);
    for (let i = 0; i < ctx.items.length; i++) {
      const targets = await (ctx.typeVersion >= 3 ? routeV3(ctx, i, count) : routeLegacy(ctx, i));
      for (const t of targets) outs[t]?.push({ ...ctx.items[i], pairedItem: { item: i } });
    }
    return outs;
  },
} satisfies NodeType;
