// Libraries evaluated inside the sandbox on first use (most runs need neither): Luxon for
// $now/$today/DateTime and the date extension methods, JMESPath for $jmespath. Each loader is
// the source of a function that builds the library from its published browser build, adds
// what n8n adds to it, deep-freezes it and returns it; the prelude's installLibrary calls it.

import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { DATETIME_EXTENSIONS_JS, FREEZE_GRAPH_JS } from './guest-scripts.js';

const require = createRequire(import.meta.url);
const packageFile = (name: string, file: string) =>
  readFileSync(require.resolve(`${name}/package.json`).replace(/package\.json$/, file), 'utf8');

const LUXON_JS = packageFile('luxon', 'build/global/luxon.min.js');
const JMESPATH_JS = packageFile('jmespath', 'jmespath.js');

export type LibraryName = 'luxon' | 'jmespath';

export const LIBRARY_LOADERS: Record<LibraryName, string> = {
  // The global build declares `var luxon`; inside a function that stays local.
  luxon: `(function (H) {
const luxon = (function () {
${LUXON_JS}
;return luxon; })();
(${DATETIME_EXTENSIONS_JS})(luxon, H);
// The zone singletons outlive a run; Luxon's other cached objects are dropped after each run
// that used Luxon (the prelude calls Settings.resetCaches).
(${FREEZE_GRAPH_JS})([luxon, luxon.FixedOffsetZone.utcInstance, luxon.SystemZone.instance]);
return luxon;
})`,
  // The UMD build writes to an \`exports\` it finds in scope.
  jmespath: `(function () {
const exports = {};
${JMESPATH_JS}
;(${FREEZE_GRAPH_JS})([exports]);
return exports;
})`,
};

export function isLibraryName(name: string): name is LibraryName {
  return name === 'luxon' || name === 'jmespath';
}
