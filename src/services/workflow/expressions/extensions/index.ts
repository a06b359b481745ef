// n8n's extension methods ("data transformation functions": `'a@b.c'.extractDomain()`,
// `[1,2].sum()`, `$now.format('yyyy')` …), installed inside the sandbox on the built-in
// prototypes as non-enumerable methods. A method is added only where the type has no native
// method of that name, as n8n only extends what the value does not already have
// (`'abc'.includes('b')` stays String.prototype.includes).
//
// Each module is a block of sandbox JavaScript; this file joins them into one script with
// the helpers they share.

import { ARRAY_JS } from './array.js';
import { DATE_JS, DATETIME_JS } from './datetime.js';
import { NUMBER_JS } from './number.js';
import { OBJECT_JS } from './object.js';
import { STRING_JS } from './string.js';

const HELPERS_JS = String.raw`
  const H = globalThis.__hamlet;
  const ExpressionError = H.ExpressionError;
  // An accessor rather than a data property: once the prototypes are frozen, assigning a
  // property of the same name to an object (Luxon does \`x.isEmpty = …\`) must still work,
  // so the setter defines it on the object itself.
  function define(proto, name, fn, force) {
    if (!force && name in proto) return;
    H.registerExtension(name);
    Object.defineProperty(proto, name, {
      get() { return fn; },
      set(value) {
        if (this === proto) throw new TypeError("Cannot assign to read only property '" + name + "'");
        Object.defineProperty(this, name, { value, writable: true, enumerable: true, configurable: true });
      },
      enumerable: false,
      configurable: true,
    });
  }
  function fail(method, message, description) {
    throw new ExpressionError(method + '(): ' + message, description);
  }
  function codec(operation, text, option) {
    return H.codec(operation, String(text), option === undefined ? undefined : String(option));
  }
  function isPlainObject(v) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
    const proto = Object.getPrototypeOf(v);
    return proto === Object.prototype || proto === null;
  }
  function deepEqual(a, b) {
    if (a === b) return true;
    if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return a !== a && b !== b;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    const ka = Object.keys(a), kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (const k of ka) if (!Object.prototype.hasOwnProperty.call(b, k) || !deepEqual(a[k], b[k])) return false;
    return true;
  }
`;

export const EXTENSIONS_JS = `(function () {
'use strict';
${HELPERS_JS}
{ ${STRING_JS} }
{ ${NUMBER_JS} }
{ ${ARRAY_JS} }
{ ${OBJECT_JS} }
{ ${DATE_JS} }
})();`;

/** A function (as source) that adds the DateTime and Date extensions once Luxon has loaded. */
export const DATETIME_EXTENSIONS_JS = `function (luxon, H) {
'use strict';
${HELPERS_JS.replace('const H = globalThis.__hamlet;', '')}
${DATETIME_JS}
}`;
