// JavaScript that runs inside each QuickJS context last, after the prelude and the extension
// methods (guest-scripts.ts puts freeze-graph.js in scope): it freezes every built-in
// reachable from the global object, so that one run cannot change what the next run sees
// (pooled contexts are reused) — no prototype pollution of Array.prototype, no replaced
// JSON.parse, no patched $input.
//
// Freezing makes inherited data properties read-only, which breaks ordinary code such as
// `this.name = 'MyError'` in an Error subclass or `obj.toString = …` (the "override
// mistake"). For the handful of properties code really assigns, the frozen prototype gets an
// accessor whose setter defines the property on the instance instead.

(function () {
  'use strict';
  const G = globalThis;
  /** @type {Array<[object, string[]]>} */
  const overridable = [
    [Object.prototype, ['toString', 'valueOf', 'toLocaleString', 'constructor', 'hasOwnProperty']],
    [Function.prototype, ['toString', 'constructor']],
    [Array.prototype, ['toString', 'constructor']],
  ];
  for (const E of [
    Error,
    TypeError,
    RangeError,
    SyntaxError,
    ReferenceError,
    EvalError,
    URIError,
    typeof AggregateError === 'function' ? AggregateError : Error,
    typeof InternalError === 'function' ? InternalError : Error,
  ]) {
    overridable.push([E.prototype, ['name', 'message', 'toString', 'constructor', 'stack']]);
  }
  for (const [proto, names] of overridable) {
    for (const name of names) {
      const desc = Object.getOwnPropertyDescriptor(proto, name);
      if (!desc || !('value' in desc)) continue;
      const value = desc.value;
      Object.defineProperty(proto, name, {
        get() {
          return value;
        },
        set(v) {
          if (this === proto)
            throw new TypeError("Cannot assign to read only property '" + name + "' of a built-in prototype");
          Object.defineProperty(this, name, { value: v, writable: true, enumerable: true, configurable: true });
        },
        enumerable: desc.enumerable,
        configurable: false,
      });
    }
  }

  const roots = Object.getOwnPropertyNames(G)
    .map((name) => Object.getOwnPropertyDescriptor(G, name))
    .filter((desc) => 'value' in desc)
    .map((desc) => desc.value);
  // Prototypes that no global names directly.
  roots.push(
    Object.getPrototypeOf(function* () {}),
    Object.getPrototypeOf(async function () {}),
    Object.getPrototypeOf(async function* () {}),
    Object.getPrototypeOf([][Symbol.iterator]()),
    Object.getPrototypeOf(new Map()[Symbol.iterator]()),
    Object.getPrototypeOf(new Set()[Symbol.iterator]()),
    Object.getPrototypeOf(''[Symbol.iterator]()),
    Object.getPrototypeOf(/x/[Symbol.matchAll]('')),
  );
  freezeGraph(roots);
  // The global object itself stays extensible (sloppy code may assign globals; they are removed
  // after each run), but the names defined so far cannot be replaced.
  for (const name of Object.getOwnPropertyNames(G)) {
    const desc = Object.getOwnPropertyDescriptor(G, name);
    if (desc.configurable) {
      if ('value' in desc) desc.writable = false;
      desc.configurable = false;
      Object.defineProperty(G, name, desc);
    }
  }
})();
