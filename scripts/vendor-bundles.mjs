// Build step after tsc: libraries of many small ES modules, each bundled into one file. Loading
// module files one by one took most of a short command's time: Kysely is 263 modules (`hamlet
// keys create`: about 0.3 s of CPU of its 0.6 s, against 0.04 s for the same code as one file)
// and TypeBox 200, every one of them loaded by `hamlet start`. esbuild (already here, under tsx)
// bundles each into dist/vendor/<name>.js, and every `from '<package>'` of dist/ is pointed at
// that file, so the whole build shares one copy. Sources and tests (run through tsx) keep
// importing the packages. Only ES-module packages whose exports esbuild can list go here.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);
const VENDORED = [
  { name: 'kysely', file: 'kysely.js', home: 'https://github.com/kysely-org/kysely' },
  { name: '@sinclair/typebox', file: 'typebox.js', home: 'https://github.com/sinclairzx81/typebox' },
];

/** A package's package.json, found from its entry (neither package lists it among its exports). */
function packageJson(name) {
  for (let dir = path.dirname(require.resolve(name)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    if (pkg.name === name) return pkg;
  }
  throw new Error(`vendor-bundles: the package.json of ${name} was not found`);
}

/** Every .js file of dist/ but the vendored ones. */
function distFiles(dir = 'dist') {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return file === path.join('dist', 'vendor') ? [] : distFiles(file);
    return name.endsWith('.js') ? [file] : [];
  });
}

const files = distFiles();
for (const { name, file, home } of VENDORED) {
  const out = path.join('dist', 'vendor', file);
  const { version, license } = packageJson(name);
  await build({
    stdin: { contents: `export * from '${name}';`, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    banner: {
      js: `// ${name} ${version} (${license} licence, ${home}), bundled into one file by scripts/vendor-bundles.mjs.`,
    },
    logLevel: 'warning',
  });
  let rewritten = 0;
  for (const source of files) {
    const text = readFileSync(source, 'utf8');
    if (!text.includes(`from '${name}'`)) continue;
    let rel = path.relative(path.dirname(source), out).split(path.sep).join('/');
    if (!rel.startsWith('.')) rel = `./${rel}`;
    writeFileSync(source, text.replaceAll(`from '${name}'`, `from '${rel}'`));
    rewritten++;
  }
  if (rewritten === 0)
    throw new Error(
      `vendor-bundles: no file of dist/ imports '${name}'; is the build's output where this script looks?`,
    );
}
