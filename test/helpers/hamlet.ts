// Starts Hamlet in-process for a test: every port 0, a temporary SQLite file, or a fresh
// PostgreSQL schema when TEST_DATABASE_URL is set, so the same suites run on both.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type HamletConfig, loadConfig } from '../../src/config.js';
import type { ServiceName } from '../../src/services/registry.js';
import type { Clock } from '../../src/platform/clock.js';
import { createLogger } from '../../src/platform/logger.js';
import { ANY_FREE_PORT } from './ports.js';
import { startHamlet, type Hamlet } from '../../src/server.js';

export interface TestHamlet {
  hamlet: Hamlet;
  config: HamletConfig;
  dataDir: string;
  /** Base URL of a service's HTTP port. */
  url(service: ServiceName, label?: string): string;
  /** Stops the services; storage stays so a test can restart on it. */
  stop(): Promise<void>;
  /** Starts again on the same storage (after stop or a simulated crash). */
  restart(env?: Record<string, string>): Promise<TestHamlet>;
  /** Stops and deletes the storage. */
  destroy(): Promise<void>;
}

export interface TestOptions {
  services: ServiceName[];
  env?: Record<string, string>;
  clock?: Clock;
}

/** A storage location: a temp dir for SQLite, plus a schema when testing on PostgreSQL. */
export async function testStorage(): Promise<{ dataDir: string; databaseUrl?: string; drop(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hamlet-test-'));
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (!pgUrl) return { dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  const schema = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
  const u = new URL(pgUrl);
  u.searchParams.set('schema', schema);
  return {
    dataDir,
    databaseUrl: u.toString(),
    drop: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    },
  };
}

export function testEnv(
  storage: { dataDir: string; databaseUrl?: string },
  services: ServiceName[],
  extra: Record<string, string> = {},
) {
  const env: Record<string, string> = {
    HAMLET_DATA_DIR: storage.dataDir,
    HAMLET_SERVICES: services.join(','),
    HAMLET_LOG_LEVEL: process.env.HAMLET_TEST_LOG_LEVEL ?? 'silent',
    ...ANY_FREE_PORT,
    // The console mints keys and serves pages: only the tests that use it turn it on.
    HAMLET_CONSOLE: 'off',
    ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}),
    ...extra,
  };
  return env;
}

export async function startTestHamlet(opts: TestOptions): Promise<TestHamlet> {
  const storage = await testStorage();
  return launch(storage, opts, opts.env ?? {});
}

async function launch(
  storage: Awaited<ReturnType<typeof testStorage>>,
  opts: TestOptions,
  env: Record<string, string>,
): Promise<TestHamlet> {
  const config = loadConfig(testEnv(storage, opts.services, env));
  const logger = createLogger({ level: config.logLevel, pretty: false });
  const hamlet = await startHamlet(config, { clock: opts.clock, logger });
  const t: TestHamlet = {
    hamlet,
    config,
    dataDir: storage.dataDir,
    url(service, label = 'api') {
      const u = hamlet.services[service]?.urls[label];
      if (!u) throw new Error(`service ${service} has no ${label} URL (is it started?)`);
      return u;
    },
    stop: () => hamlet.stop(),
    restart: async (more = {}) => {
      await hamlet.stop();
      return launch(storage, opts, { ...env, ...more });
    },
    destroy: async () => {
      await hamlet.stop();
      await storage.drop();
    },
  };
  return t;
}
