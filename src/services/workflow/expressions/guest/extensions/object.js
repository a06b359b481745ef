// Object extension methods, on Object.prototype (non-enumerable, so JSON, Object.keys and
// for…in do not see them; an own property of the same name wins, as in n8n).
// Runs in a block of its own inside the extensions script (../../sandbox/guest-scripts.ts),
// after helpers.js.

const O = Object.prototype;
define(O, 'isEmpty', function isEmpty() {
  return Object.keys(this).length === 0;
});
define(O, 'isNotEmpty', function isNotEmpty() {
  return Object.keys(this).length > 0;
});
define(O, 'hasField', function hasField(name) {
  return Object.prototype.hasOwnProperty.call(this, name);
});
define(O, 'removeField', function removeField(name) {
  const out = Object.assign({}, this);
  delete out[name];
  return out;
});
define(O, 'removeFieldsContaining', function removeFieldsContaining(value) {
  const out = {};
  for (const k of Object.keys(this)) {
    const v = this[k];
    if (!(typeof v === 'string' && v.includes(String(value))) && v !== value) out[k] = v;
  }
  return out;
});
define(O, 'keepFieldsContaining', function keepFieldsContaining(value) {
  const out = {};
  for (const k of Object.keys(this)) {
    const v = this[k];
    if ((typeof v === 'string' && v.includes(String(value))) || v === value) out[k] = v;
  }
  return out;
});
define(O, 'compact', function compact() {
  const out = {};
  for (const k of Object.keys(this)) {
    const v = this[k];
    if (v === null || v === undefined || v === '' || (typeof v === 'number' && isNaN(v))) continue;
    out[k] = isPlainObject(v) ? v.compact() : v;
  }
  return out;
});
define(O, 'keys', function keys() {
  return Object.keys(this);
});
define(O, 'values', function values() {
  return Object.values(this);
});
define(O, 'merge', function merge(other) {
  // Keys of this object win over the other's.
  return Object.assign({}, other || {}, this);
});
define(O, 'toJsonString', function toJsonString() {
  return JSON.stringify(this);
});
define(O, 'urlEncode', function urlEncode() {
  return Object.keys(this)
    .filter((k) => this[k] !== undefined)
    .map((k) => encodeURIComponent(k) + '=' + encodeURIComponent(String(this[k])))
    .join('&');
});
