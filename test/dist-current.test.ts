// scripts/dist-current.mjs decides whether `prepare` builds again and whether tests run the built
// CLI: dist/ counts as current only when it is at least as new as every source and config file.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { distIsCurrent } from '../scripts/dist-current.mjs';

const root = mkdtempSync(path.join(os.tmpdir(), 'hamlet-dist-current-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const touch = (file: string, seconds: number) => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), '');
  utimesSync(path.join(root, file), seconds, seconds);
};

it('is current only when dist/cli.js is at least as new as every file under src/ and the configs', () => {
  for (const f of ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'src/cli.ts', 'src/deep/er/module.ts'])
    touch(f, 1000);
  expect(distIsCurrent(root)).toBe(false); // no build at all
  touch('dist/cli.js', 2000);
  expect(distIsCurrent(root)).toBe(true);
  touch('src/deep/er/module.ts', 3000); // an edit since the build, however deep
  expect(distIsCurrent(root)).toBe(false);
  touch('dist/cli.js', 3000);
  expect(distIsCurrent(root)).toBe(true);
  touch('tsconfig.build.json', 4000); // a config change too
  expect(distIsCurrent(root)).toBe(false);
});
