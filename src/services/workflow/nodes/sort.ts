// Sort: by fields (ascending/descending), or randomly.
import { isDeepStrictEqual } from 'node:util';
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import { lodashGet } from './util.js';

// n8n's comparison (observed): equal values keep their order, otherwise "less than" as lodash's
// lt says (numbers unless both are strings; undefined is never less). The comparator is not
// consistent for missing values, so the result is whatever V8's sort makes of it, as in n8n.
const toNumber = (v: unknown): number => (typeof v === 'symbol' ? NaN : Number(v));
function lessThan(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a < b;
  return toNumber(a) < toNumber(b);
}
// Text compares in lower case (n8n lowers strings before comparing: "a.b" sorts before "Zoë");
// equal means deeply equal, key order aside, as lodash's isEqual.
const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);
function compare(x: unknown, y: unknown): number {
  const a = lower(x);
  const b = lower(y);
  if (a === b || (typeof a === 'object' && typeof b === 'object' && isDeepStrictEqual(a, b))) return 0;
  return lessThan(a, b) ? -1 : 1;
}

export default {
  types: ['n8n-nodes-base.sort'],
  async execute(ctx) {
    const items = ctx.items.map((it, i) => ({ ...it, pairedItem: { item: i } }));
    const type = ctx.raw<string>('type', 'simple');
    if (type === 'random') {
      for (let i = items.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [items[i], items[j]] = [items[j], items[i]];
      }
      return [items];
    }
    if (type === 'code') {
      // The user's comparator runs in the sandbox, over the items as n8n passes them (a, b).
      const body = ctx.raw<string>('code', 'return 0;');
      const code = `const __compare = (a, b) => {\n${body}\n};\nreturn $input.all().slice().sort(__compare);`;
      return [
        await ctx.expressions.runCode({
          code,
          mode: 'runOnceForAllItems',
          data: ctx.expressionData(0),
          signal: ctx.signal,
        }),
      ];
    }
    if (type !== 'simple') throw new NodeOperationError(`Sort type "${type}" is not supported`);
    const fields = await ctx.param<Array<{ fieldName?: string; order?: string }>>('sortFieldsUi.sortField', 0, []);
    if (!fields?.length) throw new NodeOperationError('No sorting specified. Please add a field to sort by');
    const noDots = await ctx.param<boolean>('options.disableDotNotation', 0, false);
    // Read as lodash's get: a key named with the dots wins, a path reads into text ("a,b" at `tags[0]`).
    const read = (json: Record<string, unknown>, f: string) => (noDots ? json[f] : lodashGet(json, f));
    for (const f of fields) {
      const name = f.fieldName ?? '';
      if (items.length && items.every((it) => read(it.json, name) === undefined))
        throw new NodeOperationError(`Couldn't find the field '${name}' in the input data`);
    }
    items.sort((x, y) => {
      for (const f of fields) {
        const c = compare(read(x.json, f.fieldName ?? ''), read(y.json, f.fieldName ?? ''));
        if (c !== 0) return f.order === 'descending' ? -c : c;
      }
      return 0;
    });
    return [items];
  },
} satisfies NodeType;
