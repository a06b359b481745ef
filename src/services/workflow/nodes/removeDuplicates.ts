// Remove Duplicates: within the input (all fields, all but some, or selected fields), or
// against values seen in earlier executions (kept in the workflow's static data).
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { fieldList, readPath } from './util.js';

function stable(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'undefined';
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  return `{${Object.keys(v as object).sort().map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`).join(',')}}`;
}

export default {
  types: ['n8n-nodes-base.removeDuplicates'],
  async execute(ctx) {
    const operation = ctx.typeVersion >= 2 ? ctx.raw<string>('operation', 'removeDuplicateInputItems') : 'removeDuplicateInputItems';
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
        out.push({ ...ctx.items[i]!, pairedItem: { item: i } });
      }
      ctx.staticData.node.seen = [...seen].slice(-limit);
      return [out];
    }
    if (operation !== 'removeDuplicateInputItems') throw new NodeOperationError(`Operation "${operation}" is not supported`);
    const compare = ctx.raw<string>('compare', 'allFields');
    const fields = fieldList(await ctx.param(compare === 'selectedFields' ? 'fieldsToCompare' : 'fieldsToExclude', 0, ''));
    const keyOf = (json: Record<string, unknown>) => {
      if (compare === 'selectedFields') return stable(fields.map((f) => readPath(json, f)));
      if (compare === 'allFieldsExcept') return stable(Object.fromEntries(Object.entries(json).filter(([k]) => !fields.includes(k))));
      return stable(json);
    };
    const seen = new Set<string>();
    const out: Item[] = [];
    ctx.items.forEach((it, i) => {
      const k = keyOf(it.json);
      if (seen.has(k)) return;
      seen.add(k);
      out.push({ ...it, pairedItem: { item: i } });
    });
    return [out];
  },
} satisfies NodeType;
