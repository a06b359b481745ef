// A row's values checked against the table's columns, as n8n checks them before a write: an
// unknown column or a value of the wrong type is refused with n8n's words; dates are stored as
// ISO 8601 UTC text, so they sort and compare as text.
import { DomainError } from '../../../platform/errors.js';
import type { DataTableColumn } from '../store/data-table-types.js';

const invalid = (message: string) => new DomainError('invalid', message);

/** The longest text one value may hold; a whole table is bounded by the instance's size limit. */
const MAX_VALUE_CHARS = 1_000_000;

function checkValue(col: DataTableColumn, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const wrong = () =>
    invalid(`value '${String(value).slice(0, 100)}' does not match column type '${col.type}': ${col.name}`);
  switch (col.type) {
    case 'string':
      if (typeof value !== 'string') throw wrong();
      if (value.length > MAX_VALUE_CHARS)
        throw invalid(`value of column '${col.name}' is longer than ${MAX_VALUE_CHARS} characters`);
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw wrong();
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw wrong();
      return value;
    case 'date': {
      if (typeof value !== 'string' && !(value instanceof Date)) throw wrong();
      const t = value instanceof Date ? value.getTime() : Date.parse(value);
      if (!Number.isFinite(t)) throw wrong();
      return new Date(t).toISOString();
    }
  }
}

/**
 * The stored values of a row: each given column checked; `partial` (an update) leaves out the
 * columns not given, a full row (insert) sets them to null.
 */
export function checkRow(columns: DataTableColumn[], raw: unknown, partial: boolean): Record<string, unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalid('a row must be an object');
  const given = raw as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!columns.some((c) => c.name === key)) throw invalid(`unknown column name '${key}'`);
  }
  const out: Record<string, unknown> = {};
  for (const col of columns) {
    if (col.name in given) out[col.name] = checkValue(col, given[col.name]);
    else if (!partial) out[col.name] = null;
  }
  return out;
}
