// Data Table (n8n-nodes-base.dataTable v1 and v1.1): reads and writes the data tables of the
// workflow's project through the service the engine gives (NodeServices.dataTables).
// Rows: insert (all items in one write unless the table id is an expression, `optimizeBulk`
// answering only the count), get (conditions matched any/all, limit or return all, order by a
// column), rowExists / rowNotExists (the input item passes or not), update, upsert and delete
// by conditions (dryRun: the rows before and after). Tables: create (reusing one of that name
// when asked), list, rename, delete. The table is chosen from a list, by id or by name.
import type { DataTableFilter, NodeContext, NodeDataTables, NodeType } from '../engine/node-type.js';
import { NodeOperationError } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';

const SYSTEM_COLUMNS = ['id', 'createdAt', 'updatedAt'];
const SYSTEM_TYPES: Record<string, string> = { id: 'number', createdAt: 'date', updatedAt: 'date' };
const ROWS_LIMIT_DEFAULT = 50;
const PAGE_SIZE = 1000;

type Json = Record<string, unknown>;

function service(ctx: NodeContext): NodeDataTables {
  const s = ctx.services.dataTables;
  if (!s) throw new NodeOperationError('Attempted to use Data table node but the module is disabled');
  return s;
}

/** The table id the resource locator names for this item (by name: looked up in the project). */
async function tableId(ctx: NodeContext, i: number): Promise<string> {
  const ref = await ctx.param<unknown>('dataTableId', i, { mode: 'list', value: '' });
  const { mode, value } =
    ref && typeof ref === 'object' ? (ref as { mode?: unknown; value?: unknown }) : { mode: 'id', value: ref };
  const text = value === undefined || value === null ? '' : String(value);
  if (mode !== 'name') return text;
  const id = await service(ctx).idByName(text.toLowerCase());
  if (id === undefined) throw new NodeOperationError(`Data table with name "${text}" not found`);
  return id;
}

/** The row an item gives: its own fields (system columns left out) or the values defined in the node. */
async function rowOf(ctx: NodeContext, i: number): Promise<Json> {
  const mode = await ctx.param<string>('columns.mappingMode', i);
  let data: Json;
  if (mode === 'autoMapInputData') {
    data = { ...ctx.items[i].json };
    for (const c of SYSTEM_COLUMNS) delete data[c];
  } else {
    const values = await ctx.param<unknown>('columns.value', i, {});
    data = values && typeof values === 'object' ? { ...(values as Json) } : {};
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(data)) {
    if (v === undefined || v === null) out[k] = null;
    else if (Array.isArray(v))
      throw new NodeOperationError(`unexpected array input '${JSON.stringify(v)}' in row ${i}`);
    else if (typeof v === 'object')
      throw new NodeOperationError(`unexpected object input '${JSON.stringify(v)}' in row ${i}`);
    else out[k] = v;
  }
  return out;
}

/** The node's conditions as a filter, checked against the table's columns. */
async function filterOf(ctx: NodeContext, i: number, id: string): Promise<DataTableFilter> {
  const fields = await ctx.param<unknown>('filters.conditions', i, []);
  const matchType = await ctx.param<unknown>('matchType', i, 'anyCondition');
  if (matchType !== 'anyCondition' && matchType !== 'allConditions')
    throw new NodeOperationError('unexpected match type');
  if (!Array.isArray(fields) || !fields.every((f) => f !== null && typeof f === 'object' && 'keyName' in f))
    throw new NodeOperationError('unexpected fields input');
  const conditions = fields as Array<{ keyName: string; condition?: string; keyValue?: unknown }>;
  let types: Record<string, string> = { ...SYSTEM_TYPES };
  if (conditions.length) {
    const columns = await service(ctx).columns(id);
    types = { ...SYSTEM_TYPES, ...Object.fromEntries(columns.map((c) => [c.name, c.type])) };
    const missing = conditions.filter((c) => !Object.hasOwn(types, c.keyName)).map((c) => c.keyName);
    if (missing.length)
      throw new NodeOperationError(
        `Filter validation failed: Column(s) "${missing.join(', ')}" do not exist in the selected table. ` +
          'This often happens when switching between tables with different schemas. ' +
          'Please update your filter conditions.',
      );
  }
  const filters = conditions.map(({ keyName: columnName, condition, keyValue }) => {
    switch (condition) {
      case 'isEmpty':
        return { columnName, condition: 'eq', value: null };
      case 'isNotEmpty':
        return { columnName, condition: 'neq', value: null };
      case 'isTrue':
        return { columnName, condition: 'eq', value: true };
      case 'isFalse':
        return { columnName, condition: 'eq', value: false };
      default: {
        let value = keyValue;
        if (types[columnName] === 'date' && typeof value === 'string') {
          const t = new Date(value);
          if (Number.isNaN(t.getTime()))
            throw new NodeOperationError(`Invalid date string '${value}' for column '${columnName}'`);
          value = t.toISOString();
        }
        return { columnName, condition: condition ?? 'eq', value };
      }
    }
  });
  return { type: matchType === 'allConditions' ? 'and' : 'or', filters };
}

async function dryRunOf(ctx: NodeContext, i: number): Promise<boolean> {
  const dryRun = await ctx.param<unknown>('options.dryRun', i, false);
  if (typeof dryRun !== 'boolean')
    throw new NodeOperationError(`unexpected input ${JSON.stringify(dryRun)} for boolean dryRun`);
  return dryRun;
}

const required = (filter: DataTableFilter) => {
  if (!filter.filters.length) throw new NodeOperationError('At least one condition is required');
};

/** The rows a filter selects, page by page; `limit` 0 is all of them. */
async function selectMany(
  ctx: NodeContext,
  i: number,
  id: string,
  limit: number,
  sortBy?: [string, string],
): Promise<Json[]> {
  const filter = await filterOf(ctx, i, id);
  const out: Json[] = [];
  let total: number | undefined;
  for (;;) {
    const take = limit ? Math.min(PAGE_SIZE, limit - out.length) : PAGE_SIZE;
    const { data, count } = await service(ctx).rows(id, { filter, skip: out.length, take, sortBy });
    if (total !== undefined && count !== total)
      throw new NodeOperationError('synchronization error: result count changed during pagination');
    total = count;
    out.push(...data);
    if ((limit && out.length >= limit) || out.length >= count || data.length === 0) return out;
  }
}

/** Update or upsert: the item's row written where the filter matches (upsert: inserted when none does). */
async function writeByFilter(ctx: NodeContext, i: number, write: 'update' | 'upsert'): Promise<Item[]> {
  const id = await tableId(ctx, i);
  const dryRun = await dryRunOf(ctx, i);
  const data = await rowOf(ctx, i);
  const filter = await filterOf(ctx, i, id);
  required(filter);
  return (await service(ctx)[write](id, { filter, data, dryRun })).map((json) => ({ json: json as Json }));
}

const rowOps: Record<string, (ctx: NodeContext, i: number) => Promise<Item[]>> = {
  async insert(ctx, i) {
    const optimize = await ctx.param<boolean>('options.optimizeBulk', i, false);
    const id = await tableId(ctx, i);
    const row = await rowOf(ctx, i);
    if (optimize) return [{ json: (await service(ctx).insert(id, [row], 'count')) as Json }];
    return ((await service(ctx).insert(id, [row], 'all')) as Json[]).map((json) => ({ json }));
  },
  async get(ctx, i) {
    const id = await tableId(ctx, i);
    let sortBy: [string, string] | undefined;
    if (await ctx.param<boolean>('orderBy', i, false)) {
      const column = await ctx.param<string>('orderByColumn', i, '');
      const direction = await ctx.param<string>('orderByDirection', i, 'ASC');
      if (column) sortBy = [String(column), String(direction)];
    }
    const returnAll = await ctx.param<boolean>('returnAll', i, false);
    const limit = returnAll ? 0 : Number(await ctx.param<number>('limit', i, ROWS_LIMIT_DEFAULT));
    return (await selectMany(ctx, i, id, limit, sortBy)).map((json) => ({ json }));
  },
  async rowExists(ctx, i) {
    const id = await tableId(ctx, i);
    return (await selectMany(ctx, i, id, 1)).length ? [ctx.items[i]] : [];
  },
  async rowNotExists(ctx, i) {
    const id = await tableId(ctx, i);
    return (await selectMany(ctx, i, id, 1)).length ? [] : [ctx.items[i]];
  },
  async deleteRows(ctx, i) {
    const id = await tableId(ctx, i);
    const dryRun = await dryRunOf(ctx, i);
    const filter = await filterOf(ctx, i, id);
    required(filter);
    return (await service(ctx).deleteRows(id, { filter, dryRun })).map((json) => ({ json: json as Json }));
  },
  update: (ctx, i) => writeByFilter(ctx, i, 'update'),
  upsert: (ctx, i) => writeByFilter(ctx, i, 'upsert'),
};

const tableOps: Record<string, (ctx: NodeContext, i: number) => Promise<Item[]>> = {
  async create(ctx, i) {
    const name = await ctx.param<string>('tableName', i);
    const columns = await ctx.param<Array<{ name: string; type?: string }>>('columns.column', i, []);
    const options = await ctx.param<{ createIfNotExists?: boolean }>('options', i, {});
    if (options?.createIfNotExists) {
      const found = await service(ctx).listTables({ skip: 0, take: 1, name });
      if (found.data.length && found.data[0].name === name) return [{ json: found.data[0] }];
    }
    const cols = (Array.isArray(columns) ? columns : []).map((c) => ({ name: c.name, type: c.type ?? 'string' }));
    return [{ json: await service(ctx).createTable(name, cols) }];
  },
  async delete(ctx, i) {
    const ref = await ctx.param<unknown>('dataTableId', i);
    const given = ref && typeof ref === 'object' ? (ref as { value?: unknown }).value : ref;
    const success = await service(ctx).deleteTable(await tableId(ctx, i));
    return [{ json: { success, deletedTableId: given } }];
  },
  async list(ctx, i) {
    const returnAll = await ctx.param<boolean>('returnAll', i, true);
    const limit = Number(await ctx.param<number>('limit', i, ROWS_LIMIT_DEFAULT));
    const options = await ctx.param<{ filterName?: string; sortField?: string; sortDirection?: string }>(
      'options',
      i,
      {},
    );
    const sortBy =
      options?.sortField && options.sortDirection ? `${options.sortField}:${options.sortDirection}` : undefined;
    const name = options?.filterName ? String(options.filterName).toLowerCase() : undefined;
    const out: Item[] = [];
    if (!returnAll) {
      const { data } = await service(ctx).listTables({ skip: 0, take: limit, name, sortBy });
      return data.map((json) => ({ json }));
    }
    for (let skip = 0; ; skip += 100) {
      const { data, count } = await service(ctx).listTables({ skip, take: 100, name, sortBy });
      out.push(...data.map((json) => ({ json })));
      if (data.length < 100 || out.length >= count) return out;
    }
  },
  async update(ctx, i) {
    const name = await ctx.param<string>('newName', i);
    const success = await service(ctx).renameTable(await tableId(ctx, i), name);
    return [{ json: { success, name } }];
  },
};

/**
 * Under continueOnFail n8n 2.8.4 keeps a failed item's input as is (oracle: dt-continue-on-fail);
 * it reads that input by the item's index as if it were an input index, so a failure of any item
 * but the first fails the node with a TypeError instead.
 */
function failedItem(ctx: NodeContext, i: number): Item {
  if (i > 0) throw new TypeError("Cannot read properties of undefined (reading 'json')");
  return { json: ctx.items[i].json, pairedItem: { item: i } };
}

export default {
  types: ['n8n-nodes-base.dataTable'],
  async execute(ctx) {
    const resource = ctx.raw<string>('resource', 'row');
    const operation = ctx.raw<string>('operation', resource === 'table' ? 'list' : 'insert');
    const ops = resource === 'table' ? tableOps : rowOps;
    const op = Object.hasOwn(ops, operation) ? ops[operation] : undefined;
    if (!op) throw new NodeOperationError(`The operation "${operation}" is not supported`);
    const items = ctx.items;
    const rawId = ctx.raw<unknown>('dataTableId.value');
    // Inserts write every item's row at once, unless the table id is an expression (per item then).
    if (resource !== 'table' && operation === 'insert' && !(typeof rawId === 'string' && rawId.includes('{'))) {
      try {
        const id = await tableId(ctx, 0);
        const optimize = await ctx.param<boolean>('options.optimizeBulk', 0, false);
        const rows: Json[] = [];
        for (let i = 0; i < items.length; i++) rows.push(await rowOf(ctx, i));
        if (optimize) return [[{ json: (await service(ctx).insert(id, rows, 'count')) as Json }]];
        const inserted = (await service(ctx).insert(id, rows, 'all')) as Json[];
        return [inserted.map((json, item) => ({ json, pairedItem: { item } }))];
      } catch (err) {
        if (!ctx.continueOnFail) throw err;
        // n8n wraps each whole input item as the json of an output item (oracle: dt-continue-on-fail-insert).
        return [items.map((item, i) => ({ json: { json: item.json, pairedItem: { item: i } } }))];
      }
    }
    const out: Item[] = [];
    for (let i = 0; i < items.length; i++) {
      try {
        for (const item of await op(ctx, i)) out.push({ ...item, pairedItem: { item: i } });
      } catch (err) {
        if (!ctx.continueOnFail) throw err;
        out.push(failedItem(ctx, i));
      }
    }
    return [out];
  },
} satisfies NodeType;
