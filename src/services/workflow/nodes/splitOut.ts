// Split Out: one item per element of an array field. Observed with the oracle (n8n 2.8.4):
// several fields are zipped by position, each under its own name as written ("data.list");
// a field found by neither path nor literal key gives no items (no error); an object splits
// into its values, anything else (null too) counts as a list of one. Only a lone field split
// with no other fields and no destination spreads an object element (an array element too:
// [9] gives {"0": 9}) into the item; otherwise each element stays under its field's name.
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { clone, deletePath, fieldList, isPlainObject, lodashGet } from './util.js';

export default {
  types: ['n8n-nodes-base.splitOut'],
  async execute(ctx) {
    const out: Item[] = [];
    // Item Lists' older versions (observed): v1 takes arrays only (failing on a missing field) and
    // spreads a null element as {}; v2.0 fails on a field no item has, v2.0–2.1 on one that
    // is no array or object.
    const itemListsV1 = ctx.node.type === 'n8n-nodes-base.itemLists' && ctx.typeVersion < 2;
    const itemListsV2 = ctx.node.type === 'n8n-nodes-base.itemLists' && ctx.typeVersion >= 2 && ctx.typeVersion <= 2.1;
    for (let i = 0; i < ctx.items.length; i++) {
      const json = ctx.items[i].json;
      const fieldParam = String(await ctx.param<string>('fieldToSplitOut', i, ''));
      const fields = fieldList(fieldParam);
      const include = ctx.raw<string>('include', 'noOtherFields');
      // Destinations name the fields' elements in order ("first, second"); a field past them keeps its name.
      const dests = fieldList(await ctx.param<string>('options.destinationFieldName', i, ''));
      // Split Out (and Item Lists from 2.1) counts the fields as written, empty ones between
      // commas included (n8n 2.8.4).
      if (
        (ctx.node.type === 'n8n-nodes-base.splitOut' || ctx.typeVersion >= 2.1) &&
        dests.length &&
        dests.length !== fieldParam.split(',').length
      ) {
        throw new NodeOperationError(
          'If multiple fields to split out are given, the same number of destination fields must be given',
        );
      }
      const noDots = await ctx.param<boolean>('options.disableDotNotation', i, false);
      // Read as lodash's get (a key named with the dots wins over the path; null is a value).
      const read = (f: string) => (noDots ? json[f] : lodashGet(json, f));
      const included = include === 'selectedOtherFields' ? fieldList(await ctx.param('fieldsToInclude', i, '')) : [];
      const lists = fields.map((field) => {
        const value = read(field);
        if (itemListsV1 && value === undefined)
          throw new NodeOperationError(`Couldn't find the field '${field}' in the input data`, undefined, i);
        if (itemListsV1 && !Array.isArray(value))
          throw new NodeOperationError(`The provided field '${field}' is not an array`, undefined, i);
        if (itemListsV2 && ctx.typeVersion === 2 && value === undefined)
          throw new NodeOperationError(`Couldn't find the field '${field}' in the input data`, undefined, i);
        if (itemListsV2 && value !== undefined && (value === null || typeof value !== 'object'))
          throw new NodeOperationError(`The provided field '${field}' is not an array or object`, undefined, i);
        if (value === undefined) return undefined;
        return Array.isArray(value) ? value : isPlainObject(value) ? Object.values(value) : [value];
      });
      if (lists.every((l) => l === undefined)) continue;
      // Selected other fields without any fail once there is something to split (observed).
      if (include === 'selectedOtherFields' && !included.length) throw new NodeOperationError('No fields specified');
      const count = Math.max(...lists.map((l) => l?.length ?? 0));
      for (let k = 0; k < count; k++) {
        let base: Record<string, unknown> = {};
        if (include === 'allOtherFields') {
          base = clone(json);
          for (const f of fields) {
            if (noDots || f in base) delete base[f];
            else deletePath(base, f);
          }
        }
        fields.forEach((field, j) => {
          const list = lists[j];
          if (!list || k >= list.length) return;
          const element = list[k];
          if (
            fields.length === 1 &&
            !dests.length &&
            include === 'noOtherFields' &&
            (element !== null || itemListsV1) &&
            typeof element === 'object'
          )
            Object.assign(base, clone(element));
          else base[dests[j] ?? field] = clone(element);
        });
        // Fields to include come after the split ones, each under its name as written (a split
        // field included again is the whole value: observed).
        for (const f of included) {
          const v = read(f);
          if (v !== undefined) base[f] = clone(v);
        }
        out.push({ json: base, pairedItem: { item: i } });
      }
    }
    return [out];
  },
} satisfies NodeType;
