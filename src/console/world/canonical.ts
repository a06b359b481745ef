// Canonical form of rows, so that one state has one hash on SQLite and PostgreSQL alike:
// object keys sorted, bytes as {"$base64": …}, and rows ordered by their primary key.
import { createHash } from 'node:crypto';
import type { WorldRow } from '../../platform/world.js';

/** A JSON value with keys in sorted order at every depth; Buffers become {"$base64": "…"}. */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return `{"$base64":${JSON.stringify(Buffer.from(value).toString('base64'))}}`;
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value);
}

/**
 * canonicalJson of a row, fast for the common row: when every column holds a string, a number,
 * a boolean or null, JSON.stringify with the sorted column names as its property list writes
 * the same text (V8's own serializer, several times faster on a 100k-row world); any other
 * row takes canonicalJson.
 */
export function canonicalRow(row: WorldRow): string {
  let sorted = true;
  let previous: string | undefined;
  for (const k in row) {
    const v = row[k];
    if (v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return canonicalJson(row);
    if (previous !== undefined && k <= previous) sorted = false;
    previous = k;
  }
  // A property list also fixes the order of integer-like names, which objects put first.
  return sorted ? JSON.stringify(row) : JSON.stringify(row, Object.keys(row).sort());
}

/** Turns a row read from a snapshot file back into column values (bytes included), in place. */
export function decodeRow(row: Record<string, unknown>): WorldRow {
  for (const k in row) {
    const v = row[k];
    if (v && typeof v === 'object' && typeof (v as { $base64?: unknown }).$base64 === 'string') row[k] = Buffer.from((v as { $base64: string }).$base64, 'base64');
  }
  return row;
}

/** A row's identity: its primary-key values as canonical JSON. */
export const rowKey = (row: WorldRow, key: string[]): string => canonicalJson(key.map((c) => row[c]));

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = typeof a === 'string' ? a : canonicalJson(a);
  const sb = typeof b === 'string' ? b : canonicalJson(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** Sorts rows by their key columns (numbers as numbers, text by code unit: the same on both databases). */
export function sortRows(rows: WorldRow[], key: string[]): WorldRow[] {
  return rows.sort((x, y) => {
    for (const c of key) {
      const d = compareValues(x[c], y[c]);
      if (d) return d;
    }
    return 0;
  });
}

/** SHA-256 over every table in name order: its name, then each row's canonical JSON, one a line. */
export function hashTables(tables: Iterable<{ name: string; rows: WorldRow[] }>): string {
  return hashTexts([...tables].map((t) => ({ name: t.name, text: tableText(t.rows.map(canonicalRow)) })));
}

/** A table's canonical rows as the hash (and a snapshot file) has them: one a line. */
export const tableText = (lines: string[]): string => (lines.length ? lines.join('\n') + '\n' : '');

/** hashTables over tables already made canonical text (a save writes the same text to its file). */
export function hashTexts(tables: Array<{ name: string; text: string }>): string {
  const h = createHash('sha256');
  for (const t of [...tables].sort((a, b) => (a.name < b.name ? -1 : 1))) h.update(`# ${t.name}\n`).update(t.text);
  return h.digest('hex');
}
