// Array extension methods. Equality is deep (n8n compares items by value).
// Runs in a block of its own inside the extensions script (../../sandbox/guest-scripts.ts),
// after helpers.js.

const A = Array.prototype;
// Numbers only: a numeric string fails too (observed: [1, "2"].sum() is an error in n8n).
function numbers(method, arr) {
  for (const v of arr)
    if (typeof v !== 'number')
      fail(method, 'all array elements must be numbers', 'Filter out or convert the non-numbers first');
  return arr;
}
function uniqueBy(arr, fields) {
  const out = [];
  const keyOf = (v) => (fields.length && isPlainObject(v) ? fields.map((f) => v[f]) : v);
  for (const v of arr) if (!out.some((o) => deepEqual(keyOf(o), keyOf(v)))) out.push(v);
  return out;
}
function contains(arr, v) {
  return arr.some((o) => deepEqual(o, v));
}

define(A, 'first', function first() {
  return this[0];
});
define(A, 'last', function last() {
  return this[this.length - 1];
});
define(A, 'isEmpty', function isEmpty() {
  return this.length === 0;
});
define(A, 'isNotEmpty', function isNotEmpty() {
  return this.length > 0;
});
define(A, 'sum', function sum() {
  return numbers('sum', this).reduce((a, b) => a + b, 0);
});
define(A, 'average', function average() {
  if (this.length === 0) return 0;
  return numbers('average', this).reduce((a, b) => a + b, 0) / this.length;
});
define(A, 'min', function min() {
  return Math.min.apply(null, numbers('min', this));
});
define(A, 'max', function max() {
  return Math.max.apply(null, numbers('max', this));
});
define(A, 'unique', function unique(...fields) {
  return uniqueBy(this, fields);
});
define(A, 'removeDuplicates', function removeDuplicates(...fields) {
  return uniqueBy(this, fields);
});
define(A, 'compact', function compact() {
  return this.filter((v) => v !== null && v !== undefined && v !== '' && !(typeof v === 'number' && isNaN(v))).map(
    (v) => (isPlainObject(v) ? v.compact() : v),
  );
});
define(A, 'pluck', function pluck(...fields) {
  if (fields.length === 0) return this.slice();
  return this.filter((v) => isPlainObject(v))
    .map((v) => {
      if (fields.length === 1) return v[fields[0]];
      const out = {};
      for (const f of fields) if (f in v) out[f] = v[f];
      return out;
    })
    .filter((v) => v !== undefined);
});
define(A, 'chunk', function chunk(size) {
  const n = Number(size);
  if (!(n >= 1)) fail('chunk', 'chunk size must be at least 1');
  const out = [];
  for (let i = 0; i < this.length; i += n) out.push(this.slice(i, i + n));
  return out;
});
define(A, 'difference', function difference(other) {
  return this.filter((v) => !contains(other || [], v));
});
define(A, 'intersection', function intersection(other) {
  return uniqueBy(
    this.filter((v) => contains(other || [], v)),
    [],
  );
});
define(A, 'union', function union(other) {
  return uniqueBy(this.concat(other || []), []);
});
define(A, 'append', function append(...items) {
  return this.concat(items);
});
define(A, 'randomItem', function randomItem() {
  return this[Math.floor(Math.random() * this.length)];
});
define(A, 'merge', function merge(...others) {
  const out = {};
  for (const list of [this].concat(others)) {
    for (const v of Array.isArray(list) ? list : [list]) {
      if (!isPlainObject(v)) fail('merge', 'all array elements must be objects');
      for (const k of Object.keys(v)) if (!(k in out)) out[k] = v[k];
    }
  }
  return out;
});
define(A, 'renameKeys', function renameKeys(...pairs) {
  if (pairs.length % 2 !== 0) fail('renameKeys', 'pass pairs of old and new names');
  return this.map((v) => {
    if (!isPlainObject(v)) return v;
    const out = Object.assign({}, v);
    for (let i = 0; i < pairs.length; i += 2) {
      if (pairs[i] in out) {
        const value = out[pairs[i]];
        delete out[pairs[i]];
        out[pairs[i + 1]] = value;
      }
    }
    return out;
  });
});
define(A, 'smartJoin', function smartJoin(keyField, valueField) {
  const out = {};
  for (const v of this) if (isPlainObject(v) && v[keyField] !== undefined) out[v[keyField]] = v[valueField];
  return out;
});
define(A, 'toJsonString', function toJsonString() {
  return JSON.stringify(this);
});
