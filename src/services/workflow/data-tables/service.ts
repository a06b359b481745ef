// Data tables as n8n's public API and its Data Table node use them: create a table with typed
// columns, rename, delete; read rows in pages (filter, sort, search), insert, update, upsert and
// delete rows by filter, with n8n's answers (`{success, insertedRows}`, `true`, rows, dry-run
// rows marked `dryRunState`). Every write checks the instance's size limit.
import type { Clock } from '../../../platform/clock.js';
import { DomainError } from '../../../platform/errors.js';
import { randomBase62 } from '../../../platform/ids.js';
import { parseFilter, type RowFilter } from '../store/data-table-filter.js';
import { DataTableStore, type DataTable } from '../store/data-tables.js';
import {
  COLUMN_NAME,
  COLUMN_TYPES,
  type ColumnType,
  type DataTableColumn,
  type DataTableRowJson,
} from '../store/data-table-types.js';
import { checkRow } from './values.js';

/** At most this many columns in a table, rows in one insert, and rows in one page. */
export const DATA_TABLE_LIMITS = { columns: 100, insertRows: 1000, pageRows: 1000 };

export type InsertReturn = 'count' | 'id' | 'all';

const invalid = (message: string) => new DomainError('invalid', message);
const notFound = (id: string) => new DomainError('not_found', `Could not find the data table: '${id}'`);

/** Dry-run rows: each matched row before and after (n8n's `dryRunState`). */
export function dryRunRows(
  before: DataTableRowJson[],
  after: DataTableRowJson[],
): Array<DataTableRowJson & { dryRunState: 'before' | 'after' }> {
  return before.flatMap((b, i) => [
    { ...b, dryRunState: 'before' as const },
    { ...after[i], dryRunState: 'after' as const },
  ]);
}

/**
 * A delete's dry run as n8n 2.8.4 answers it (oracle: dt-delete-dry-run): each row `before`, then
 * the same keys all null `after` (the row is gone).
 */
export function deleteDryRunRows(rows: DataTableRowJson[]): Array<Record<string, unknown>> {
  return rows.flatMap((r) => [
    { ...r, dryRunState: 'before' },
    { ...Object.fromEntries(Object.keys(r).map((k) => [k, null])), dryRunState: 'after' },
  ]);
}

export class DataTables {
  constructor(
    readonly store: DataTableStore,
    private readonly clock: Clock,
    /** The most bytes all tables' rows may take (n8n's N8N_DATA_TABLES_MAX_SIZE_BYTES). */
    readonly maxBytes: number,
  ) {}

  /** The clock's time as rows store it. */
  nowIso(): string {
    return this.clock.now().toISOString();
  }

  /** A table by id, or n8n's 404. */
  async table(id: string): Promise<DataTable> {
    const t = typeof id === 'string' && id.length <= 64 ? await this.store.getTable(id) : undefined;
    if (!t) throw notFound(id);
    return t;
  }

  async create(projectId: string, rawName: unknown, rawColumns: unknown): Promise<DataTable> {
    const name = checkTableName(rawName);
    if (!Array.isArray(rawColumns)) throw invalid('columns must be an array');
    if (rawColumns.length > DATA_TABLE_LIMITS.columns)
      throw invalid(`a data table has at most ${DATA_TABLE_LIMITS.columns} columns`);
    const columns: DataTableColumn[] = rawColumns.map((c, index) => {
      if (!c || typeof c !== 'object' || Array.isArray(c)) throw invalid(`columns[${index}] must be an object`);
      const { name: colName, type = 'string' } = c as Record<string, unknown>;
      if (typeof colName !== 'string' || !COLUMN_NAME.test(colName))
        throw invalid(
          `columns[${index}].name: Only alphabetic characters, numbers and underscores are allowed, starting with a letter, at most 63 characters`,
        );
      if (!COLUMN_TYPES.includes(type as ColumnType))
        throw invalid(`columns[${index}].type must be one of ${COLUMN_TYPES.join(', ')}`);
      return { id: randomBase62(16), name: colName, type: type as ColumnType, index };
    });
    const seen = new Set<string>();
    for (const c of columns) {
      if (['id', 'createdat', 'updatedat'].includes(c.name.toLowerCase()))
        throw invalid(`Column name '${c.name}' is reserved`);
      if (seen.has(c.name)) throw invalid(`Duplicate column name '${c.name}'`);
      seen.add(c.name);
    }
    const now = this.nowIso();
    return this.store.createTable({
      id: randomBase62(16),
      name,
      project_id: projectId,
      columns: JSON.stringify(columns),
      next_row_id: 1,
      row_count: 0,
      size_bytes: 0,
      created_at: now,
      updated_at: now,
    });
  }

  async rename(id: string, rawName: unknown): Promise<DataTable> {
    await this.table(id);
    await this.store.renameTable(id, checkTableName(rawName), this.nowIso());
    return this.table(id);
  }

  async delete(id: string): Promise<void> {
    await this.table(id);
    await this.store.deleteTable(id);
  }

  async insert(table: DataTable, rawRows: unknown, returnType: InsertReturn = 'count'): Promise<unknown> {
    if (!Array.isArray(rawRows) || rawRows.length === 0) throw invalid('data must be a non-empty array of rows');
    if (rawRows.length > DATA_TABLE_LIMITS.insertRows)
      throw invalid(`at most ${DATA_TABLE_LIMITS.insertRows} rows can be inserted at once`);
    const values = rawRows.map((r) => checkRow(table.columns, r, false));
    const rows = await this.store.insertRows(table, values, this.nowIso(), this.maxBytes);
    if (returnType === 'count') return { success: true, insertedRows: rows.length };
    if (returnType === 'id') return rows.map((r) => ({ id: r.id }));
    return rows;
  }

  async update(
    table: DataTable,
    rawFilter: unknown,
    rawData: unknown,
    opts: { returnData?: boolean; dryRun?: boolean },
  ): Promise<unknown> {
    const filter = requireFilter(rawFilter);
    const patch = checkRow(table.columns, rawData, true);
    if (!Object.keys(patch).length) throw invalid('data must set at least one column');
    const { before, after } = await this.store.updateRows(
      table,
      filter,
      patch,
      this.nowIso(),
      this.maxBytes,
      !!opts.dryRun,
    );
    if (opts.dryRun) return dryRunRows(before, after);
    return opts.returnData ? after : true;
  }

  /** Updates the rows a filter selects, or inserts one row of `data` when it selects none. */
  async upsert(
    table: DataTable,
    rawFilter: unknown,
    rawData: unknown,
    opts: { returnData?: boolean; dryRun?: boolean },
  ): Promise<unknown> {
    const filter = requireFilter(rawFilter);
    const patch = checkRow(table.columns, rawData, true);
    const { before, after } = await this.store.updateRows(
      table,
      filter,
      patch,
      this.nowIso(),
      this.maxBytes,
      !!opts.dryRun,
    );
    if (before.length) {
      if (opts.dryRun) return dryRunRows(before, after);
      return opts.returnData ? after : true;
    }
    if (opts.dryRun) {
      const now = this.nowIso();
      const row = { id: 0, createdAt: now, updatedAt: now, ...checkRow(table.columns, rawData, false) };
      return [{ ...row, dryRunState: 'after' }];
    }
    const inserted = await this.store.insertRows(
      table,
      [checkRow(table.columns, rawData, false)],
      this.nowIso(),
      this.maxBytes,
    );
    return opts.returnData ? inserted : true;
  }

  async deleteRows(
    table: DataTable,
    rawFilter: unknown,
    opts: { returnData?: boolean; dryRun?: boolean },
  ): Promise<unknown> {
    const filter = requireFilter(rawFilter);
    const rows = await this.store.deleteRows(table, filter, this.nowIso(), !!opts.dryRun);
    if (opts.dryRun) return deleteDryRunRows(rows);
    return opts.returnData ? rows : true;
  }
}

function checkTableName(raw: unknown): string {
  if (typeof raw !== 'string' || !raw.trim()) throw invalid('name must be a non-empty string');
  if (raw.length > 128) throw invalid('name must be at most 128 characters');
  return raw;
}

/** Writes by filter need a filter with at least one condition (n8n refuses to touch every row unasked). */
function requireFilter(raw: unknown): RowFilter {
  const filter = parseFilter(raw);
  if (!filter || !filter.filters.length) throw invalid('filter must not be empty');
  return filter;
}
