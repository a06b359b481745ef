// A row's values made their columns' types as n8n 2.8.4's data table service makes them, for its
// public API and its Data Table node alike (oracle: dt-insert-automap, dt-string-column-values,
// and the API answers recorded in docs/workflow.md): '12' into a number column is 12, 'true' or 1
// a boolean, dates in ISO, HTTP, RFC 2822 or SQL form become ISO UTC, anything into a string
// column is text; otherwise n8n's "Validation error with data table request: …". Unknown
// columns are refused; objects and arrays are not values.
import { DateTime } from 'luxon';
import { DomainError } from '../../../platform/errors.js';
import type { ColumnType, DataTableColumn } from '../store/data-table-types.js';

/** n8n's validation error: its message carries n8n's prefix. */
export class DataTableValidationError extends Error {
  constructor(message: string) {
    super(`Validation error with data table request: ${message}`);
  }
}

/** The row's system columns and their types (n8n's DATA_TABLE_SYSTEM_COLUMN_TYPE_MAP). */
export const SYSTEM_TYPES: Record<string, ColumnType> = { id: 'number', createdAt: 'date', updatedAt: 'date' };
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
export function cellValue(value: unknown, key: string, type: ColumnType | undefined, keepDates = false): unknown {
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

/** The longest text one value may hold; a whole table is bounded by the instance's size limit. */
const MAX_VALUE_CHARS = 1_000_000;

/**
 * The stored values of a row given to the API: each given column checked and coerced; `partial`
 * (an update) leaves out the columns not given, a full row (insert) sets them to null.
 */
export function checkRow(columns: DataTableColumn[], raw: unknown, partial: boolean): Record<string, unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new DomainError('invalid', 'a row must be an object');
  const given = raw as Record<string, unknown>;
  const types = new Map(columns.map((c) => [c.name, c.type]));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(given)) {
    if (!types.has(key))
      throw new DomainError('invalid', new DataTableValidationError(`unknown column name '${key}'`).message);
    if (value !== null && typeof value === 'object')
      throw new DomainError('invalid', `value of column '${key}' must be a string, number, boolean or null`);
    if (typeof value === 'string' && value.length > MAX_VALUE_CHARS)
      throw new DomainError('invalid', `value of column '${key}' is longer than ${MAX_VALUE_CHARS} characters`);
    try {
      out[key] = cellValue(value, key, types.get(key));
    } catch (err) {
      throw new DomainError('invalid', (err as Error).message);
    }
  }
  if (!partial) for (const c of columns) if (!(c.name in out)) out[c.name] = null;
  return out;
}
