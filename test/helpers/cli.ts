// How tests start Hamlet's CLI as a child process. The built `dist/cli.js` starts in a third of
// the time the sources take through tsx (every child loads the whole server, and tsx's resolver
// and transform cost about two seconds of CPU per start; the suite starts a few hundred), so it
// is used whenever it was built after the last change to any source (scripts/dist-current.mjs),
// as in CI, where `npm ci` builds it. Otherwise the sources run through tsx, so a test never runs
// yesterday's code. HAMLET_TEST_CLI=src or =dist forces one.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { distIsCurrent } from '../../scripts/dist-current.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const forced = process.env.HAMLET_TEST_CLI;
const useBuilt = forced === 'dist' || (forced !== 'src' && distIsCurrent(ROOT));

/** Node's arguments that run the CLI (before the command's own): `[dist/cli.js]` or `[--import, tsx, src/cli.ts]`. */
export const CLI_ARGS: readonly string[] = useBuilt
  ? [path.join(ROOT, 'dist/cli.js')]
  : ['--import', 'tsx', path.join(ROOT, 'src/cli.ts')];

/** The argument vector for `node`: the CLI, then `args`. */
export function cliArgs(...args: string[]): string[] {
  return [...CLI_ARGS, ...args];
}

/** The same as one shell word list, for scripts (the docs' `npx hamlet`). */
export const CLI_SHELL = [process.execPath, ...CLI_ARGS].map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ');
