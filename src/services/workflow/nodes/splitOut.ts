// Split Out: one item per element of an array field.
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { clone, deletePath, fieldList, isPlainObject, readPath, writePath } from './util.js';

export default {
  types: ['n8n-nodes-base.splitOut'],
  async execute(ctx) {
    const out: Item[] = [];
    let found = false;
    const fieldsRaw = await ctx.param<string>('fieldToSplitOut', 0, '');
    for (let i = 0; i < ctx.items.length; i++) {
      const json = ctx.items[i]!.json;
      const fields = fieldList(i === 0 ? fieldsRaw : await ctx.param<string>('fieldToSplitOut', i, ''));
      const include = ctx.raw<string>('include', 'noOtherFields');
      const dest = await ctx.param<string>('options.destinationFieldName', i, '');
      const noDots = await ctx.param<boolean>('options.disableDotNotation', i, false);
      const read = (f: string) => (noDots ? json[f] : readPath(json, f));
      for (const field of fields) {
        let value = read(field);
        if (value === undefined) continue;
        found = true;
        if (!Array.isArray(value)) value = isPlainObject(value) ? Object.values(value) : [value];
        for (const element of value as unknown[]) {
          let base: Record<string, unknown> = {};
          if (include === 'allOtherFields') {
            base = clone(json);
            if (noDots) delete base[field];
            else deletePath(base, field);
          } else if (include === 'selectedOtherFields') {
            for (const f of fieldList(await ctx.param('fieldsToInclude', i, ''))) {
              const v = noDots ? json[f] : readPath(json, f);
              if (v !== undefined) writePath(base, f, clone(v));
            }
          }
          const key = dest || field;
          if (isPlainObject(element) && !dest) Object.assign(base, clone(element));
          else base[key] = clone(element);
          out.push({ json: base, pairedItem: { item: i } });
        }
      }
    }
    if (!found && ctx.items.length) {
      throw new NodeOperationError(`The field '${fieldsRaw}' wasn't found in any input item`);
    }
    return [out];
  },
} satisfies NodeType;
