// The three example scenarios seed from the command line, each reading its workflow file beside
// it, and a scenario the services refuse half-way leaves nothing behind (issue 31's frictions;
// the demo world's are in world-frictions-cli.test.ts).
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hamlet, tempDirs } from './world-cli.js';

const dirs = tempDirs();
const tempDir = dirs.make;
afterAll(dirs.removeAll);

describe('the example scenarios from the command line', () => {
  it('each seeds with its workflow file read beside it, from any working directory', async () => {
    for (const name of ['newsroom', 'help-desk', 'smart-home']) {
      const dir = tempDir();
      const seeded = await hamlet(dir, 'world', 'seed', path.resolve('examples/scenarios', `${name}.yaml`));
      expect(seeded.code, `${name}: ${seeded.stderr}`).toBe(0);
      expect(JSON.parse(seeded.stdout).scenario).toBe(name);
    }
  }, 300_000);

  it('a scenario the services refuse half-way leaves the storage as it was (exit 1, the step named)', async () => {
    const dir = tempDir();
    const { writeFileSync } = await import('node:fs');
    const file = path.join(dir, 'broken.yaml');
    writeFileSync(
      file,
      'agents:\n  - name: nina\n    community: {}\ncommunities:\n  - name: "Not A Valid Name!"\n    owner: nina\n',
    );
    const seeded = await hamlet(dir, 'world', 'seed', file);
    expect(seeded.code).toBe(1);
    expect(seeded.stderr).toMatch(/communities answered 400.*nothing was seeded/s);
    // (Each start of a private instance writes what the services start with, so the hash moves; the
    // admin API's test compares hashes.) Nina, made before the refused step, is not in the world.
    const nina = await hamlet(dir, 'world', 'keys', 'nina');
    expect(nina.code).toBe(1);
    expect(nina.stderr).toMatch(/no agent named nina/);
  }, 120_000);
});
