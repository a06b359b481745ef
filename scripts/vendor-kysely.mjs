// Build step after tsc: Kysely as one file. Its package is 263 ES modules, and loading them took
// most of a short command's time (`hamlet keys create`: about 0.3 s of CPU of its 0.6 s, against
// 0.04 s for the same code as one file). esbuild (already here, under tsx) bundles it into
// dist/vendor/kysely.js, and every `from 'kysely'` of dist/ is pointed at that file, so the
// whole build shares one copy. Sources and tests (run through tsx) keep importing the package.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);
const OUT = path.join('dist', 'vendor', 'kysely.js');
// Its package.json is not among its exports: found from its entry (dist/cjs/index.js).
const { version, license } = JSON.parse(
  readFileSync(path.join(path.dirname(require.resolve('kysely')), '..', '..', 'package.json'), 'utf8'),
);

await build({
  stdin: { contents: "export * from 'kysely';", resolveDir: process.cwd(), loader: 'js' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: OUT,
  banner: {
    js: `// Kysely ${version} (${license} licence, https://github.com/kysely-org/kysely), bundled into one file by scripts/vendor-kysely.mjs.`,
  },
  logLevel: 'warning',
});

let rewritten = 0;
function rewrite(dir) {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) rewrite(file);
    else if (name.endsWith('.js') && file !== OUT) {
      const text = readFileSync(file, 'utf8');
      if (!text.includes("from 'kysely'")) continue;
      let rel = path.relative(path.dirname(file), OUT).split(path.sep).join('/');
      if (!rel.startsWith('.')) rel = `./${rel}`;
      writeFileSync(file, text.replaceAll("from 'kysely'", `from '${rel}'`));
      rewritten++;
    }
  }
}
rewrite('dist');
if (rewritten === 0)
  throw new Error("vendor-kysely: no file of dist/ imports 'kysely'; is the build's output where this script looks?");
