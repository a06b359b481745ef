// The docs as a person reads them: README.md, then each doc in the order the README links it,
// every shell block in one bash session against ONE Hamlet, so each doc's steps meet what the
// earlier ones made (keys, inboxes, agents, the clock) and its variables are those of the same
// terminal. A name two docs both create, or a step that only works on an empty server, fails here
// while shell-examples.test.ts (each doc on a fresh server) passes.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SERVICE_NAMES } from '../../src/services/registry.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import { bashScript, readingOrder, runBash, shellBlocks } from './shell-script.js';
import { docsEnv, testPorts } from './test-instance.js';

let t: TestHamlet;

beforeAll(async () => {
  t = await startTestHamlet({ services: [...SERVICE_NAMES], env: { HAMLET_CONSOLE: 'on' } });
}, 300_000);

afterAll(async () => {
  await t?.destroy();
});

it('reads the README, then each doc it links in order, on one server', async () => {
  const order = readingOrder();
  expect(order.slice(0, 2)).toEqual(['README.md', 'docs/harness.md']);
  const script = bashScript(order.flatMap(shellBlocks), testPorts(t));
  const { code, out } = await runBash(path.join(mkdtempSync(path.join(os.tmpdir(), 'hamlet-docs-')), 'in-order.sh'), script, docsEnv(t));
  expect(code, out.slice(-4000)).toBe(0);
}, 1_200_000);
