// Helpers shared by the extension files. Not a script of its own: guest-scripts.ts puts it at
// the top of the function that installs the extensions (where `H`, the prelude's API, is in
// scope), and again at the top of the DateTime extensions that Luxon's loader runs.

const ExpressionError = H.ExpressionError;
// An accessor rather than a data property: once the prototypes are frozen, assigning a
// property of the same name to an object (Luxon does `x.isEmpty = …`) must still work,
// so the setter defines it on the object itself.
/**
 * @param {object} proto
 * @param {string} name
 * @param {Function} fn
 * @param {boolean} [force] replace a method the prototype already has
 */
function define(proto, name, fn, force) {
  if (!force && name in proto) return;
  H.registerExtension(name);
  Object.defineProperty(proto, name, {
    get() {
      return fn;
    },
    set(value) {
      if (this === proto) throw new TypeError("Cannot assign to read only property '" + name + "'");
      Object.defineProperty(this, name, { value, writable: true, enumerable: true, configurable: true });
    },
    enumerable: false,
    configurable: true,
  });
}
/**
 * @param {string} method
 * @param {string} message
 * @param {string} [description]
 * @returns {never}
 */
function fail(method, message, description) {
  throw new ExpressionError(method + '(): ' + message, description);
}
/**
 * @param {string} operation
 * @param {unknown} text
 * @param {unknown} [option]
 * @returns {string}
 */
function codec(operation, text, option) {
  return H.codec(operation, String(text), option === undefined ? undefined : String(option));
}
/** @param {unknown} v @returns {v is Record<string, any>} */
function isPlainObject(v) {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
/** @param {any} a @param {any} b @returns {boolean} */
function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return a !== a && b !== b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a),
    kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!Object.prototype.hasOwnProperty.call(b, k) || !deepEqual(a[k], b[k])) return false;
  return true;
}
