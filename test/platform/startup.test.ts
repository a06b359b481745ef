// Start-up failures an operator meets (port taken, data directory unusable, database
// read-only or unreachable, a malformed DATABASE_URL) each end in one line on stderr that
// names the setting and its value with passwords masked, and exit code 1; the stack trace
// only with --log-level debug.
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ANY_FREE_PORT } from '../helpers/ports.js';
import { CLI_ARGS } from '../helpers/cli.js';

const CLI = CLI_ARGS;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'hamlet-startup-'));
chmodSync(tmp, 0o755);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * Root ignores file permissions, so the permission cases run the CLI as `nobody` when we are
 * root; that needs the checkout readable by everyone (it is not when it lives under /root).
 */
const isRoot = process.getuid?.() === 0;
const worldCanRead = (dir: string): boolean => {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if ((statSync(d).mode & 0o005) !== 0o005) return false;
    if (d === path.dirname(d)) return true;
  }
};
const permissionsApply = !isRoot || (worldCanRead(process.cwd()) && worldCanRead(tmp));

/** Runs `hamlet <args>` as a child; `asNobody` drops root so file permissions apply. */
function hamlet(args: string[], env: Record<string, string>, opts: { asNobody?: boolean } = {}) {
  const drop = opts.asNobody && isRoot ? { uid: 65534, gid: 65534 } : {};
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [...CLI, ...args],
      {
        env: { ...process.env, ...ANY_FREE_PORT, HAMLET_SERVICES: 'blog', HAMLET_LOG_LEVEL: 'warn', ...env },
        timeout: 60_000,
        ...drop,
      },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

function expectOneLine(r: { code: number | null; stderr: string }, ...mustContain: string[]) {
  expect(r.code, r.stderr).toBe(1);
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(r.stderr).not.toMatch(/^\s+at /m);
  for (const s of mustContain) expect(r.stderr).toContain(s);
}

describe('start-up errors', () => {
  it('a port in use names the variable and the port', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const r = await hamlet(['start'], { HAMLET_DATA_DIR: path.join(tmp, 'port'), BLOG_PORT: String(port) });
      expectOneLine(r, `BLOG_PORT=${port}`, 'in use');
      // With --log-level debug the stack comes too.
      const debug = await hamlet(['start', '--log-level', 'debug'], {
        HAMLET_DATA_DIR: path.join(tmp, 'port'),
        BLOG_PORT: String(port),
      });
      expect(debug.code).toBe(1);
      expect(debug.stderr).toContain(`BLOG_PORT=${port}`);
      expect(debug.stderr).toMatch(/^\s+at /m);
    } finally {
      blocker.close();
    }
  }, 90_000);

  it('a data directory that is a file', async () => {
    const file = path.join(tmp, 'a-file');
    writeFileSync(file, 'not a directory');
    expectOneLine(await hamlet(['start'], { HAMLET_DATA_DIR: file }), `HAMLET_DATA_DIR=${file}`, 'not a directory');
    expectOneLine(
      await hamlet(['start'], { HAMLET_DATA_DIR: path.join(file, 'sub') }),
      `HAMLET_DATA_DIR=${path.join(file, 'sub')}`,
    );
  }, 60_000);

  it.runIf(permissionsApply)(
    'a data directory that cannot be written',
    async () => {
      const locked = path.join(tmp, 'locked');
      mkdirSync(locked);
      chmodSync(locked, 0o555);
      const r = await hamlet(['start'], { HAMLET_DATA_DIR: path.join(locked, 'data') }, { asNobody: true });
      expectOneLine(r, `HAMLET_DATA_DIR=${path.join(locked, 'data')}`, 'permission');
    },
    60_000,
  );

  it.runIf(permissionsApply)(
    'a read-only database file',
    async () => {
      const dir = path.join(tmp, 'readonly');
      mkdirSync(dir);
      expect((await hamlet(['migrate'], { HAMLET_DATA_DIR: dir })).code).toBe(0);
      chmodSync(dir, 0o555);
      for (const f of ['hamlet.sqlite', 'hamlet.sqlite-wal', 'hamlet.sqlite-shm']) {
        try {
          chmodSync(path.join(dir, f), 0o444);
        } catch {
          /* WAL files exist only while open */
        }
      }
      const r = await hamlet(['start'], { HAMLET_DATA_DIR: dir }, { asNobody: true });
      expectOneLine(r, `HAMLET_DATA_DIR=${dir}`, 'read-only');
    },
    60_000,
  );

  it('an unreachable PostgreSQL, its password masked', async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const r = await hamlet(['start'], {
      HAMLET_DATA_DIR: path.join(tmp, 'pg'),
      DATABASE_URL: `postgres://hamlet:s3cretPw@127.0.0.1:${port}/hamlet`,
    });
    expectOneLine(r, 'DATABASE_URL=postgres://hamlet:****@127.0.0.1:' + port, 'cannot connect');
    expect(r.stderr).not.toContain('s3cretPw');
  }, 60_000);

  it('a malformed DATABASE_URL does not echo its password', async () => {
    const r = await hamlet(['start'], {
      HAMLET_DATA_DIR: path.join(tmp, 'bad'),
      DATABASE_URL: 'postgres://hamlet:s3cretPw@db.example:port/hamlet',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('DATABASE_URL=postgres://hamlet:****@db.example:port/hamlet');
    expect(r.stderr).not.toContain('s3cretPw');
    const relay = await hamlet(['start'], {
      HAMLET_DATA_DIR: path.join(tmp, 'bad'),
      HAMLET_SMTP_RELAY: 'http://u:relayPw@relay.example',
    });
    expect(relay.code).toBe(1);
    expect(relay.stderr).toContain('HAMLET_SMTP_RELAY=http://u:****@relay.example');
    expect(relay.stderr).not.toContain('relayPw');
  }, 60_000);
});
