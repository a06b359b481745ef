// List query parameters as the SDK and curl users send them: limit, opaque page tokens, and
// array filters given as a JSON-encoded array, repeated parameters, one plain value or (for
// labels) a comma list; dates as ISO strings; booleans as true/false.
import { invalid } from '../errors.js';
import type { Cursor } from '../store/index.js';

export type Query = Record<string, unknown>;

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

export function limitOf(q: Query): number {
  const raw = q.limit;
  if (raw === undefined || raw === '') return DEFAULT_LIMIT;
  const s = String(Array.isArray(raw) ? raw[0] : raw);
  if (!/^\d+$/.test(s) || Number(s) < 1) throw invalid('limit', 'must be a whole number of at least 1');
  return Math.min(Number(s), MAX_LIMIT);
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

export function cursorOf(q: Query): Cursor | undefined {
  const raw = q.page_token;
  if (raw === undefined || raw === '') return undefined;
  try {
    const c = JSON.parse(Buffer.from(String(raw), 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(c) && c.length === 2 && c.every((x) => typeof x === 'string')) return c as Cursor;
  } catch {
    /* reported below */
  }
  throw invalid('page_token', 'is not a valid page token');
}

export function listOf(q: Query, name: string, commas = false): string[] | undefined {
  const raw = q[name];
  if (raw === undefined || raw === '') return undefined;
  const out: string[] = [];
  for (const v of Array.isArray(raw) ? raw : [raw]) {
    const s = String(v).trim();
    if (s.startsWith('[')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(s);
      } catch {
        throw invalid(name, 'is not a valid JSON array');
      }
      if (!Array.isArray(parsed) || !parsed.every((x) => typeof x === 'string'))
        throw invalid(name, 'must be an array of strings');
      out.push(...parsed);
    } else if (commas) {
      out.push(
        ...s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      );
    } else {
      out.push(s);
    }
  }
  return out.length ? out : undefined;
}

export function dateOf(q: Query, name: string): string | undefined {
  const raw = q[name];
  if (raw === undefined || raw === '') return undefined;
  const s = String(Array.isArray(raw) ? raw[0] : raw);
  const d = new Date(s);
  if (Number.isNaN(d.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(s)) throw invalid(name, 'must be an ISO 8601 date-time');
  return d.toISOString();
}

export function boolOf(q: Query, name: string): boolean | undefined {
  const raw = q[name];
  if (raw === undefined || raw === '') return undefined;
  const s = String(Array.isArray(raw) ? raw[0] : raw).toLowerCase();
  if (s === 'true' || s === '1') return true;
  if (s === 'false' || s === '0') return false;
  throw invalid(name, 'must be true or false');
}

/** Labels hidden from lists unless the matching include_* parameter is true. */
export function excludedLabels(q: Query): string[] {
  const out: string[] = [];
  for (const label of ['spam', 'blocked', 'unauthenticated', 'trash'])
    if (!boolOf(q, `include_${label}`)) out.push(label);
  return out;
}

/** Splits a fetched limit+1 page into the items and the next page token. */
export function pageOf<T>(
  rows: T[],
  limit: number,
  cursorFor: (last: T) => Cursor,
): { items: T[]; next_page_token?: string } {
  if (rows.length <= limit) return { items: rows };
  const items = rows.slice(0, limit);
  return { items, next_page_token: encodeCursor(cursorFor(items[items.length - 1])) };
}
