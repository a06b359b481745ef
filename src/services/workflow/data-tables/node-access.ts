// The data tables a workflow's Data Table node sees: those of the workflow's project (the
// instance owner's personal project; a table of any other project is "not found"), with the
// checks and answers of n8n 2.8.4's data table service as its node reaches it. Values are
// coerced as n8n coerces them (values.ts).
// Every write is one transaction of the store, so an insert past the size limit is refused whole
// and a table deleted meanwhile is "not found", never half-written.
import type { DataTableFilter, NodeDataTables } from '../engine/node-type.js';
import { parseFilter, type RowFilter } from '../store/data-table-filter.js';
import type { DataTable, DataTableStore } from '../store/data-tables.js';
import type { ColumnType, DataTableColumn } from '../store/data-table-types.js';
import { deleteDryRunRows, dryRunRows, type DataTables } from './service.js';
import { cellValue, DataTableValidationError, SYSTEM_TYPES } from './values.js';

const notFound = (id: string) => new Error(`Could not find the data table: '${id}'`);

function typeMap(columns: DataTableColumn[], withSystem: boolean): Map<string, ColumnType> {
  const map = new Map<string, ColumnType>(columns.map((c) => [c.name, c.type]));
  if (withSystem) for (const [name, type] of Object.entries(SYSTEM_TYPES)) map.set(name, type);
  return map;
}

/** A row's given values checked and coerced (unknown columns refused); what is not given stays out. */
function checkValues(
  columns: DataTableColumn[],
  row: Record<string, unknown>,
  withSystem = false,
): Record<string, unknown> {
  const types = typeMap(columns, withSystem);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (!types.has(key)) throw new DataTableValidationError(`unknown column name '${key}'`);
    out[key] = cellValue(value, key, types.get(key), withSystem);
  }
  return out;
}

/** A full row for an insert: the given values, null for every column not given. */
function fullRow(columns: DataTableColumn[], row: Record<string, unknown>): Record<string, unknown> {
  const given = checkValues(columns, row);
  return Object.fromEntries(columns.map((c) => [c.name, c.name in given ? given[c.name] : null]));
}

/** A filter's values coerced to their columns' types (the store gives like/ilike n8n's %…% when they have no %). */
function checkFilter(filter: DataTableFilter, columns: DataTableColumn[]): RowFilter {
  // The store's parser bounds the conditions (at most 100) and their shapes.
  const parsed = parseFilter(filter)!;
  const types = typeMap(columns, true);
  return {
    type: parsed.type,
    filters: parsed.filters.map((f) => {
      if (!types.has(f.columnName)) throw new DataTableValidationError(`unknown column name '${f.columnName}'`);
      const value = cellValue(f.value, f.columnName, types.get(f.columnName), true);
      if (f.condition === 'like' || f.condition === 'ilike') {
        const word = f.condition.toUpperCase();
        if (value === null) throw new DataTableValidationError(`${word} filter value cannot be null or undefined`);
        if (typeof value !== 'string') throw new DataTableValidationError(`${word} filter value must be a string`);
      }
      if (['gt', 'gte', 'lt', 'lte'].includes(f.condition) && value === null)
        throw new DataTableValidationError(`${f.condition.toUpperCase()} filter value cannot be null or undefined`);
      return { ...f, value };
    }),
  };
}

/** The project the node's tables belong to, as n8n shows it beside a table. */
export interface NodeProject {
  id: string;
  name: string;
  type: string;
}

/**
 * A table as n8n 2.8.4's data table service answers it to the node (oracle: dt-table-list,
 * dt-table-create-*): its project, and its columns in name order; a created one's columns name
 * their table too.
 */
function tableJson(t: DataTable, project: NodeProject, created = false): Record<string, unknown> {
  return {
    updatedAt: t.updatedAt,
    createdAt: t.createdAt,
    id: t.id,
    name: t.name,
    projectId: t.projectId,
    project: { id: project.id, name: project.name, type: project.type, icon: null },
    columns: [...t.columns]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((c) => ({
        updatedAt: t.createdAt,
        createdAt: t.createdAt,
        id: c.id,
        ...(created ? { dataTableId: t.id } : {}),
        name: c.name,
        type: c.type,
        index: c.index,
      })),
  };
}

const SORT_FIELDS = { name: 'name', createdAt: 'created_at', updatedAt: 'updated_at' } as const;

/** The Data Table node's view of the data tables of `projectId()`'s project. */
export function nodeDataTables(
  tables: DataTables,
  store: DataTableStore,
  project: () => Promise<NodeProject>,
): NodeDataTables {
  const projectId = async () => (await project()).id;
  const table = async (id: string): Promise<DataTable> => {
    const t = typeof id === 'string' && id.length <= 64 ? await store.getTable(id) : undefined;
    if (!t || t.projectId !== (await projectId())) throw notFound(String(id));
    return t;
  };
  const updateParams = (t: DataTable, q: { filter: DataTableFilter; data: Record<string, unknown> }) => {
    if (!t.columns.length)
      throw new DataTableValidationError('No columns found for this data table or data table not found');
    if (!q.filter?.filters?.length) throw new DataTableValidationError('Filter must not be empty');
    if (!q.data || !Object.keys(q.data).length) throw new DataTableValidationError('Data columns must not be empty');
    return { data: checkValues(t.columns, q.data), filter: checkFilter(q.filter, t.columns) };
  };
  const maxBytes = () => tables.maxBytes;
  const now = () => tables.nowIso();

  return {
    async idByName(name) {
      const { tables: found } = await store.listTables({
        limit: 1,
        offset: 0,
        nameContains: name,
        projectId: await projectId(),
        sort: { field: 'updated_at', desc: true },
      });
      return found[0]?.id;
    },
    async columns(id) {
      return (await table(id)).columns.map((c) => ({ name: c.name, type: c.type }));
    },
    async rows(id, q) {
      const t = await table(id);
      const filter = q.filter ? checkFilter(q.filter, t.columns) : undefined;
      const sortBy = q.sortBy ? `${q.sortBy[0]}:${q.sortBy[1].toLowerCase() === 'desc' ? 'desc' : 'asc'}` : undefined;
      const { rows, count } = await store.rows(t, { filter, sortBy, limit: q.take, offset: q.skip });
      return { data: rows, count };
    },
    async insert(id, rows, returnType) {
      const t = await table(id);
      const values = rows.map((r) => fullRow(t.columns, r));
      const inserted = await store.insertRows(t, values, now(), maxBytes());
      return returnType === 'count' ? { success: true, insertedRows: inserted.length } : inserted;
    },
    async update(id, q) {
      const t = await table(id);
      const { data, filter } = updateParams(t, q);
      const { before, after } = await store.updateRows(t, filter, data, now(), maxBytes(), q.dryRun);
      return q.dryRun ? dryRunRows(before, after) : after;
    },
    async upsert(id, q) {
      const t = await table(id);
      const { data, filter } = updateParams(t, q);
      const { before, after } = await store.updateRows(t, filter, data, now(), maxBytes(), q.dryRun);
      if (before.length) return q.dryRun ? dryRunRows(before, after) : after;
      const row = Object.fromEntries(t.columns.map((c) => [c.name, c.name in data ? data[c.name] : null]));
      if (q.dryRun) {
        const at = now();
        return [{ id: 0, createdAt: at, updatedAt: at, ...row, dryRunState: 'after' }];
      }
      return store.insertRows(t, [row], now(), maxBytes());
    },
    async deleteRows(id, q) {
      const t = await table(id);
      if (!q.filter?.filters?.length)
        throw new DataTableValidationError(
          'Filter is required for delete operations to prevent accidental deletion of all data',
        );
      const rows = await store.deleteRows(t, checkFilter(q.filter, t.columns), now(), q.dryRun);
      return q.dryRun ? deleteDryRunRows(rows) : rows;
    },
    async listTables(q) {
      const [field, dir] = (q.sortBy ?? 'updatedAt:desc').split(':');
      const sortField = SORT_FIELDS[field as keyof typeof SORT_FIELDS];
      const { tables: found, count } = await store.listTables({
        limit: q.take ?? 1_000_000,
        offset: q.skip,
        nameContains: q.name,
        projectId: await projectId(),
        sort: sortField ? { field: sortField, desc: dir?.toLowerCase() === 'desc' } : undefined,
      });
      const p = await project();
      return { data: found.map((t) => tableJson(t, p)), count };
    },
    async createTable(name, columns) {
      const p = await project();
      return tableJson(await tables.create(p.id, name, columns), p, true);
    },
    async renameTable(id, name) {
      await table(id);
      await tables.rename(id, name);
      return true;
    },
    async deleteTable(id) {
      await table(id);
      await tables.delete(id);
      return true;
    },
  };
}
