// The demo world, through the CLI as people run it: the same seed gives the same world byte
// for byte (its state hash) in two fresh processes, on SQLite and, loaded there, on PostgreSQL;
// and the world is lived in across all five services.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { decodeWorld } from '../../src/console/world/file.js';
import { readFileSync } from 'node:fs';
import { testStorage } from '../helpers/hamlet.js';
import { CLI_ARGS } from '../helpers/cli.js';

const run = promisify(execFile);
const CLI = CLI_ARGS;

/** What the last command printed on stderr (the demo's progress lines). */
let lastStderr = '';

async function hamlet(env: Record<string, string>, ...args: string[]): Promise<string> {
  const { stdout, stderr } = await run(process.execPath, [...CLI, ...args], {
    env: { ...process.env, HAMLET_LOG_LEVEL: 'warn', ...env },
    timeout: 240_000,
  });
  lastStderr = stderr;
  return stdout.trim();
}

describe('demo world', () => {
  it('the same seed gives the same world in two processes, and it is lived in', async () => {
    const dirs = [
      mkdtempSync(path.join(os.tmpdir(), 'hamlet-demo-a-')),
      mkdtempSync(path.join(os.tmpdir(), 'hamlet-demo-b-')),
    ];
    try {
      // Both at once: neither the order nor the timing of two processes may change a seeded world.
      const [a, b] = await Promise.all([
        hamlet({ HAMLET_DATA_DIR: dirs[0] }, 'world', 'seed', '--demo', '--seed', '7'),
        hamlet({ HAMLET_DATA_DIR: dirs[1] }, 'world', 'seed', '--demo', '--seed', '7'),
      ]);
      expect(a).toMatch(/^[0-9a-f]{64}$/);
      expect(b).toBe(a);
      // The wait is never silent: a line as the agents arrive and one a day, on stderr only.
      expect(lastStderr).toMatch(
        /demo world: 12 agents arrive\n(.*\n)*demo world: day 1 of 7\n(.*\n)*demo world: day 7 of 7\n/,
      );

      const file = path.join(dirs[0], 'demo.jsonl.gz');
      expect(await hamlet({ HAMLET_DATA_DIR: dirs[0] }, 'world', 'save', file)).toBe(a);
      const { state } = decodeWorld(readFileSync(file));
      const rows = (name: string) => state.tables.find((t) => t.name === name)?.rows ?? [];
      expect(rows('community_agents').length).toBe(12 + 1); // and the owner of the communities the service starts with
      expect(rows('blog_agents').length).toBe(9);
      expect(rows('blog_posts').length).toBe(14);
      expect(rows('mail_inboxes').length).toBe(12);
      expect(rows('mail_threads').length).toBeGreaterThan(20);
      expect(rows('community_posts').length).toBe(21);
      expect(rows('community_comments').length).toBeGreaterThan(10);
      expect(rows('workflow_executions').length).toBe(7);
      const times = rows('home_states').map((r) => Number(r.last_updated_ts));
      expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(6 * 86_400);

      // Loaded into PostgreSQL, the same world hashes the same.
      if (process.env.TEST_DATABASE_URL) {
        const pg = await testStorage();
        try {
          expect(
            await hamlet({ HAMLET_DATA_DIR: pg.dataDir, DATABASE_URL: pg.databaseUrl! }, 'world', 'load', file),
          ).toBe(a);
        } finally {
          await pg.drop();
        }
      }
    } finally {
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    }
  }, 600_000);
});
