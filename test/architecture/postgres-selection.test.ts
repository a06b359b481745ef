// The PostgreSQL pass leaves out the files test/postgres-selection.ts lists as running the same
// on any database. This keeps that list honest: every entry exists, none reaches the storage
// layer itself (such a file must run on PostgreSQL too), and vitest.pg.config.ts uses the list.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import pgConfig from '../../vitest.pg.config.js';
import { SAME_ON_POSTGRES, TOUCHES_STORAGE } from '../postgres-selection.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Not part of `npm test`: their own configs. */
const OTHER_RUNS = ['test/browser/', 'test/conformance/'];

function testFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(rel);
    return entry.name.endsWith('.test.ts') ? [rel] : [];
  });
}

const all = testFiles('test').filter((f) => !OTHER_RUNS.some((other) => f.startsWith(other)));
const leftOut = (file: string) =>
  SAME_ON_POSTGRES.some((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry));
const touches = (file: string) =>
  TOUCHES_STORAGE.filter((pattern) => pattern.test(readFileSync(path.join(ROOT, file), 'utf8')));

describe('the PostgreSQL selection', () => {
  it('names only files and folders that exist', () => {
    const missing = SAME_ON_POSTGRES.filter(
      (entry) =>
        !existsSync(path.join(ROOT, entry)) || statSync(path.join(ROOT, entry)).isDirectory() !== entry.endsWith('/'),
    );
    expect(
      missing,
      'entries of test/postgres-selection.ts with no such file (or a folder without its trailing /)',
    ).toEqual([]);
  });

  it('keeps every test file that reaches the storage layer itself on PostgreSQL', () => {
    const wrong = all.filter(leftOut).flatMap((file) => touches(file).map((pattern) => `${file} (${String(pattern)})`));
    expect(
      wrong,
      'these files use the storage layer: take them out of SAME_ON_POSTGRES in test/postgres-selection.ts',
    ).toEqual([]);
  });

  it('recognises the files that do (the patterns are not dead)', () => {
    const onBoth = all.filter((file) => touches(file).length > 0);
    expect(onBoth).toEqual(
      expect.arrayContaining([
        'test/platform/db.test.ts',
        'test/platform/crash-all.test.ts',
        'test/console/world-portable.test.ts',
        'test/community/votes.test.ts',
        'test/cluster/state-mail.test.ts',
      ]),
    );
    // And the pass still runs most of the suite's storage-facing files: a list gone wild would show here.
    expect(all.filter((file) => !leftOut(file)).length).toBeGreaterThan(all.length / 2);
  });

  it('is what vitest.pg.config.ts leaves out, in both of its projects', () => {
    const projects = (pgConfig.test?.projects ?? []) as Array<{ test: { name: string; exclude?: string[] } }>;
    expect(projects.map((p) => p.test.name)).toEqual(['services', 'alone']);
    for (const project of projects) {
      expect(project.test.exclude).toEqual(
        expect.arrayContaining(SAME_ON_POSTGRES.map((entry) => (entry.endsWith('/') ? `${entry}**` : entry))),
      );
    }
  });
});
