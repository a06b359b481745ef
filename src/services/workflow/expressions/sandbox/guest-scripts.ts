// The guest: the JavaScript that runs inside each QuickJS context, as the host evaluates it.
// Its source is ../guest/*.js, real files that `npm run typecheck` checks as scripts with the
// guest's globals declared (../guest/globals.d.ts), not text inside TypeScript strings.
//
// The files are read once, when this module loads: from src/ under tsx and vitest, from dist/
// after `npm run build` (scripts/copy-assets.mjs copies the guest folder there; tsc does not
// emit JavaScript files). A missing file fails the first import, not a run.
//
// Most files are whole scripts. Those that are not (the extension files, freeze-graph.js) are
// put together here, in the same order and scopes as before they became files: the extension
// files share helpers.js and the prelude's API `H` inside one function, each in a block of its
// own; the DateTime extensions get the same helpers inside the function Luxon's loader calls.

import { readFileSync } from 'node:fs';

const GUEST = new URL('../guest/', import.meta.url);

function guestFile(file: string): string {
  return readFileSync(new URL(file, GUEST), 'utf8');
}

/** Evaluated in this order when a context is created (sandbox-pool.ts). */
export const INTL_JS = guestFile('intl.js');
export const WEB_JS = guestFile('web.js');
export const PRELUDE_JS = guestFile('prelude.js');

/** The source of `function freezeGraph(roots)`, used as an expression by the library loaders. */
export const FREEZE_GRAPH_JS = guestFile('freeze-graph.js');

const HELPERS_JS = guestFile('extensions/helpers.js');

// n8n's extension methods ("data transformation functions": `'a@b.c'.extractDomain()`,
// `[1,2].sum()`, `$now.format('yyyy')` …), installed on the built-in prototypes as
// non-enumerable methods, only where the type has no native method of that name (n8n only
// extends what the value does not already have: `'abc'.includes('b')` stays native).
export const EXTENSIONS_JS = `(function () {
'use strict';
const H = globalThis.__hamlet;
${HELPERS_JS}
{ ${guestFile('extensions/string.js')} }
{ ${guestFile('extensions/number.js')} }
{ ${guestFile('extensions/array.js')} }
{ ${guestFile('extensions/object.js')} }
{ ${guestFile('extensions/date.js')} }
})();`;

/** A function (as source) that adds the DateTime and Date extensions once Luxon has loaded. */
export const DATETIME_EXTENSIONS_JS = `function (luxon, H) {
'use strict';
${HELPERS_JS}
${guestFile('extensions/datetime.js')}
}`;

/** Runs last, once the prelude and the extensions are in place. */
export const HARDEN_JS = `(function () {
'use strict';
${FREEZE_GRAPH_JS}
${guestFile('harden.js')}
})();`;
