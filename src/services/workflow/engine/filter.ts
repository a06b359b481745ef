// n8n's shared "filter" condition format (IF v2, Filter v2, Switch v3): typed operators,
// strict or loose type validation, and and/or combinators.
import { DateTime } from 'luxon';
import { NodeOperationError } from './node-type.js';

export interface FilterCondition {
  id?: string;
  leftValue?: unknown;
  rightValue?: unknown;
  operator?: { type?: string; operation?: string; singleValue?: boolean; rightType?: string };
}

export interface FilterValue {
  options?: { caseSensitive?: boolean; typeValidation?: 'strict' | 'loose'; leftValue?: unknown; version?: number };
  conditions?: FilterCondition[];
  combinator?: 'and' | 'or';
}

export interface FilterOptions {
  /** Node-level `looseTypeValidation` (IF 2.1+, Filter 2.1+) or `options.looseTypeValidation`. */
  loose?: boolean;
  ignoreCase?: boolean;
  itemIndex: number;
}

/** Evaluates an already-resolved filter value for one item. */
export function evaluateFilter(filter: FilterValue | undefined, opts: FilterOptions): boolean {
  const conditions = filter?.conditions ?? [];
  if (!conditions.length) return true;
  // Observed in n8n 2.8.4: a filter value without a combinator is not evaluated at all and
  // counts as passing (a Switch v3 rule written that way matches every item).
  if (filter?.combinator === undefined) return true;
  const caseSensitive = opts.ignoreCase ? false : (filter?.options?.caseSensitive ?? true);
  // Strict only when the filter says so: a filter written without `typeValidation` (as older
  // exports and hand-written workflows are) converts types loosely (observed with IF 2–2.2).
  const loose = opts.loose || filter?.options?.typeValidation !== 'strict';
  const and = filter?.combinator === 'and';
  for (let i = 0; i < conditions.length; i++) {
    const ok = evaluateCondition(conditions[i], {
      caseSensitive,
      loose,
      itemIndex: opts.itemIndex,
      index: i,
      emptyIsNull: (filter?.options?.version ?? 1) < 3 || loose,
    });
    if (and && !ok) return false;
    if (!and && ok) return true;
  }
  return and;
}

function isEmptyValue(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  if (typeof v === 'number') return Number.isNaN(v);
  return false;
}

const isPlain = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);

function coerce(
  value: unknown,
  type: string,
  loose: boolean,
  side: string,
  ctx: { itemIndex: number; index: number },
): unknown {
  if (value === undefined || value === null) return value;
  // n8n's wording (observed): the value as text, its JavaScript type (arrays are "an object"),
  // and the condition and item in the message itself.
  const suffix = `[condition ${ctx.index}, item ${ctx.itemIndex}]`;
  const wrong = () =>
    new NodeOperationError(
      `Wrong type: '${isPlain(value) ? JSON.stringify(value) : String(value)}' is ${article(typeof value)} but was expecting ${article(type)} ${suffix}`,
    );
  const conversion = () =>
    new NodeOperationError(
      `Conversion error: the string '${String(value)}' can't be converted to ${article(type)} ${suffix}`,
    );
  switch (type) {
    case 'string':
      if (typeof value === 'string') return value;
      if (loose) return typeof value === 'object' ? JSON.stringify(value) : String(value);
      throw wrong();
    case 'number': {
      if (typeof value === 'number') return value;
      if (loose) {
        if (typeof value === 'boolean') return value ? 1 : 0;
        if (typeof value !== 'string') return Number(value);
        const n = value.trim() !== '' ? Number(value) : NaN;
        if (!Number.isNaN(n)) return n;
        throw conversion();
      }
      throw wrong();
    }
    case 'boolean': {
      if (typeof value === 'boolean') return value;
      if (loose) {
        if (typeof value === 'string') return !['false', '0', ''].includes(value.trim().toLowerCase());
        return Boolean(value);
      }
      throw wrong();
    }
    case 'dateTime': {
      if (value instanceof Date) return DateTime.fromJSDate(value);
      if (typeof value === 'string') {
        const d = DateTime.fromISO(value, { setZone: true });
        if (d.isValid) return d;
        if (loose) {
          const j = new Date(value);
          if (!Number.isNaN(j.getTime())) return DateTime.fromJSDate(j);
        }
      }
      if (typeof value === 'number' && loose) return DateTime.fromMillis(value);
      throw wrong();
    }
    case 'array':
      if (Array.isArray(value)) return value;
      if (loose && typeof value === 'string') {
        try {
          const p = JSON.parse(value);
          if (Array.isArray(p)) return p;
        } catch {
          /* fall through */
        }
      }
      throw wrong();
    case 'object':
      if (value && typeof value === 'object' && !Array.isArray(value)) return value;
      if (loose && typeof value === 'string') {
        try {
          const p = JSON.parse(value);
          if (p && typeof p === 'object' && !Array.isArray(p)) return p;
        } catch {
          /* fall through */
        }
      }
      throw wrong();
    default:
      return value;
  }
  void side;
}

const article = (t: string) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);

function evaluateCondition(
  c: FilterCondition,
  o: { caseSensitive: boolean; loose: boolean; itemIndex: number; index: number; emptyIsNull: boolean },
): boolean {
  const type = c.operator?.type ?? 'string';
  const op = c.operator?.operation ?? 'equals';
  // The left value is type-checked first, even for exists/empty (observed: a number under a
  // string "exists" fails in strict mode); null and missing values pass.
  const rawLeft = c.leftValue;
  if (rawLeft !== undefined && rawLeft !== null && rawLeft !== '') coerce(rawLeft, type, o.loose, 'left', o);
  switch (op) {
    case 'exists':
      return rawLeft !== undefined && rawLeft !== null && !(typeof rawLeft === 'number' && Number.isNaN(rawLeft));
    case 'notExists':
      return rawLeft === undefined || rawLeft === null || (typeof rawLeft === 'number' && Number.isNaN(rawLeft));
    case 'empty':
      return isEmptyValue(rawLeft);
    case 'notEmpty':
      return !isEmptyValue(rawLeft);
  }
  // An empty string on the left is "no value" for typed comparisons (n8n treats '' as null),
  // except in a strict filter of version 3, which checks '' as text (observed: "Wrong type: ''
  // is a string but was expecting a dateTime").
  const leftIn = rawLeft === '' && type !== 'string' && o.emptyIsNull ? null : rawLeft;
  let left = coerce(leftIn, type, o.loose, 'left', o);
  if (type === 'boolean' && (op === 'true' || op === 'false')) return op === 'true' ? left === true : left === false;
  // Without `rightType` the right value is checked against the operator's type (observed: an
  // array "contains 'a'" written without rightType fails), as n8n's editor always writes it.
  const rightType = c.operator?.rightType ?? type;
  const rightIn = c.rightValue === '' && rightType !== 'string' && o.emptyIsNull ? null : c.rightValue;
  let right = rightType === 'any' ? rightIn : coerce(rightIn, rightType, o.loose, 'right', o);
  if (type === 'string' && !o.caseSensitive) {
    if (typeof left === 'string') left = left.toLowerCase();
    if (typeof right === 'string') right = right.toLowerCase();
  }
  switch (type) {
    case 'string': {
      const l = (left ?? '') as string;
      const r = (right ?? '') as string;
      switch (op) {
        case 'equals':
          return left === right;
        case 'notEquals':
          return left !== right;
        case 'contains':
          return l.includes(r);
        case 'notContains':
          return !l.includes(r);
        case 'startsWith':
          return l.startsWith(r);
        case 'notStartsWith':
          return !l.startsWith(r);
        case 'endsWith':
          return l.endsWith(r);
        case 'notEndsWith':
          return !l.endsWith(r);
        case 'regex':
          return toRegex(r).test(l);
        case 'notRegex':
          return !toRegex(r).test(l);
      }
      break;
    }
    case 'number': {
      const l = left as number;
      const r = right as number;
      switch (op) {
        case 'equals':
          return l === r;
        case 'notEquals':
          return l !== r;
        case 'gt':
          return l > r;
        case 'lt':
          return l < r;
        case 'gte':
          return l >= r;
        case 'lte':
          return l <= r;
      }
      break;
    }
    case 'boolean':
      if (op === 'equals') return left === right;
      if (op === 'notEquals') return left !== right;
      break;
    case 'dateTime': {
      const l = (left as DateTime | null)?.toMillis();
      const r = (right as DateTime | null)?.toMillis();
      if (l === undefined || r === undefined) return false;
      switch (op) {
        case 'after':
          return l > r;
        case 'before':
          return l < r;
        case 'afterOrEquals':
          return l >= r;
        case 'beforeOrEquals':
          return l <= r;
        case 'equals':
          return l === r;
        case 'notEquals':
          return l !== r;
      }
      break;
    }
    case 'array': {
      const l = (left ?? []) as unknown[];
      switch (op) {
        case 'contains':
          return l.some((v) => JSON.stringify(v) === JSON.stringify(right));
        case 'notContains':
          return !l.some((v) => JSON.stringify(v) === JSON.stringify(right));
        case 'lengthEquals':
          return l.length === right;
        case 'lengthNotEquals':
          return l.length !== right;
        case 'lengthGt':
          return l.length > (right as number);
        case 'lengthLt':
          return l.length < (right as number);
        case 'lengthGte':
          return l.length >= (right as number);
        case 'lengthLte':
          return l.length <= (right as number);
      }
      break;
    }
    case 'object':
      break;
  }
  throw new NodeOperationError(`Unknown operation "${op}" for type "${type}"`);
}

function toRegex(text: string): RegExp {
  const m = /^\/(.*)\/([gimsuy]*)$/.exec(text);
  try {
    return m ? new RegExp(m[1], m[2].replace('g', '')) : new RegExp(text);
  } catch {
    throw new NodeOperationError(`Invalid regular expression: ${text}`);
  }
}
