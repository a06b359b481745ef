// Switch: routes items by rules. v3.x: one output per rule (filter format), optional fallback
// output, first or all matching rules; or an expression giving the output index. v1/v2:
// rules on one value with an operation each.
import { evaluateFilter, type FilterValue } from '../engine/filter.js';
import { NodeOperationError, type NodeContext, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { compareLegacy, legacyDateTime, legacyField } from './legacy-compare.js';
import type { WorkflowNode } from '../engine/types.js';

function outputCount(node: WorkflowNode): number {
  const p = (node.parameters ?? {}) as Record<string, any>;
  const version = Number(node.typeVersion ?? 1);
  if (version < 3) {
    if (version < 2) return 4;
    // v2: one output per rule (none without rules), or `outputsAmount` as `new Array()` reads it.
    if (p.mode !== 'expression') return (p.rules?.rules ?? []).length;
    // (An expression is only known per item: its count is left at the default.)
    const amount: unknown = p.outputsAmount ?? 4;
    if (typeof amount === 'string' && amount.startsWith('=')) return 4;
    return typeof amount === 'number' ? amount : 1;
  }
  if (p.mode === 'expression') return Number(p.numberOutputs ?? 4);
  const rules = p.rules === undefined ? 1 : (p.rules?.values?.length ?? 0);
  return rules + (p.options?.fallbackOutput === 'extra' ? 1 : 0);
}

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
  const hits: number[] = [];
  for (let r = 0; r < rules.length; r++) {
    const filter = await ctx.param<FilterValue>(`rules.values.${r}.conditions`, i, {});
    if (evaluateFilter(filter, { itemIndex: i })) {
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

// n8n's parameter defaults per data type: value1 when the node leaves it out, a rule's operation
// and value2 when the rule does.
const LEGACY_DEFAULTS: Record<string, { operation: string; value2: unknown; missing: unknown }> = {
  number: { operation: 'smaller', value2: 0, missing: 0 },
  string: { operation: 'equal', value2: '', missing: '' },
  boolean: { operation: 'equal', value2: false, missing: false },
  dateTime: { operation: 'after', value2: 0, missing: '' },
};

type LegacyRule = { operation?: string; value2?: unknown; output?: unknown };

/** `new Array(n)` as JavaScript makes it: a number must be a valid length, anything else is one element. */
function emptyOutputs(n: unknown): Item[][] {
  if (typeof n !== 'number') return [[]];
  if (!Number.isInteger(n) || n < 0 || n > 2 ** 32 - 1) throw new NodeOperationError('Invalid array length');
  return Array.from({ length: n }, () => []);
}

/**
 * Switch v1/v2 as n8n runs them: v1 always has four outputs; v2 makes its outputs when it reads
 * the first item (one per rule, or `outputsAmount`), so a run with no items has none. An output
 * index is checked against the range only as JavaScript compares (a text or a fraction passes),
 * then an index that names no output fails on the missing list, in n8n's words. A failing item
 * under continueOnFail becomes an error item on the first output.
 */
async function executeLegacy(ctx: NodeContext): Promise<Item[][]> {
  const v2 = ctx.typeVersion >= 2;
  let outs: Item[][] = v2 ? [] : [[], [], [], []];
  const checkRange = (index: unknown) => {
    const n = index as number;
    if (n < 0 || n >= outs.length)
      throw new NodeOperationError(
        `The ouput ${String(index)} is not allowed. It has to be between 0 and ${outs.length - 1}!`,
      );
  };
  const pushTo = (index: unknown, item: Item) => {
    const out = (outs as unknown as Record<string, Item[] | undefined>)[String(index)];
    if (!out) throw new NodeOperationError("Cannot read properties of undefined (reading 'push')");
    out.push(item);
  };
  items: for (let i = 0; i < ctx.items.length; i++) {
    const item: Item = { ...ctx.items[i], pairedItem: { item: i } };
    try {
      const rules = await ctx.param<LegacyRule[]>('rules.rules', i, []);
      const mode = await ctx.param<string>('mode', i, 'rules');
      if (mode === 'expression') {
        if (v2) {
          const amount = await ctx.param<unknown>('outputsAmount', i, 4);
          if (i === 0) outs = emptyOutputs(amount);
        }
        // v2's output is a text field whose default '' names no output.
        const o = await ctx.param<unknown>('output', i, v2 ? '' : 0);
        checkRange(o);
        pushTo(o, item);
      } else if (mode === 'rules') {
        if (v2 && i === 0) outs = emptyOutputs(rules.length);
        const dataType = await ctx.param<string>('dataType', 0, 'number');
        const d = LEGACY_DEFAULTS[dataType] ?? LEGACY_DEFAULTS.number;
        const written = ctx.raw<unknown>('value1', undefined);
        const resolved = written === undefined || written === null ? written : await ctx.param('value1', i);
        let value1 = legacyField(written, resolved, dataType, d.missing);
        // A dateTime switch reads value1 as a date before any rule, and each rule's value2 as it comes.
        if (dataType === 'dateTime') value1 = legacyDateTime(value1);
        const writtenRules = ctx.raw<LegacyRule[]>('rules.rules', []);
        for (let r = 0; r < rules.length; r++) {
          const rule = rules[r] ?? {};
          const writtenRule = writtenRules[r] ?? {};
          let value2 = legacyField(writtenRule.value2, rule.value2, dataType, d.value2);
          if (dataType === 'dateTime') value2 = legacyDateTime(value2);
          const operation = writtenRule.operation === undefined ? d.operation : (rule.operation as string);
          if (!compareLegacy(operation, value1, value2)) continue;
          // v1 sends a match to the rule's `output` (default 0); v2 checks that key when a rule has
          // one, yet sends the item to the rule's own position.
          const output = v2 ? rule.output : (rule.output ?? 0);
          checkRange(output);
          pushTo(v2 ? r : output, item);
          continue items;
        }
        const fallback = await ctx.param<unknown>('fallbackOutput', i, -1);
        if (fallback !== -1) {
          checkRange(fallback);
          pushTo(fallback, item);
        }
      }
    } catch (err) {
      if (!ctx.continueOnFail) throw err;
      pushTo(0, { json: { error: (err as Error).message }, pairedItem: { item: i } });
    }
  }
  return outs;
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
    if (ctx.typeVersion < 3) return executeLegacy(ctx);
    const count = outputCount(ctx.node);
    const outs: Item[][] = Array.from({ length: count }, () => []);
    for (let i = 0; i < ctx.items.length; i++) {
      const targets = await routeV3(ctx, i, count);
      for (const t of targets) outs[t]?.push({ ...ctx.items[i], pairedItem: { item: i } });
    }
    return outs;
  },
} satisfies NodeType;
