// n8n's shared "filter" condition format (IF v2, Filter v2, Switch v3): typed operators, strict
// or loose type validation, and and/or combinators. Everything the evaluation depends on is in
// the filter value itself (its options); the nodes' own "ignore case" and "loose type
// validation" settings only reach it through what the editor writes there.
import type { DateTime } from 'luxon';
import { NodeOperationError } from './node-type.js';
import { parseFilterValue } from './filter-values.js';

export interface FilterCondition {
  id?: string;
  leftValue?: unknown;
  rightValue?: unknown;
  operator?: { type?: string; operation?: string; singleValue?: boolean; rightType?: string };
}

export interface FilterValue {
  options?: { caseSensitive?: boolean; typeValidation?: string; leftValue?: unknown; version?: number };
  conditions?: FilterCondition[];
  combinator?: string;
}

export interface FilterOptions {
  itemIndex: number;
}

/** Evaluates an already-resolved filter value for one item. */
export function evaluateFilter(filter: FilterValue | undefined, opts: FilterOptions): boolean {
  // A value that is no filter (it lacks conditions or a combinator) is not evaluated: n8n hands
  // the object itself back, which counts as passing (observed with Switch v3 rules).
  if (!filter || typeof filter !== 'object' || !('conditions' in filter) || !('combinator' in filter)) return true;
  const conditions = filter.conditions ?? [];
  const options = filter.options ?? {};
  const pass = (c: FilterCondition, index: number) =>
    evaluateCondition(c, options, { index, itemIndex: opts.itemIndex });
  if (filter.combinator === 'and') return conditions.every(pass);
  if (filter.combinator === 'or') return conditions.some(pass);
  // Any other combinator: no item passes.
  return false;
}

const article = (noun: string) => `${'aeiou'.includes(noun.charAt(0)) ? 'an' : 'a'} ${noun}`;

/** Both values read as the operator's types, or n8n's error for the first one that cannot be. */
function parseSides(
  c: FilterCondition,
  options: NonNullable<FilterValue['options']>,
  at: { index: number; itemIndex: number },
): { left: unknown; right: unknown } {
  const strict = options.typeValidation === 'strict';
  const version = options.version ?? 1;
  const type = c.operator?.type ?? 'string';
  const rightType = c.operator?.rightType ?? type;
  const left = parseFilterValue(c.leftValue, type, strict, version);
  const right = parseFilterValue(c.rightValue, rightType, strict, version);
  // Single-value operators (exists, empty, true…) never look at the right value.
  const rightValid = right.valid || !!c.operator?.singleValue;
  const suffix = `[condition ${at.index}, item ${at.itemIndex}]`;
  const refused = (expected: string, value: unknown) => {
    const from = typeof value;
    return new NodeOperationError(
      strict
        ? `Wrong type: '${String(value)}' is ${article(from)} but was expecting ${article(expected)} ${suffix}`
        : `Conversion error: the ${from} '${String(value)}' can't be converted to ${article(expected)} ${suffix}`,
    );
  };
  if (!left.valid && !rightValid && typeof c.leftValue === typeof c.rightValue)
    throw new NodeOperationError(
      `Comparison type expects ${article(type)} but both fields are ${article(typeof c.leftValue)}`,
    );
  if (!left.valid) throw refused(type, c.leftValue);
  if (!rightValid) throw refused(rightType, c.rightValue);
  return { left: left.value, right: right.valid ? right.value : undefined };
}

function evaluateCondition(
  c: FilterCondition,
  options: NonNullable<FilterValue['options']>,
  at: { index: number; itemIndex: number },
): boolean {
  const type = c.operator?.type ?? 'string';
  const op = c.operator?.operation ?? 'equals';
  // A filter that does not say it is case sensitive compares ignoring case.
  const ignoreCase = !options.caseSensitive;
  let { left, right } = parseSides(c, options, at);
  const exists = left !== undefined && left !== null && !(typeof left === 'number' && Number.isNaN(left));
  if (op === 'exists') return exists;
  if (op === 'notExists') return !exists;
  switch (type) {
    case 'string': {
      if (ignoreCase) {
        if (typeof left === 'string') left = left.toLocaleLowerCase();
        // A regular expression keeps its case.
        if (typeof right === 'string' && op !== 'regex' && op !== 'notRegex') right = right.toLocaleLowerCase();
      }
      const l = (left ?? '') as string;
      const r = (right ?? '') as string;
      switch (op) {
        case 'empty':
          return l.length === 0;
        case 'notEmpty':
          return l.length !== 0;
        case 'equals':
          return l === r;
        case 'notEquals':
          return l !== r;
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
      return false;
    }
    case 'number': {
      const l = left as number;
      const r = right as number;
      switch (op) {
        case 'empty':
          return !exists;
        case 'notEmpty':
          return exists;
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
      return false;
    }
    case 'dateTime': {
      if (op === 'empty') return !exists;
      if (op === 'notEmpty') return exists;
      if (!left || !right) return false;
      const l = (left as DateTime).toMillis();
      const r = (right as DateTime).toMillis();
      switch (op) {
        case 'equals':
          return l === r;
        case 'notEquals':
          return l !== r;
        case 'after':
          return l > r;
        case 'before':
          return l < r;
        case 'afterOrEquals':
          return l >= r;
        case 'beforeOrEquals':
          return l <= r;
      }
      return false;
    }
    case 'boolean':
      switch (op) {
        case 'empty':
          return !exists;
        case 'notEmpty':
          return exists;
        case 'true':
          return !!left;
        case 'false':
          return !left;
        case 'equals':
          return left === right;
        case 'notEquals':
          return left !== right;
      }
      return false;
    case 'array': {
      const l = (left ?? []) as unknown[];
      const n = right as number;
      switch (op) {
        case 'contains':
          return arrayContains(l, right, ignoreCase);
        case 'notContains':
          return !arrayContains(l, right, ignoreCase);
        case 'lengthEquals':
          return l.length === n;
        case 'lengthNotEquals':
          return l.length !== n;
        case 'lengthGt':
          return l.length > n;
        case 'lengthLt':
          return l.length < n;
        case 'lengthGte':
          return l.length >= n;
        case 'lengthLte':
          return l.length <= n;
        case 'empty':
          return l.length === 0;
        case 'notEmpty':
          return l.length !== 0;
      }
      return false;
    }
    case 'object':
      if (op === 'empty') return !left || Object.keys(left).length === 0;
      if (op === 'notEmpty') return !!left && Object.keys(left).length !== 0;
      return false;
  }
  // An operator n8n does not know fails no item: the condition is just false.
  return false;
}

/** Membership by identity (a list never "contains" an equal copy of an object); text ignoring case when asked. */
function arrayContains(list: unknown[], value: unknown, ignoreCase: boolean): boolean {
  if (ignoreCase && typeof value === 'string') {
    const wanted = value.toLocaleLowerCase();
    return list.some((v) => typeof v === 'string' && v.toLocaleLowerCase() === wanted);
  }
  return list.includes(value);
}

/** "/pattern/flags" or a bare pattern. */
function toRegex(text: string): RegExp {
  const m = /^\/(.*?)\/([gimusy]*)$/.exec(text);
  try {
    return m ? new RegExp(m[1], m[2]) : new RegExp(text);
  } catch (err) {
    throw new NodeOperationError((err as Error).message);
  }
}
