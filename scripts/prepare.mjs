// npm runs `prepare` after `npm ci` and `npm install`, and before `npm pack`: that builds dist/.
// npm 7+ also runs it when `npx hamlet` is typed inside this clone, because npx installs a
// project into its cache to run the project's own bin, and that install would rebuild (a
// minute) before the first command: then any dist/ will do. Otherwise a dist/ newer than every
// source (scripts/dist-current.mjs) is not built again: `npm pack` right after `npm ci` (CI's
// pack test) packs the build `npm ci` made.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { distIsCurrent } from './dist-current.mjs';

if (process.env.npm_command === 'exec' && existsSync('dist/cli.js')) process.exit(0);
if (distIsCurrent(process.cwd())) {
  console.error('dist/ is newer than every source: not built again (npm run build forces it)');
  process.exit(0);
}
const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
process.exit(build.status ?? 1);
