// What the PostgreSQL and cluster benchmarks share: a fresh schema on the benchmark's
// PostgreSQL server, a check that PostgreSQL and Redis answer, and API keys written straight
// to the database (as `hamlet keys create` does, without a process start).
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/platform/logger.js';
import { closePlatform, openPlatform } from '../src/server.js';

/** BENCH_DATABASE_URL, else the tests' or the server's, else the local default of this machine kind. */
const BENCH_DATABASE_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  process.env.DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
export const BENCH_REDIS_URL =
  process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

function answers(url: string, defaultPort: number): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect({ host: u.hostname || '127.0.0.1', port: Number(u.port || defaultPort), timeout: 1000 });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
    s.once('timeout', () => (s.destroy(), resolve(false)));
  });
}

export const postgresAnswers = () => answers(BENCH_DATABASE_URL, 5432);
export const redisAnswers = () => answers(BENCH_REDIS_URL, 6379);

/** A new schema for one benchmark run; `drop` removes it and everything in it. */
export async function benchSchema(): Promise<{ databaseUrl: string; drop(): Promise<void> }> {
  const schema = `bench_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const run = async (statement: string) => {
    const c = new pg.Client({ connectionString: BENCH_DATABASE_URL });
    await c.connect();
    try {
      await c.query(statement);
    } finally {
      await c.end();
    }
  };
  await run(`CREATE SCHEMA ${schema}`);
  const u = new URL(BENCH_DATABASE_URL);
  u.searchParams.set('schema', schema);
  return { databaseUrl: u.toString(), drop: () => run(`DROP SCHEMA IF EXISTS ${schema} CASCADE`) };
}

/** An admin-issued key (mail, home, workflow) for the database at `databaseUrl`. */
export async function benchKey(databaseUrl: string, service: 'mail' | 'home' | 'workflow'): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hamlet-bench-keys-'));
  const platform = await openPlatform(
    loadConfig({ DATABASE_URL: databaseUrl, HAMLET_DATA_DIR: dir, HAMLET_SERVICES: service }),
    { logger: createLogger({ level: 'silent', pretty: false }) },
  );
  try {
    return (await platform.keys.create(service)).key;
  } finally {
    await closePlatform(platform);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A JSON request; throws with the answer when the status is not the expected one (seeding must not half-work). */
export async function call(
  base: string,
  method: string,
  route: string,
  body?: unknown,
  headers: Record<string, string> = {},
  expected = [200, 201],
): Promise<any> {
  const res = await fetch(base + route, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!expected.includes(res.status)) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}
