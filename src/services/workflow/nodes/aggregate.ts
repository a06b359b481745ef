// Aggregate: many items into one, by individual fields or as a list of whole items.
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import { clone, fieldList, lodashGet, lodashSet } from './util.js';

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
    // An absent list is the description's default: one blank field.
    const specs = await ctx.param<FieldSpec[]>('fieldsToAggregate.fieldToAggregate', 0, [
      { fieldToAggregate: '', renameField: false },
    ]);
    if (!specs?.length) throw new NodeOperationError('No fields specified');
    const mergeLists = await ctx.param<boolean>('options.mergeLists', 0, false);
    const keepMissing = await ctx.param<boolean>('options.keepMissing', 0, false);
    const noDots = await ctx.param<boolean>('options.disableDotNotation', 0, false);
    // Read as lodash's get: a key named with the dots wins over the path.
    const read = (it: (typeof items)[number], field: string) => (noDots ? it.json[field] : lodashGet(it.json, field));
    // Item Lists before 2.1 first checks every field against the items (observed in n8n's code).
    if (ctx.node.type === 'n8n-nodes-base.itemLists' && ctx.typeVersion < 2.1)
      checkFieldsPresent(specs, items, { noDots, keepMissing, read });
    // Lists by output name, in first-seen order; a later field of the same name starts it afresh.
    const values = new Map<string, unknown[]>();
    const outputNames: string[] = [];
    for (const spec of specs) {
      const field = spec.fieldToAggregate ?? '';
      // Each field's output name (its own name when not renamed, even with dots, even blank) is
      // used once: n8n checks before reading anything, blank fields included.
      const out = spec.renameField ? (spec.outputFieldName ?? '') : field;
      if (outputNames.includes(out)) throw new NodeOperationError(`The '${out}' output field is used more than once`);
      outputNames.push(out);
      if (!field) continue;
      // Unrenamed, a nested field's values are listed under its last key (`meta.lvl` gives `lvl`).
      const name = (spec.renameField && spec.outputFieldName) || (noDots ? field : (field.split('.').at(-1) ?? field));
      const list: unknown[] = [];
      values.set(name, list);
      for (const it of items) {
        let v = read(it, field);
        // Without keepMissing, missing and null values are skipped, and so are nulls inside a list.
        if (!keepMissing) {
          if (Array.isArray(v)) v = v.filter((e) => e !== null);
          else if (v === undefined || v === null) continue;
        }
        if (Array.isArray(v) && mergeLists) list.push(...clone(v));
        else list.push(v === undefined ? null : clone(v));
      }
    }
    const json: Record<string, unknown> = {};
    for (const [name, list] of values) {
      if (noDots) json[name] = list;
      else lodashSet(json, name, list);
    }
    return [[{ json, pairedItem }]];
  },
} satisfies NodeType;

/**
 * Item Lists v1 and 2.0 refuse, before aggregating: a blank field (when there are items), and a
 * field no item has unless keepMissing (with dot notation off, a dotted name always).
 */
function checkFieldsPresent(
  specs: FieldSpec[],
  items: Array<{ json: Record<string, unknown> }>,
  o: { noDots: boolean; keepMissing: boolean; read: (it: { json: Record<string, unknown> }, f: string) => unknown },
): void {
  for (const spec of specs) {
    const field = spec.fieldToAggregate ?? '';
    if (items.length && field === '') throw new NodeOperationError('Field to aggregate is blank');
    const found = items.some((it) => (o.noDots ? Object.hasOwn(it.json, field) : o.read(it, field) !== undefined));
    if (!found && ((o.noDots && field.includes('.')) || !o.keepMissing))
      throw new NodeOperationError(`Couldn't find the field '${field}' in the input data`);
  }
}
