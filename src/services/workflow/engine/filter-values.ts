// How n8n's filter conditions read a value as the operator's type (IF v2, Filter v2, Switch v3):
// which values are accepted as is, which are converted, and which are refused. Learnt from n8n
// 2.8.4's behaviour; the rules below are the ones the oracle shows.
import { DateTime } from 'luxon';

export type Parsed = { valid: true; value: unknown } | { valid: false };

const ok = (value: unknown): Parsed => ({ valid: true, value });
const refused: Parsed = { valid: false };

/**
 * A condition value read as `type`. null and undefined pass unchanged, as does anything for the
 * type "any". `strict` refuses a value whose JavaScript type is not the expected one (dateTime
 * excepted: any value a date can be read from passes). `version` is the filter's own version.
 */
export function parseFilterValue(value: unknown, type: string, strict: boolean, version: number): Parsed {
  if (type === 'any' || value === null || value === undefined) return ok(value);
  if (type === 'boolean' && !strict) {
    // Loose booleans: version 2+ reads "true"/"false"/0/1 first; anything else by its truthiness.
    if (version >= 2) {
      const b = readBoolean(value);
      if (b.valid) return b;
    }
    return ok(Boolean(value));
  }
  if (type === 'number') {
    if (typeof value === 'number' && Number.isNaN(value)) return ok(value);
    // From version 3 an empty text or empty list is no number rather than 0.
    const blank = (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
    if (blank && version >= 3) return ok(null);
  }
  return readAs(value, type, strict);
}

function readAs(value: unknown, type: string, strict: boolean): Parsed {
  switch (type.toLowerCase()) {
    case 'string':
      if (strict && typeof value !== 'string') return refused;
      return ok(typeof value === 'object' ? JSON.stringify(value) : String(value));
    case 'number': {
      if (strict && typeof value !== 'number') return refused;
      return readNumber(value);
    }
    case 'boolean':
      if (strict && typeof value !== 'boolean') return refused;
      return readBoolean(value);
    case 'datetime':
      return readDateTime(value);
    case 'object':
      // Lists count as objects for the strict check (they then fail to read as one).
      if (strict && (value === null || (typeof value !== 'object' && typeof value !== 'function'))) return refused;
      return readObject(value);
    case 'array':
      if (strict && !Array.isArray(value)) return refused;
      return readArray(value);
    default:
      return ok(value);
  }
}

/** JavaScript's Number(), refusing what it cannot read (NaN). */
function readNumber(value: unknown): Parsed {
  let n: number;
  try {
    n = Number(value);
  } catch {
    return refused;
  }
  return Number.isNaN(n) ? refused : ok(n);
}

/** true/false in any case, or a value Number() reads as 0 or 1 (a blank text is neither). */
function readBoolean(value: unknown): Parsed {
  if (typeof value === 'boolean') return ok(value);
  if (typeof value === 'string' && ['true', 'false'].includes(value.toLowerCase()))
    return ok(value.toLowerCase() === 'true');
  if (!(typeof value === 'string' && value.trim() === '')) {
    const n = readNumber(value);
    if (n.valid && n.value === 0) return ok(false);
    if (n.valid && n.value === 1) return ok(true);
  }
  return refused;
}

/** A date from a Date, or text in ISO, HTTP, RFC 2822 or SQL form, or anything Date.parse reads. */
function readDateTime(value: unknown): Parsed {
  if (DateTime.isDateTime(value) && value.isValid) return ok(value);
  if (value instanceof Date) {
    const d = DateTime.fromJSDate(value);
    if (d.isValid) return ok(d);
  }
  const text = String(value).trim();
  const readers = [
    () => DateTime.fromISO(text, { setZone: true }),
    () => DateTime.fromHTTP(text, { setZone: true }),
    () => DateTime.fromRFC2822(text, { setZone: true }),
    () => DateTime.fromSQL(text, { setZone: true }),
  ];
  for (const read of readers) {
    const d = read();
    if (d.isValid) return ok(d);
  }
  const millis = Date.parse(text);
  return Number.isNaN(millis) ? refused : ok(DateTime.fromMillis(millis));
}

/** A list, or text holding a JSON list (single quotes read as double ones). */
function readArray(value: unknown): Parsed {
  if (Array.isArray(value)) return ok(value);
  const text = String(value);
  for (const candidate of [text, text.replace(/'/g, '"')]) {
    try {
      const parsed: unknown = JSON.parse(candidate);
      return Array.isArray(parsed) ? ok(parsed) : refused;
    } catch {
      /* the next reading */
    }
  }
  return refused;
}

/** An object, or text holding a JSON object ("null" reads as null, as JSON says). */
function readObject(value: unknown): Parsed {
  if (value && typeof value === 'object' && !Array.isArray(value)) return ok(value);
  try {
    const parsed: unknown = JSON.parse(String(value));
    return typeof parsed === 'object' && !Array.isArray(parsed) ? ok(parsed) : refused;
  } catch {
    return refused;
  }
}
