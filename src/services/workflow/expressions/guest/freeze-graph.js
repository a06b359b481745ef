// A function that deep-freezes everything reachable from `roots`, except globalThis. Not a
// script of its own: its text is put in scope of harden.js, and called inline by the library
// loaders (../sandbox/libraries.ts) on Luxon and JMESPath.
/** @param {unknown[]} roots */
function freezeGraph(roots) {
  const seen = new Set();
  const queue = [];
  function add(v) {
    if ((typeof v === 'object' && v !== null) || typeof v === 'function') {
      if (v === globalThis || seen.has(v)) return;
      seen.add(v);
      queue.push(v);
    }
  }
  for (const root of roots) add(root);
  while (queue.length) {
    const obj = queue.pop();
    add(Object.getPrototypeOf(obj));
    for (const key of Reflect.ownKeys(obj)) {
      const desc = Object.getOwnPropertyDescriptor(obj, key);
      if (!desc) continue;
      if ('value' in desc) add(desc.value);
      else {
        add(desc.get);
        add(desc.set);
      }
    }
    Object.freeze(obj);
  }
}
