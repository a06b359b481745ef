// The README and docs/*.md are tested as a newcomer would use them: every fenced shell block
// (```sh, ```bash, ```shell) of one file runs, in order, in one bash session, against a fresh
// Hamlet with every service (each file is read on its own, as a newcomer would; the README, read
// first, in in-order.test.ts); any command that
// exits non-zero, and any curl answer that is not 2xx, fails the file's test with the line that
// failed. What the harness changes in the text is in shell-script.ts; in-order.test.ts reads them
// all one after another on one server. Before anything runs, every block is checked for a tool a
// reader may not have and for a fixed date (shell-lint.ts).
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SERVICE_NAMES } from '../../src/services/registry.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import { fixedDates, unavailableCommands } from './shell-lint.js';
import { allDocs, bashScript, readingOrder, runBash, shellBlocks } from './shell-script.js';
import { docsEnv, testPorts } from './test-instance.js';

let t: TestHamlet | undefined;
const work = mkdtempSync(path.join(os.tmpdir(), 'hamlet-docs-'));
const withBlocks = allDocs().filter((f) => shellBlocks(f).length > 0);
// The first doc a reader opens (the README) is already read on a fresh server: in-order.test.ts
// starts with it. Running it here again would repeat the same script on the same empty server.
const readOnTheirOwn = withBlocks.filter((f) => f !== readingOrder()[0]);

beforeEach(async (ctx) => {
  if (ctx.task.name.startsWith('every doc')) return;
  t = await startTestHamlet({ services: [...SERVICE_NAMES], env: { HAMLET_CONSOLE: 'on' } });
}, 120_000);

afterEach(async () => {
  await t?.destroy();
  t = undefined;
});

it('every doc calls only tools a reader has (Node.js, npm, curl, a POSIX shell, npx hamlet)', () => {
  expect(unavailableCommands(withBlocks.flatMap(shellBlocks))).toEqual([]);
});

it('every doc reads relative to now or the platform clock, never at a fixed date', () => {
  expect(fixedDates(withBlocks.flatMap(shellBlocks))).toEqual([]);
});

it.each(readOnTheirOwn)('%s: every shell block runs as written', async (file) => {
  const script = bashScript(shellBlocks(file), testPorts(t!));
  const { code, out } = await runBash(path.join(work, file.replace(/\W/g, '_') + '.sh'), script, docsEnv(t!));
  expect(code, out.slice(-4000)).toBe(0);
}, 300_000);
