// The `hamlet` command: keys printed alone on stdout (so scripts can capture them), usable by
// a running server on the same storage; bad configuration reported value by value.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it, vi } from 'vitest';
import { main } from '../src/commands/main.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/platform/logger.js';
import { closePlatform, openPlatform } from '../src/server.js';
import { testEnv, testStorage } from './helpers/hamlet.js';
import { spawnHamlet } from './helpers/process.js';
import { waitFor } from './helpers/wait.js';
import { CLI_ARGS } from './helpers/cli.js';

const run = promisify(execFile);
const CLI = [process.execPath, CLI_ARGS] as const;
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

async function hamlet(args: string[], env: Record<string, string>) {
  try {
    const r = await run(CLI[0], [...CLI[1], ...args], { env: { ...process.env, ...env } });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

it('`keys create` prints exactly one key, which a running server on the same storage accepts', async () => {
  const storage = await testStorage();
  cleanups.push(() => storage.drop());
  const env = testEnv(storage, ['blog']);
  const server = await spawnHamlet(env);
  cleanups.push(() => server.kill());

  const r = await hamlet(['keys', 'create', 'workflow', '--name', 'ci'], env);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^hamlet_workflow_[0-9A-Za-z]{32}\n$/);
  const key = r.stdout.trim();

  const platform = await openPlatform(loadConfig(env), { logger: createLogger({ level: 'silent', pretty: false }) });
  try {
    const record = await platform.keys.verify('workflow', key);
    expect(record?.name).toBe('ci');
  } finally {
    await closePlatform(platform);
  }
  const list = await hamlet(['keys', 'list', 'workflow'], env);
  expect(list.stdout).toContain(`…${key.slice(-4)}`);
  expect(list.stdout).not.toContain(key);

  // Blog keys belong to verified agents, not to an admin.
  const blog = await hamlet(['keys', 'create', 'blog'], env);
  expect(blog.code).toBe(1);
  expect(blog.stdout).toBe('');
}, 60_000);

it('reports each bad setting with its own message and exits non-zero', async () => {
  const r = await hamlet(['start'], {
    BLOG_PORT: 'x',
    HAMLET_SMTP_RELAY: 'http://nope',
    HAMLET_DATA_DIR: '/tmp/unused',
  });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('BLOG_PORT=x');
  expect(r.stderr).toContain('HAMLET_SMTP_RELAY=http://nope');
  const svc = await hamlet(['start', '--services', 'blog,bogus'], {});
  expect(svc.stderr).toContain('unknown service bogus');
}, 60_000);

// `npm start` runs the built CLI (dist/, made by `npm ci`'s prepare step), not the sources:
// files besides the compiled code, such as the demo house, must be there too.
it.runIf(existsSync(path.resolve('dist/cli.js')))(
  'the built `hamlet start` starts every service and stops on SIGTERM',
  async () => {
    const storage = await testStorage();
    cleanups.push(() => storage.drop());
    const env = testEnv(storage, ['blog', 'mail', 'community', 'home', 'workflow']);
    const child = spawn(process.execPath, [path.resolve('dist/cli.js'), 'start'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(async () => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'))); // no orphan if the start fails
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // Started (the last service prints its URLs), or exited early: the assertions below say which.
    await waitFor(() => /^workflow\s+api\s+http/m.test(out) || child.exitCode !== null, {
      timeoutMs: 30_000,
      intervalMs: 100,
      message: 'the workflow API URL on stdout',
    });
    for (const service of ['blog', 'mail', 'community', 'home', 'workflow'])
      expect(out).toMatch(new RegExp(`^${service}\\s+api\\s+http://`, 'm'));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  },
  60_000,
);

it('--help and help succeed, --version prints the package version, no command at all is an error', async () => {
  const version = (
    JSON.parse(await (await import('node:fs/promises')).readFile('package.json', 'utf8')) as { version: string }
  ).version;
  for (const args of [['--help'], ['-h'], ['help']]) {
    const r = await hamlet(args, {});
    expect(r.code, args.join(' ')).toBe(0);
    expect(r.stdout).toContain('hamlet start');
  }
  for (const args of [['--version'], ['-v']]) {
    const r = await hamlet(args, {});
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`hamlet ${version}\n`);
  }
  const none = await hamlet([], {});
  expect(none.code).toBe(1);
  expect(none.stderr).toContain('Usage:');
}, 60_000);

// With REDIS_URL the platform opens Redis connections and subscribes (key revocations); a CLI
// command closes them before Redis has answered, which once ended in an unhandled "Connection is
// closed" rejection and exit code 1 after the key was printed.
it.runIf(process.env.TEST_REDIS_URL)(
  '`keys create` with REDIS_URL exits 0 every time',
  async () => {
    const storage = await testStorage();
    cleanups.push(() => storage.drop());
    const env = { ...testEnv(storage, ['mail']), REDIS_URL: process.env.TEST_REDIS_URL! };
    for (let i = 0; i < 3; i++) {
      const r = await hamlet(['keys', 'create', 'mail'], env);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^hamlet_mail_\w+\n$/);
    }
  },
  60_000,
);

/**
 * The CLI's `main` run in this process, its console output captured: what `hamlet <args>` prints
 * and exits with, without a child process per call (help and misuse touch no storage or server;
 * the spawned CLI's own exit path is covered by the tests above).
 */
async function hamletHere(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi
    .spyOn(console, 'log')
    .mockImplementation((...parts: unknown[]) => void out.push(parts.join(' ') + '\n'));
  const error = vi
    .spyOn(console, 'error')
    .mockImplementation((...parts: unknown[]) => void err.push(parts.join(' ') + '\n'));
  try {
    const code = await main(args);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

it('every command and subcommand has its own help with its usage and an example', async () => {
  for (const args of [
    ['start'],
    ['keys'],
    ['keys', 'create'],
    ['keys', 'list'],
    ['keys', 'revoke'],
    ['migrate'],
    ['worker'],
    ['mcp'],
    ['world'],
    ['world', 'save'],
    ['world', 'load'],
    ['world', 'seed'],
    ['mail'],
    ['mail', 'outbox'],
  ]) {
    const r = await hamletHere([...args, '--help']);
    expect(r.code, args.join(' ')).toBe(0);
    expect(r.stdout, args.join(' ')).toMatch(new RegExp(`^Usage: hamlet ${args.join(' ')}`));
    expect(r.stdout, args.join(' ')).toMatch(/\nExample:\n {2}(\S+=\S+ )*\S*hamlet /);
  }
  const seed = await hamletHere(['world', 'seed', '--help']);
  expect(seed.stdout).toContain('--size small|large');
  expect((await hamletHere(['help', 'keys'])).stdout).toContain('Usage: hamlet keys create|list|revoke');
}, 120_000);

it('a missing or unknown subcommand exits 2 and says what is expected; an unknown command exits 2', async () => {
  const mail = await hamletHere(['mail']);
  expect(mail.code).toBe(2);
  expect(mail.stderr).toContain('hamlet mail needs a command: one of outbox');
  const world = await hamletHere(['world']);
  expect(world.code).toBe(2);
  expect(world.stderr).toContain('one of save, load, reset, hash, seed');
  const keys = await hamletHere(['keys', 'rotate']);
  expect(keys.code).toBe(2);
  expect(keys.stderr).toContain('unknown command rotate: one of create, list, revoke');
  const save = await hamletHere(['world', 'save']);
  expect(save.code).toBe(2);
  expect(save.stderr).toContain('Usage: hamlet world save <file>');
  const unknown = await hamletHere(['frobnicate']);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('unknown command: frobnicate');
}, 120_000);
