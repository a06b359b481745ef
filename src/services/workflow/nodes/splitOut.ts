// Split Out: one item per element of an array field. Observed with the oracle (n8n 2.8.4):
// several fields are zipped by position, each under its own name as written ("data.list");
// a field found by neither path nor literal key gives no items (no error); an object splits
// into its values; a lone object element (one field, no destination) becomes the item.
import type { NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { clone, deletePath, fieldList, isPlainObject, readPath, writePath } from './util.js';

export default {
  types: ['n8n-nodes-base.splitOut'],
  async execute(ctx) {
    const out: Item[] = [];
    for (let i = 0; i < ctx.items.length; i++) {
      const json = ctx.items[i]!.json;
      const fields = fieldList(await ctx.param<string>('fieldToSplitOut', i, ''));
      const include = ctx.raw<string>('include', 'noOtherFields');
      const dest = await ctx.param<string>('options.destinationFieldName', i, '');
      const noDots = await ctx.param<boolean>('options.disableDotNotation', i, false);
      const read = (f: string) => (noDots ? json[f] : readPath(json, f) ?? json[f]);
      const lists = fields.map((field) => {
        const value = read(field);
        if (value === undefined) return undefined;
        return Array.isArray(value) ? value : isPlainObject(value) ? Object.values(value) : [value];
      });
      if (lists.every((l) => l === undefined)) continue;
      const count = Math.max(...lists.map((l) => l?.length ?? 0));
      for (let k = 0; k < count; k++) {
        let base: Record<string, unknown> = {};
        if (include === 'allOtherFields') {
          base = clone(json);
          for (const f of fields) {
            if (noDots || f in base) delete base[f];
            else deletePath(base, f);
          }
        } else if (include === 'selectedOtherFields') {
          for (const f of fieldList(await ctx.param('fieldsToInclude', i, ''))) {
            const v = noDots ? json[f] : readPath(json, f);
            if (v !== undefined) writePath(base, f, clone(v));
          }
        }
        fields.forEach((field, j) => {
          const list = lists[j];
          if (!list || k >= list.length) return;
          const element = list[k];
          if (fields.length === 1 && !dest && isPlainObject(element)) Object.assign(base, clone(element));
          else base[fields.length === 1 && dest ? dest : field] = clone(element);
        });
        out.push({ json: base, pairedItem: { item: i } });
      }
    }
    return [out];
  },
} satisfies NodeType;
