// The data tables a workflow's Data Table node sees: those of the workflow's project (the
// instance owner's personal project; a table of any other project is "not found"), with the
// checks and answers of n8n 2.8.4's data table service as its node reaches it. Values are
// coerced as n8n coerces them for the node ('12' into a number column is 12, 'true' a boolean,
// dates in ISO, HTTP, RFC 2822 or SQL form), which is looser than the public API's checks.
// Every write is one transaction of the store, so an insert past the size limit is refused whole
// and a table deleted meanwhile is "not found", never half-written.
import { DateTime } from 'luxon';
import type { DataTableFilter, NodeDataTables } from '../engine/node-type.js';
import { parseFilter, type RowFilter } from '../store/data-table-filter.js';
import type { DataTable, DataTableStore } from '../store/data-tables.js';
import type { ColumnType, DataTableColumn, DataTableRowJson } from '../store/data-table-types.js';
import { deleteDryRunRows, type DataTables } from './service.js';

/** n8n's validation error: its message carries n8n's prefix. */
class DataTableValidationError extends Error {
  constructor(message: string) {
    super(`Validation error with data table request: ${message}`);
  }
}

const notFound = (id: string) => new Error(`Could not find the data table: '${id}'`);

/** The row's system columns and their types (n8n's DATA_TABLE_SYSTEM_COLUMN_TYPE_MAP). */
const SYSTEM_TYPES: Record<string, ColumnType> = { id: 'number', createdAt: 'date', updatedAt: 'date' };
const FIELD_TYPE: Record<ColumnType, string> = {
  string: 'string',
  number: 'number',
  boolean: 'boolean',
  date: 'dateTime',
};

const describe = (v: unknown) =>
  v === null ? "'null'" : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : `'${String(v)}'`;

function parseBoolean(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && ['true', 'false'].includes(v.toLowerCase())) return v.toLowerCase() === 'true';
  if (typeof v === 'string' && v.trim() === '') return undefined;
  const n = Number(v);
  return n === 0 ? false : n === 1 ? true : undefined;
}

function parseDate(v: unknown): DateTime | undefined {
  if (v instanceof Date) {
    const d = DateTime.fromJSDate(v);
    return d.isValid ? d : undefined;
  }
  const text = String(v).trim();
  for (const parse of [
    (t: string) => DateTime.fromISO(t, { setZone: true }),
    (t: string) => DateTime.fromHTTP(t, { setZone: true }),
    (t: string) => DateTime.fromRFC2822(t, { setZone: true }),
    (t: string) => DateTime.fromSQL(t, { setZone: true }),
    (t: string) => DateTime.fromMillis(Date.parse(t)),
  ]) {
    const d = parse(text);
    if (d.isValid) return d;
  }
  return undefined;
}

/** One value made the column's type as n8n's service does, or its validation error. */
function cellValue(value: unknown, key: string, type: ColumnType | undefined, keepDates = false): unknown {
  if (value === null || value === undefined) return null;
  if (!type) return value;
  const refuse = (suffix = '') =>
    new DataTableValidationError(
      `value '${String(value)}' does not match column type '${type}': '${key}' expects a ${FIELD_TYPE[type]} but we got ${describe(value)}${suffix}`,
    );
  switch (type) {
    case 'string':
      // n8n keeps the value and its text column reads it back as text: a boolean as SQLite
      // stored it, '1' or '0' (oracle: dt-string-column-values).
      if (typeof value === 'boolean') return value ? '1' : '0';
      return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
    case 'number': {
      const n = typeof value === 'object' && !Array.isArray(value) ? NaN : Number(value);
      if (Number.isNaN(n)) throw refuse();
      // JSON keeps no Infinity: a number the column cannot hold is refused like a non-number.
      if (!Number.isFinite(n)) throw refuse();
      return n;
    }
    case 'boolean': {
      const b = parseBoolean(value);
      if (b === undefined) throw refuse();
      return b;
    }
    case 'date': {
      if (keepDates && value instanceof Date) return value.toISOString();
      const d = typeof value === 'object' && !(value instanceof Date) ? undefined : parseDate(value);
      if (!d)
        throw refuse(
          ` <br/><br/> Consider using <a href="https://moment.github.io/luxon/api-docs/index.html#datetimefromformat" target="_blank"><code>DateTime.fromFormat</code></a> to work with custom date formats.`,
        );
      return d.toUTC().toISO();
    }
  }
}

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

/** A filter's values coerced to their columns' types; like/ilike get n8n's %…% when they have no %. */
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
        return { ...f, value: value.includes('%') ? value : `%${value}%` };
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
  const dry = (before: DataTableRowJson[], after: DataTableRowJson[]) =>
    before.flatMap((b, i) => [
      { ...b, dryRunState: 'before' },
      { ...after[i], dryRunState: 'after' },
    ]);
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
      return q.dryRun ? dry(before, after) : after;
    },
    async upsert(id, q) {
      const t = await table(id);
      const { data, filter } = updateParams(t, q);
      const { before, after } = await store.updateRows(t, filter, data, now(), maxBytes(), q.dryRun);
      if (before.length) return q.dryRun ? dry(before, after) : after;
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
