// n8n's data table row filters, checked and turned into SQL over the rows' JSON column:
// `{type: 'and'|'or', filters: [{columnName, condition, value}]}` with the conditions eq, neq,
// like, ilike, gt, gte, lt, lte. Column names and values are always bound parameters (the JSON
// path too), so a filter can name only a column the table has and never reaches the SQL text.
import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../../../platform/db.js';
import { DomainError } from '../../../platform/errors.js';
import type { ColumnType, DataTableColumn } from './data-table-types.js';

const CONDITIONS = ['eq', 'neq', 'like', 'ilike', 'gt', 'gte', 'lt', 'lte'] as const;
export type Condition = (typeof CONDITIONS)[number];

export interface FilterCondition {
  columnName: string;
  condition: Condition;
  value: unknown;
}

export interface RowFilter {
  type: 'and' | 'or';
  filters: FilterCondition[];
}

/** The system columns every row has beside its own (n8n's id, createdAt, updatedAt). */
const SYSTEM_COLUMNS: Record<string, { sqlName: string; type: ColumnType }> = {
  id: { sqlName: 'id', type: 'number' },
  createdAt: { sqlName: 'created_at', type: 'date' },
  updatedAt: { sqlName: 'updated_at', type: 'date' },
};

/** More conditions than this in one filter is refused: each is a clause of the query. */
const MAX_CONDITIONS = 100;

const invalid = (message: string) => new DomainError('invalid', message);

/** Reads a filter given as an object or as JSON text (the query string's form); undefined stays undefined. */
export function parseFilter(raw: unknown): RowFilter | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  let value = raw;
  if (typeof raw === 'string') {
    if (raw.length > 100_000) throw invalid('filter is too long');
    try {
      value = JSON.parse(raw);
    } catch {
      throw invalid('filter must be valid JSON');
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalid('filter must be an object');
  const f = value as Record<string, unknown>;
  const type = f.type ?? 'and';
  if (type !== 'and' && type !== 'or') throw invalid("filter.type must be 'and' or 'or'");
  if (!Array.isArray(f.filters)) throw invalid('filter.filters must be an array');
  if (f.filters.length > MAX_CONDITIONS) throw invalid(`filter.filters must have at most ${MAX_CONDITIONS} conditions`);
  const filters = f.filters.map((c, i) => {
    if (!c || typeof c !== 'object' || Array.isArray(c)) throw invalid(`filter.filters[${i}] must be an object`);
    const { columnName, condition = 'eq', value: v } = c as Record<string, unknown>;
    if (typeof columnName !== 'string' || !columnName)
      throw invalid(`filter.filters[${i}].columnName must be a string`);
    if (!CONDITIONS.includes(condition as Condition))
      throw invalid(`filter.filters[${i}].condition must be one of ${CONDITIONS.join(', ')}`);
    if (v !== null && typeof v === 'object')
      throw invalid(`filter.filters[${i}].value must be a string, number, boolean or null`);
    return { columnName, condition: condition as Condition, value: v };
  });
  return { type, filters };
}

/** The SQL expression of one column of a row, typed so comparisons follow the column's type. */
function columnExpr(dialect: Dialect, name: string, type: ColumnType): RawBuilder<unknown> {
  const system = SYSTEM_COLUMNS[name];
  if (system) return sql.ref(`r.${system.sqlName}`);
  const path = `$."${name}"`;
  if (dialect === 'postgres') {
    const text = sql`(r.data::jsonb ->> ${name})`;
    if (type === 'number') return sql`(${text})::double precision`;
    if (type === 'boolean') return sql`(${text})::boolean`;
    return text;
  }
  // SQLite's json_extract answers JSON true/false as 1/0 and numbers as numbers.
  return sql`json_extract(r.data, ${path})`;
}

/** A value as the column's SQL expression compares it. */
function sqlValue(dialect: Dialect, type: ColumnType, value: unknown): unknown {
  if (type === 'boolean' && typeof value === 'boolean' && dialect === 'sqlite') return value ? 1 : 0;
  if (type === 'number' && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  if (type === 'date' && typeof value === 'string') {
    const t = Date.parse(value);
    if (Number.isFinite(t)) return new Date(t).toISOString();
  }
  return value;
}

/** The WHERE clause of a filter over the table's columns; a column it does not have is a 400. */
export function filterSql(dialect: Dialect, filter: RowFilter, columns: DataTableColumn[]): RawBuilder<unknown> {
  const typeOf = (name: string): ColumnType => {
    const system = SYSTEM_COLUMNS[name];
    if (system) return system.type;
    const col = columns.find((c) => c.name === name);
    if (!col) throw invalid(`Column '${name}' does not exist`);
    return col.type;
  };
  const parts = filter.filters.map(({ columnName, condition, value }) => {
    const type = typeOf(columnName);
    const col = columnExpr(dialect, columnName, type);
    const v = sqlValue(dialect, type, value);
    if (value === null) {
      if (condition === 'eq') return sql`${col} is null`;
      if (condition === 'neq') return sql`${col} is not null`;
      throw invalid(`${condition} cannot compare with null`);
    }
    switch (condition) {
      case 'eq':
        return sql`${col} = ${v}`;
      case 'neq':
        // n8n keeps rows whose value is null for neq (a null is not equal to the value).
        return sql`(${col} is null or ${col} <> ${v})`;
      case 'gt':
        return sql`${col} > ${v}`;
      case 'gte':
        return sql`${col} >= ${v}`;
      case 'lt':
        return sql`${col} < ${v}`;
      case 'lte':
        return sql`${col} <= ${v}`;
      case 'like':
      case 'ilike': {
        if (typeof value !== 'string') throw invalid(`${condition} needs a string value`);
        // As n8n's service: a pattern without % matches anywhere (oracle: dt-get-like, and its API).
        const pattern = value.includes('%') ? value : `%${value}%`;
        // n8n's LIKE: only % is a wildcard, every other character is itself; ilike ignores case.
        if (condition === 'ilike')
          return sql`upper(cast(${col} as text)) like upper(${escapeLike(pattern)}) escape '\\'`;
        return dialect === 'postgres'
          ? sql`cast(${col} as text) like ${escapeLike(pattern)} escape '\\'`
          : sql`cast(${col} as text) glob ${percentToGlob(pattern)}`;
      }
    }
  });
  // Parenthesized: the caller ANDs it with the table id, which an unbracketed OR would escape.
  return sql`(${sql.join(parts, filter.type === 'or' ? sql` or ` : sql` and `)})`;
}

/** A LIKE pattern where only % stays a wildcard (_ and \ are escaped). */
const escapeLike = (pattern: string) => pattern.replace(/[\\_]/g, (c) => `\\${c}`);

/** SQLite's LIKE ignores ASCII case; GLOB does not, so case-sensitive `like` is run as a GLOB. */
function percentToGlob(pattern: string): string {
  let out = '';
  for (const ch of pattern) {
    if (ch === '%') out += '*';
    else if (ch === '*' || ch === '?' || ch === '[' || ch === ']') out += `[${ch}]`;
    else out += ch;
  }
  return out;
}

/** `columnName:asc|desc` (n8n's sortBy) over a system or table column. */
export function sortSql(
  dialect: Dialect,
  sortBy: string | undefined,
  columns: DataTableColumn[],
): { expr: RawBuilder<unknown>; desc: boolean } | undefined {
  if (!sortBy) return undefined;
  const m = /^([A-Za-z][A-Za-z0-9_]*):(asc|desc)$/i.exec(sortBy);
  if (!m) throw invalid("sortBy must be 'columnName:asc' or 'columnName:desc'");
  const [, name, dir] = m;
  const system = SYSTEM_COLUMNS[name];
  const col = columns.find((c) => c.name === name);
  if (!system && !col) throw invalid(`Column '${name}' does not exist`);
  return { expr: columnExpr(dialect, name, system ? system.type : col!.type), desc: dir.toLowerCase() === 'desc' };
}

/** n8n's search: any string column containing the text, ignoring case. */
export function searchSql(
  dialect: Dialect,
  search: string,
  columns: DataTableColumn[],
): RawBuilder<unknown> | undefined {
  const strings = columns.filter((c) => c.type === 'string');
  if (!strings.length) return sql`1 = 0`;
  const needle = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const parts = strings.map(
    (c) => sql`lower(cast(${columnExpr(dialect, c.name, c.type)} as text)) like ${needle} escape '\\'`,
  );
  return sql`(${sql.join(parts, sql` or `)})`;
}
