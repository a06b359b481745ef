// Aggregate: many items into one, by individual fields or as a list of whole items.
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import { clone, fieldList, lodashGet, readPath, writePath } from './util.js';

interface FieldSpec {
  fieldToAggregate?: string;
  renameField?: boolean;
  outputFieldName?: string;
}

export default {
  types: ['n8n-nodes-base.aggregate'],
  async execute(ctx) {
    const items = ctx.items;
    const pairedItem = items.map((_, i) => ({ item: i }));
    if (ctx.raw('aggregate', 'aggregateIndividualFields') === 'aggregateAllItemData') {
      const dest = await ctx.param<string>('destinationFieldName', 0, 'data');
      const include = ctx.raw<string>('include', 'allFields');
      const fields = fieldList(
        await ctx.param(include === 'specifiedFields' ? 'fieldsToInclude' : 'fieldsToExclude', 0, ''),
      );
      const list = items.map((it) => {
        // An empty selection keeps every field (observed).
        if (include === 'specifiedFields' && fields.length) {
          const o: Record<string, unknown> = {};
          for (const f of fields) if (f in it.json) o[f] = clone(it.json[f]);
          return o;
        }
        if (include === 'allFieldsExcept') {
          const o = clone(it.json);
          for (const f of fields) delete o[f];
          return o;
        }
        return clone(it.json);
      });
      // With a field selection, items left with no fields are not listed (observed: [{}] gives []).
      const kept = include === 'allFields' || !fields.length ? list : list.filter((o) => Object.keys(o).length > 0);
      return [[{ json: { [dest]: kept }, pairedItem }]];
    }
    const specs = await ctx.param<FieldSpec[]>('fieldsToAggregate.fieldToAggregate', 0, []);
    const mergeLists = await ctx.param<boolean>('options.mergeLists', 0, false);
    const keepMissing = await ctx.param<boolean>('options.keepMissing', 0, false);
    const json: Record<string, unknown> = {};
    // The renamed fields' output names ('' when not given) must differ (observed, checked first).
    const used = new Set<string>();
    for (const spec of specs) {
      if (!spec.renameField) continue;
      const out = spec.outputFieldName ?? '';
      if (used.has(out)) throw new NodeOperationError(`The '${out}' output field is used more than once`);
      used.add(out);
    }
    for (const spec of specs) {
      const field = spec.fieldToAggregate ?? '';
      if (!field) continue;
      const noDots = await ctx.param<boolean>('options.disableDotNotation', 0, false);
      // Unrenamed, a nested field's values are listed under its last key (observed: `meta.lvl`
      // gives `lvl`); a chosen output name is a path of its own.
      const renamed = spec.renameField && spec.outputFieldName;
      // The last part after a dot, written as a path (`tags[0]` is written as tags: [values]: observed).
      const name = renamed ? spec.outputFieldName! : noDots ? field : (field.split('.').at(-1) ?? field);
      // Item Lists 2.0 fails on a field no item has (observed); later versions list nothing.
      if (
        ctx.node.type === 'n8n-nodes-base.itemLists' &&
        ctx.typeVersion === 2 &&
        !items.some((it) => (noDots ? it.json[field] : readPath(it.json, field)) !== undefined)
      ) {
        throw new NodeOperationError(`Couldn't find the field '${field}' in the input data`);
      }
      const values: unknown[] = [];
      for (const it of items) {
        // Read as lodash's get: a key named with the dots wins over the path.
        const v = noDots ? it.json[field] : lodashGet(it.json, field);
        // Missing and null values are skipped unless keepMissing (then both become null).
        if ((v === undefined || v === null) && !keepMissing) continue;
        if (Array.isArray(v) && mergeLists) values.push(...clone(v));
        else values.push(v === undefined ? null : clone(v));
      }
      if (noDots) json[name] = values;
      else writePath(json, name, values);
    }
    return [[{ json, pairedItem }]];
  },
} satisfies NodeType;
