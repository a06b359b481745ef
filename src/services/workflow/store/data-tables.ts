// SQL of data tables (workflow_data_tables, workflow_data_table_rows): a table's columns are
// JSON beside its name; each row is its values as JSON with n8n's system columns. Row ids count
// from 1 per table (a counter in the table's row, taken in the inserting transaction), and each
// table keeps its size in bytes and row count so the instance's size limit is checked without
// scanning rows.
import { sql, type Kysely, type Transaction } from 'kysely';
import { isUniqueViolation, type Db } from '../../../platform/db.js';
import { DomainError } from '../../../platform/errors.js';
import { filterSql, searchSql, sortSql, type RowFilter } from './data-table-filter.js';
import type { DataTableColumn, DataTableRowJson } from './data-table-types.js';

export interface DataTableRow {
  id: string;
  name: string;
  project_id: string;
  /** JSON DataTableColumn[] */
  columns: string;
  next_row_id: number;
  row_count: number;
  size_bytes: number;
  created_at: string;
  updated_at: string;
}

interface RowRow {
  table_id: string;
  id: number;
  data: string;
  created_at: string;
  updated_at: string;
}

interface Tables {
  workflow_data_tables: DataTableRow;
  workflow_data_table_rows: RowRow;
}

/** A stored table with its columns read. */
export interface DataTable {
  id: string;
  name: string;
  projectId: string;
  columns: DataTableColumn[];
  rowCount: number;
  sizeBytes: number;
  createdAt: string;
  updatedAt: string;
}

export interface RowQuery {
  filter?: RowFilter;
  sortBy?: string;
  search?: string;
  limit: number;
  offset: number;
}

const tableExists = (name: string) =>
  new DomainError('conflict', `Data table with name '${name}' already exists in this project`);

function toTable(r: DataTableRow): DataTable {
  return {
    id: r.id,
    name: r.name,
    projectId: r.project_id,
    columns: JSON.parse(r.columns) as DataTableColumn[],
    rowCount: Number(r.row_count),
    sizeBytes: Number(r.size_bytes),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** A stored row as the API shows it: system columns first, then the table's columns in order. */
function rowJson(
  r: Pick<RowRow, 'id' | 'data' | 'created_at' | 'updated_at'>,
  columns: DataTableColumn[],
): DataTableRowJson {
  const data = JSON.parse(r.data) as Record<string, unknown>;
  const out: DataTableRowJson = { id: Number(r.id), createdAt: r.created_at, updatedAt: r.updated_at };
  for (const c of columns) out[c.name] = data[c.name] ?? null;
  return out;
}

const bytesOf = (data: string) => Buffer.byteLength(data, 'utf8');

export class DataTableStore {
  private readonly k: Kysely<Tables>;

  constructor(private readonly db: Db) {
    this.k = db.kysely;
  }

  // ---- tables

  async createTable(row: DataTableRow): Promise<DataTable> {
    try {
      await this.k.insertInto('workflow_data_tables').values(row).execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw tableExists(row.name);
      throw err;
    }
    return toTable(row);
  }

  async getTable(id: string): Promise<DataTable | undefined> {
    const r = await this.k.selectFrom('workflow_data_tables').selectAll().where('id', '=', id).executeTakeFirst();
    return r && toTable(r);
  }

  async tableByName(projectId: string, name: string): Promise<DataTable | undefined> {
    const r = await this.k
      .selectFrom('workflow_data_tables')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('name', '=', name)
      .executeTakeFirst();
    return r && toTable(r);
  }

  /** A page of tables, newest first unless sorted; `nameContains` filters case-insensitively. */
  async listTables(opts: {
    limit: number;
    offset: number;
    nameContains?: string;
    /** Only this project's tables. */
    projectId?: string;
    sort?: { field: 'name' | 'created_at' | 'updated_at' | 'size_bytes'; desc: boolean };
  }): Promise<{ tables: DataTable[]; count: number }> {
    let q = this.k.selectFrom('workflow_data_tables');
    if (opts.projectId !== undefined) q = q.where('project_id', '=', opts.projectId);
    if (opts.nameContains)
      q = q.where(
        sql<boolean>`lower(name) like ${`%${opts.nameContains.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`,
      );
    const sort = opts.sort ?? { field: 'created_at', desc: true };
    const [rows, count] = await Promise.all([
      q
        .selectAll()
        // By name ignoring case, as n8n's repository sorts (LOWER(name)).
        .orderBy(sort.field === 'name' ? sql`lower(name)` : sort.field, sort.desc ? 'desc' : 'asc')
        .orderBy('id')
        .limit(opts.limit)
        .offset(opts.offset)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { tables: rows.map(toTable), count: Number(count.n) };
  }

  async renameTable(id: string, name: string, now: string): Promise<void> {
    try {
      await this.k.updateTable('workflow_data_tables').set({ name, updated_at: now }).where('id', '=', id).execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw tableExists(name);
      throw err;
    }
  }

  async deleteTable(id: string): Promise<void> {
    await this.k.transaction().execute(async (trx) => {
      await trx.deleteFrom('workflow_data_table_rows').where('table_id', '=', id).execute();
      await trx.deleteFrom('workflow_data_tables').where('id', '=', id).execute();
    });
  }

  /** The bytes every table's rows take (n8n's instance-wide data table size). */
  async totalBytes(trx: Kysely<Tables> = this.k): Promise<number> {
    const r = await trx
      .selectFrom('workflow_data_tables')
      .select((eb) => eb.fn.sum<number>('size_bytes').as('n'))
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  // ---- rows

  /** The rows a query selects (one page) and how many it selects in all. */
  async rows(table: DataTable, q: RowQuery): Promise<{ rows: DataTableRowJson[]; count: number }> {
    let base = this.k.selectFrom('workflow_data_table_rows as r').where('r.table_id', '=', table.id);
    if (q.filter?.filters.length) base = base.where(filterSql(this.db.dialect, q.filter, table.columns) as never);
    if (q.search) base = base.where(searchSql(this.db.dialect, q.search, table.columns) as never);
    const sort = sortSql(this.db.dialect, q.sortBy, table.columns);
    let page = base.select(['r.id', 'r.data', 'r.created_at', 'r.updated_at']);
    // Nulls sort as the smallest values on both databases, as on SQLite (where n8n 2.8.4 was
    // recorded: dt-get-all-ordered); PostgreSQL would put them first when descending.
    if (sort)
      page =
        this.db.dialect === 'postgres'
          ? page.orderBy(sql`${sort.expr} ${sql.raw(sort.desc ? 'desc nulls last' : 'asc nulls first')}` as never)
          : page.orderBy(sort.expr as never, sort.desc ? 'desc' : 'asc');
    const [rows, count] = await Promise.all([
      page.orderBy('r.id').limit(q.limit).offset(q.offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map((r) => rowJson(r, table.columns)), count: Number(count.n) };
  }

  /** Every row a filter selects (the rows an update or delete touches; bounded by the size limit). */
  private async matching(trx: Kysely<Tables>, table: DataTable, filter: RowFilter): Promise<RowRow[]> {
    return trx
      .selectFrom('workflow_data_table_rows as r')
      .selectAll()
      .where('r.table_id', '=', table.id)
      .where(filterSql(this.db.dialect, filter, table.columns) as never)
      .orderBy('r.id')
      .execute();
  }

  /**
   * Inserts rows (their checked values) in one transaction and answers them as stored. The
   * instance's size limit is checked inside it, so two inserts cannot pass it together.
   */
  async insertRows(
    table: DataTable,
    values: Array<Record<string, unknown>>,
    now: string,
    maxBytes: number,
  ): Promise<DataTableRowJson[]> {
    const datas = values.map((v) => JSON.stringify(v));
    const bytes = datas.reduce((n, d) => n + bytesOf(d), 0);
    return this.k.transaction().execute(async (trx) => {
      const counter = await trx
        .updateTable('workflow_data_tables')
        .set((eb) => ({
          next_row_id: eb('next_row_id', '+', datas.length),
          row_count: eb('row_count', '+', datas.length),
          size_bytes: eb('size_bytes', '+', bytes),
          updated_at: now,
        }))
        .where('id', '=', table.id)
        .returning('next_row_id')
        .executeTakeFirst();
      if (!counter) throw new DomainError('not_found', `Could not find the data table: '${table.id}'`);
      await this.checkSize(trx, maxBytes);
      const first = Number(counter.next_row_id) - datas.length;
      const rows: RowRow[] = datas.map((data, i) => ({
        table_id: table.id,
        id: first + i,
        data,
        created_at: now,
        updated_at: now,
      }));
      // Chunks keep each statement under SQLite's and PostgreSQL's bound-parameter limits.
      for (let i = 0; i < rows.length; i += 500)
        await trx
          .insertInto('workflow_data_table_rows')
          .values(rows.slice(i, i + 500))
          .execute();
      return rows.map((r) => rowJson(r, table.columns));
    });
  }

  private async checkSize(trx: Transaction<Tables> | Kysely<Tables>, maxBytes: number): Promise<void> {
    const total = await this.totalBytes(trx);
    if (total > maxBytes)
      throw new DomainError(
        'invalid',
        `Data table size limit exceeded: the data tables of this instance would take ${total} bytes, more than the limit of ${maxBytes} bytes`,
      );
  }

  /**
   * Sets `patch` on the rows a filter selects; answers the rows before and after. With
   * `dryRun` nothing is written (the transaction is rolled back).
   */
  async updateRows(
    table: DataTable,
    filter: RowFilter,
    patch: Record<string, unknown>,
    now: string,
    maxBytes: number,
    dryRun: boolean,
  ): Promise<{ before: DataTableRowJson[]; after: DataTableRowJson[] }> {
    const rollback = new Error('dry run');
    let answer: { before: DataTableRowJson[]; after: DataTableRowJson[] } = { before: [], after: [] };
    try {
      await this.k.transaction().execute(async (trx) => {
        const matched = await this.matching(trx, table, filter);
        const updated = matched.map((r) => ({
          ...r,
          data: JSON.stringify({ ...(JSON.parse(r.data) as object), ...patch }),
          updated_at: now,
        }));
        const delta = updated.reduce((n, r, i) => n + bytesOf(r.data) - bytesOf(matched[i].data), 0);
        for (const r of updated)
          await trx
            .updateTable('workflow_data_table_rows')
            .set({ data: r.data, updated_at: now })
            .where('table_id', '=', table.id)
            .where('id', '=', r.id)
            .execute();
        if (updated.length) {
          await trx
            .updateTable('workflow_data_tables')
            .set((eb) => ({ size_bytes: eb('size_bytes', '+', delta), updated_at: now }))
            .where('id', '=', table.id)
            .execute();
          await this.checkSize(trx, maxBytes);
        }
        answer = {
          before: matched.map((r) => rowJson(r, table.columns)),
          after: updated.map((r) => rowJson(r, table.columns)),
        };
        if (dryRun) throw rollback;
      });
    } catch (err) {
      if (err !== rollback) throw err;
    }
    return answer;
  }

  /** Deletes the rows a filter selects (none with `dryRun`); answers them. */
  async deleteRows(table: DataTable, filter: RowFilter, now: string, dryRun: boolean): Promise<DataTableRowJson[]> {
    return this.k.transaction().execute(async (trx) => {
      const matched = await this.matching(trx, table, filter);
      if (!dryRun && matched.length) {
        const ids = matched.map((r) => r.id);
        for (let i = 0; i < ids.length; i += 500)
          await trx
            .deleteFrom('workflow_data_table_rows')
            .where('table_id', '=', table.id)
            .where('id', 'in', ids.slice(i, i + 500))
            .execute();
        const bytes = matched.reduce((n, r) => n + bytesOf(r.data), 0);
        await trx
          .updateTable('workflow_data_tables')
          .set((eb) => ({
            row_count: eb('row_count', '-', matched.length),
            size_bytes: eb('size_bytes', '-', bytes),
            updated_at: now,
          }))
          .where('id', '=', table.id)
          .execute();
      }
      return matched.map((r) => rowJson(r, table.columns));
    });
  }
}
