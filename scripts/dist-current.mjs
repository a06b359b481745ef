// Whether dist/ (the build `npm ci` makes through `prepare`) is at least as new as every source
// file and package.json: then `prepare` need not build again (npm pack, npx inside the clone) and
// tests may start the built CLI, which starts in a third of the time the sources take through tsx.
// An edit, a checkout or a pull since the build makes a source file newer, and the build stale.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The newest modification time of any file under `dir`, in ms. */
function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(full) : statSync(full).mtimeMs);
  }
  return newest;
}

export function distIsCurrent(root) {
  const built = path.join(root, 'dist/cli.js');
  if (!existsSync(built)) return false;
  const configs = ['package.json', 'tsconfig.json', 'tsconfig.build.json'].map(
    (f) => statSync(path.join(root, f)).mtimeMs,
  );
  const sources = Math.max(newestUnder(path.join(root, 'src')), ...configs);
  return statSync(built).mtimeMs >= sources;
}
