// The world commands of the CLI run as a reader runs them (a child process on a data folder),
// for the world CLI tests: world-frictions-cli.test.ts (the demo) and world-scenarios-cli.test.ts.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CLI_ARGS } from '../helpers/cli.js';

const run = promisify(execFile);
export const WORLD_SERVICES = ['blog', 'mail', 'community', 'home', 'workflow'] as const;

/** `hamlet <args>` on `dataDir` with every service; its output and exit code, never a throw. */
export async function hamlet(
  dataDir: string,
  ...args: string[]
): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...CLI_ARGS, ...args], {
      env: {
        ...process.env,
        HAMLET_DATA_DIR: dataDir,
        HAMLET_LOG_LEVEL: 'warn',
        HAMLET_SERVICES: WORLD_SERVICES.join(','),
      },
      timeout: 400_000,
    });
    return { stdout: stdout.trim(), stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; code?: number };
    return {
      stdout: String(e.stdout ?? '').trim(),
      stderr: String(e.stderr ?? ''),
      code: typeof e.code === 'number' ? e.code : 1,
    };
  }
}

/** Temporary data folders, and the removal of all of them (for afterAll). */
export function tempDirs(): { make: () => string; removeAll: () => void } {
  const dirs: string[] = [];
  return {
    make: () => {
      const d = mkdtempSync(path.join(os.tmpdir(), 'hamlet-frictions-'));
      dirs.push(d);
      return d;
    },
    removeAll: () => {
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    },
  };
}
