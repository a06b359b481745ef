// The order in which n8n's Remove Duplicates (and Item Lists') checks the compared fields: it
// sorts the items by those fields first (lodash's isEqual and lt), then walks each field over the
// sorted items, failing on the first item that lacks it or whose value's type differs from the
// one before. Which of the two errors (and for which field) a mixed input gets depends on that
// order, so the engine sorts the same way before it checks.

/** A value as lodash's toNumber reads it (lt compares numbers unless both sides are text). */
function lodashNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'symbol') return NaN;
  let v: unknown = value;
  if (v !== null && typeof v === 'object') {
    const prim = typeof (v as { valueOf?: unknown }).valueOf === 'function' ? v.valueOf() : v;
    v = prim !== null && typeof prim === 'object' ? String(prim) : prim;
  }
  if (typeof v !== 'string') return v === 0 ? v : Number(v);
  const s = v.trim();
  if (/^0b[01]+$/i.test(s)) return parseInt(s.slice(2), 2);
  if (/^0o[0-7]+$/i.test(s)) return parseInt(s.slice(2), 8);
  if (/^[-+]0x[0-9a-f]+$/i.test(s)) return NaN;
  return Number(s);
}

/** lodash's lt: text against text by code units, anything else as numbers. */
function lodashLt(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a < b;
  return lodashNumber(a) < lodashNumber(b);
}

/**
 * Item indexes in n8n's sorted order: by each field in turn, the first unequal field deciding
 * (`equal` as lodash's isEqual); a stable sort, as V8's.
 */
export function sortedOrder(
  count: number,
  fields: string[],
  value: (index: number, field: string) => unknown,
  equal: (a: unknown, b: unknown) => boolean,
): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  return order.sort((a, b) => {
    for (const f of fields) {
      const x = value(a, f);
      const y = value(b, f);
      if (!equal(x, y)) return lodashLt(x, y) ? -1 : 1;
    }
    return 0;
  });
}

/**
 * n8n's check of the compared fields, over the items in sorted order: a missing field fails
 * ("'f' field is missing from some input items"), and so does a field whose type changes
 * ("'f' isn't always the same type"; `typeOf` decides what a value's type is, null included or not).
 */
export function checkFields(
  order: number[],
  fields: string[],
  missing: (index: number, field: string) => boolean,
  typeOf: ((value: unknown) => string | undefined) | undefined,
  value: (index: number, field: string) => unknown,
  fail: (message: string) => Error,
): void {
  for (const f of fields) {
    let type: string | undefined;
    for (const i of order) {
      if (missing(i, f)) throw fail(`'${f}' field is missing from some input items`);
      if (!typeOf) continue;
      const t = typeOf(value(i, f));
      if (t === undefined) continue;
      if (type !== undefined && t !== type) throw fail(`'${f}' isn't always the same type`);
      type = t;
    }
  }
}
