// What the local cluster stands on: PostgreSQL, Redis, HAProxy and a built dist/. Each is
// checked, and started or made when this machine can (as .ci/run does), with a message that
// says what to install when it cannot.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

function reachable(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: timeoutMs });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

async function waitReachable(host: string, port: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await reachable(host, port)) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

const hasCommand = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;

/** Starts Debian's PostgreSQL cluster if nothing listens at the URL's address and pg_ctlcluster exists. */
export async function ensurePostgres(databaseUrl: string, say: (line: string) => void): Promise<void> {
  const u = new URL(databaseUrl);
  const host = u.hostname || '127.0.0.1';
  const port = Number(u.port || 5432);
  if (await reachable(host, port)) return;
  if (!hasCommand('pg_ctlcluster') || !existsSync('/etc/postgresql'))
    throw new Error(
      `PostgreSQL is not reachable at ${host}:${port} and pg_ctlcluster is not installed (apt-get install postgresql), or set DATABASE_URL`,
    );
  const version = readdirSync('/etc/postgresql').sort().at(-1)!;
  say(`starting PostgreSQL ${version} (pg_ctlcluster)`);
  spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'inherit' });
  if (!(await waitReachable(host, port, 15_000))) throw new Error(`PostgreSQL did not come up at ${host}:${port}`);
}

/** Creates the URL's database (and its `?schema=`) when missing, so a first run needs no SQL by hand. */
export async function ensureDatabase(databaseUrl: string, say: (line: string) => void): Promise<void> {
  const u = new URL(databaseUrl);
  const schema = u.searchParams.get('schema');
  u.searchParams.delete('schema');
  const database = decodeURIComponent(u.pathname.slice(1)) || 'postgres';
  const admin = new URL(u);
  admin.pathname = '/postgres';
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  try {
    const found = await c.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) {
      say(`creating database ${database}`);
      await c.query(`create database "${database.replace(/"/g, '""')}"`);
    }
  } finally {
    await c.end();
  }
  if (!schema) return;
  const d = new pg.Client({ connectionString: u.toString() });
  await d.connect();
  try {
    await d.query(`create schema if not exists "${schema.replace(/"/g, '""')}"`);
  } finally {
    await d.end();
  }
}

/** Starts redis-server in the background (no persistence: a local recipe) when nothing answers at the URL. */
export async function ensureRedis(redisUrl: string, say: (line: string) => void): Promise<void> {
  const u = new URL(redisUrl);
  const host = u.hostname || '127.0.0.1';
  const port = Number(u.port || 6379);
  if (await reachable(host, port)) return;
  if (!hasCommand('redis-server'))
    throw new Error(
      `Redis is not reachable at ${host}:${port} and redis-server is not installed (apt-get install redis-server), or set REDIS_URL`,
    );
  say('starting redis-server');
  spawnSync(
    'redis-server',
    ['--daemonize', 'yes', '--bind', host, '--port', String(port), '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  if (!(await waitReachable(host, port, 10_000))) throw new Error(`Redis did not come up at ${host}:${port}`);
}

export function haproxyInstalled(binary = 'haproxy'): boolean {
  return spawnSync(binary, ['-v'], { stdio: 'ignore' }).status === 0;
}

/** Runs `npm run build` when dist/cli.js is missing or older than a source file. */
export function ensureBuilt(root: string, say: (line: string) => void): void {
  const cli = path.join(root, 'dist/cli.js');
  if (existsSync(cli) && newestMtime(path.join(root, 'src')) <= statSync(cli).mtimeMs) return;
  say('building dist/ (npm run build)');
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}
