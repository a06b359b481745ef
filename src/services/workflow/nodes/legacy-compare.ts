// The comparisons of n8n's first condition format (IF v1, Filter v1, Switch v1/v2): one value1,
// an operation and a value2 per condition, compared with JavaScript's loose habits. Learnt from
// n8n 2.8.4's behaviour (recorded with the oracle); no type conversion beyond what is written here.
import { NodeOperationError } from '../engine/node-type.js';

/** An empty value for isEmpty: nothing, '', NaN, an object or list without entries, an invalid Date. */
function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || (typeof v === 'number' && Number.isNaN(v))) return true;
  if (v instanceof Date) return Number.isNaN(v.getTime());
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

/** Text of a value for contains/regex: a falsy value (0, false, '', null) is '', anything else its toString(). */
const text = (v: unknown): string => (v ? String(v) : '');

/** startsWith/endsWith are called on value1 itself: what JavaScript says for anything but text. */
function ownText(v: unknown, method: string): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null)
    throw new NodeOperationError(`Cannot read properties of ${v} (reading '${method}')`);
  throw new NodeOperationError(`value1.${method} is not a function`);
}

/** "/pattern/flags" or a bare pattern; a bad pattern fails with JavaScript's message. */
function regex(pattern: unknown): RegExp {
  const source = text(pattern);
  const m = /^\/(.*?)\/([gimusy]*)$/.exec(source);
  try {
    return m ? new RegExp(m[1], m[2]) : new RegExp(source);
  } catch (err) {
    throw new NodeOperationError((err as Error).message);
  }
}

// Ordering comparisons treat a falsy side (undefined, null, '', NaN, false) as 0.
type Ordered = number | string | boolean;
const orderable = (v: unknown) => (v || 0) as Ordered;

const OPERATIONS: Record<string, (a: unknown, b: unknown) => boolean> = {
  equal: (a, b) => a === b,
  notEqual: (a, b) => a !== b,
  smaller: (a, b) => orderable(a) < orderable(b),
  smallerEqual: (a, b) => orderable(a) <= orderable(b),
  larger: (a, b) => orderable(a) > orderable(b),
  largerEqual: (a, b) => orderable(a) >= orderable(b),
  before: (a, b) => orderable(a) < orderable(b),
  after: (a, b) => orderable(a) > orderable(b),
  contains: (a, b) => text(a).includes(text(b)),
  notContains: (a, b) => !text(a).includes(text(b)),
  startsWith: (a, b) => ownText(a, 'startsWith').startsWith(String(b)),
  notStartsWith: (a, b) => !ownText(a, 'startsWith').startsWith(String(b)),
  endsWith: (a, b) => ownText(a, 'endsWith').endsWith(String(b)),
  notEndsWith: (a, b) => !ownText(a, 'endsWith').endsWith(String(b)),
  isEmpty: (a) => isEmpty(a),
  isNotEmpty: (a) => !isEmpty(a),
  regex: (a, b) => regex(b).test(text(a)),
  notRegex: (a, b) => !regex(b).test(text(a)),
};

export function compareLegacy(operation: string, value1: unknown, value2: unknown): boolean {
  const compare = OPERATIONS[operation];
  if (!compare) throw new NodeOperationError(`compareOperationFunctions[operation] is not a function`);
  return compare(value1, value2);
}

/**
 * A dateTime condition's value as milliseconds: text through JavaScript's Date, a number as is,
 * a Date by its time. Anything else, or text Date cannot read, fails the node with n8n's message
 * (both values of a condition are read, so value2's default '' fails too).
 */
export function legacyDateTime(value: unknown): number {
  let ms: number | undefined;
  if (typeof value === 'string') ms = new Date(value).getTime();
  else if (typeof value === 'number') ms = value;
  else if (value instanceof Date) ms = value.getTime();
  if (ms === undefined || Number.isNaN(ms))
    throw new NodeOperationError(`The value "${String(value)}" is not a valid DateTime.`);
  return ms;
}

/**
 * A condition field as n8n fills it from the node's parameters: left out, it is the field's
 * default; written as null, a text or date field takes its default too, while a number or
 * boolean field keeps the null (n8n replaces only a missing one there). `raw` is the field as
 * written, `resolved` its value for the item.
 */
export function legacyField(raw: unknown, resolved: unknown, type: string, fallback: unknown): unknown {
  if (raw === undefined) return fallback;
  if (raw === null && (type === 'string' || type === 'dateTime')) return fallback;
  return resolved;
}
