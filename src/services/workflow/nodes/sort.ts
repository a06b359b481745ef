// Sort: by fields (ascending/descending), or randomly.
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import { readPath } from './util.js';

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return 1;
  if (b === undefined || b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

export default {
  types: ['n8n-nodes-base.sort'],
  async execute(ctx) {
    const items = ctx.items.map((it, i) => ({ ...it, pairedItem: { item: i } }));
    const type = ctx.raw<string>('type', 'simple');
    if (type === 'random') {
      for (let i = items.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [items[i], items[j]] = [items[j]!, items[i]!];
      }
      return [items];
    }
    if (type !== 'simple') throw new NodeOperationError(`Sort type "${type}" is not supported`);
    const fields = await ctx.param<Array<{ fieldName?: string; order?: string }>>('sortFieldsUi.sortField', 0, []);
    const noDots = await ctx.param<boolean>('options.disableDotNotation', 0, false);
    const read = (json: Record<string, unknown>, f: string) => (noDots ? json[f] : readPath(json, f));
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
