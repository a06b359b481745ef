// npm runs `prepare` after `npm ci` and `npm install`: that builds dist/. npm 7+ also runs it
// when `npx hamlet` is typed inside this clone, because npx installs a project into its cache
// to run the project's own bin, and that install would rebuild (a minute) before the first
// command. Then dist/ is already there (npm ci built it), so the build is skipped.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (process.env.npm_command === 'exec' && existsSync('dist/cli.js')) process.exit(0);
const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
process.exit(build.status ?? 1);
