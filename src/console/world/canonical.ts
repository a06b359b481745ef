// Canonical form of rows, so that one state has one hash on SQLite and PostgreSQL alike:
// object keys sorted, bytes as {"$base64": …}, and rows ordered by their primary key.
import { createHash } from 'node:crypto';
import type { WorldRow } from '../../platform/world.js';

/** A JSON value with keys in sorted order at every depth; Buffers become {"$base64": "…"}. */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Buffer.isBuffer(value) || value instanceof Uint8Array)
    return `{"$base64":${JSON.stringify(Buffer.from(value).toString('base64'))}}`;
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.keys(value)
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
    if (v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
      return canonicalJson(row);
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
    if (v && typeof v === 'object' && typeof (v as { $base64?: unknown }).$base64 === 'string')
      row[k] = Buffer.from((v as { $base64: string }).$base64, 'base64');
  }
  return row;
}

const HIGH_UNITS = /[\uD800-\uFFFF]/;

/** Text by code point, as SQLite (BINARY) and PostgreSQL (COLLATE "C") order it: UTF-16 order but for surrogates. */
function compareText(a: string, b: string): number {
  if (a === b) return 0;
  // Code-unit order equals code-point order unless the first difference puts a surrogate
  // (a character above U+FFFF) against a unit from U+E000 up, which needs both texts to hold
  // units from U+D800 up; only then look closer.
  if (!HIGH_UNITS.test(a) || !HIGH_UNITS.test(b)) return a < b ? -1 : 1;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length - b.length;
  const x = a.charCodeAt(i);
  const y = b.charCodeAt(i);
  const surrogate = (c: number) => c >= 0xd800 && c <= 0xdfff;
  if (surrogate(x) !== surrogate(y) && (x >= 0xe000 || y >= 0xe000)) return surrogate(x) ? 1 : -1;
  return x - y;
}

/** The kind of a column value in the databases' order: NULL, numbers, text, bytes. */
function rank(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return 1;
  if (typeof v === 'string') return 2;
  return 3;
}

/** Bytes of a value as stored ({"$base64"} in a file, a Buffer from the database). */
const bytesOf = (v: unknown): Buffer =>
  Buffer.isBuffer(v) || v instanceof Uint8Array
    ? Buffer.from(v)
    : Buffer.from(String((v as { $base64?: unknown }).$base64 ?? canonicalJson(v)), 'base64');

/**
 * Orders two column values as the databases' ORDER BY does (NULLs first, numbers as numbers,
 * text by code point, bytes bytewise), so rows sorted here and rows read in key order from
 * SQLite or PostgreSQL come in the same order (snapshots stream rows in key order).
 */
function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return 0;
  if (ra === 1) return Number(a) - Number(b);
  if (ra === 2) return compareText(a as string, b as string);
  return Buffer.compare(bytesOf(a), bytesOf(b));
}

/** Orders two rows by their key columns. */
export function compareRows(x: WorldRow, y: WorldRow, key: string[]): number {
  for (const c of key) {
    const d = compareValues(x[c], y[c]);
    if (d) return d;
  }
  return 0;
}

/** Sorts rows by their key columns (the databases' order, see compareValues). */
export function sortRows(rows: WorldRow[], key: string[]): WorldRow[] {
  return rows.sort((x, y) => compareRows(x, y, key));
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
