// Two Hamlet instances in this process on one PostgreSQL schema and one Redis, as two API
// instances of a cluster run. Each has its own bus connections, leader leases and memory;
// a prefix of their own keeps them apart from other test files on the same Redis. Tests
// using this skip unless TEST_DATABASE_URL and TEST_REDIS_URL are set.
import { loadConfig } from '../../src/config.js';
import type { ServiceName } from '../../src/services/registry.js';
import type { Clock } from '../../src/platform/clock.js';
import { createLogger } from '../../src/platform/logger.js';
import { startHamlet, type Hamlet } from '../../src/server.js';
import { busLinked } from '../helpers/bus.js';
import { startTestHamlet, testEnv, type TestHamlet } from '../helpers/hamlet.js';
import { waitFor } from '../helpers/wait.js';

export const clusterEnabled = !!process.env.TEST_DATABASE_URL && !!process.env.TEST_REDIS_URL;

export interface Cluster {
  /** The first instance (it created the storage). */
  a: TestHamlet;
  /** The second instance, on the same storage and Redis. */
  b: Hamlet;
  url(instance: 'a' | 'b', service: ServiceName): string;
  /** The instance that leads a service now, and the other one. */
  leaderOf(service: ServiceName): Promise<{ leader: Hamlet; follower: Hamlet }>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** The second instance's clock, when it differs (machines whose clocks disagree). */
  clockOfSecond?: Clock;
  /** Runs on the first instance before the second starts (e.g. what the second must find at its start). */
  beforeSecond?: (a: TestHamlet) => Promise<void>;
}

export async function startCluster(services: ServiceName[], opts: ClusterOptions = {}): Promise<Cluster> {
  const env = {
    REDIS_URL: process.env.TEST_REDIS_URL!,
    HAMLET_QUEUE_PREFIX: `hamlet-cs-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`,
    HAMLET_RATE_LIMITS: 'off',
    ...opts.env,
  };
  const a = await startTestHamlet({ services, env, clock: opts.clock });
  let b: Hamlet;
  try {
    await opts.beforeSecond?.(a);
    const config = loadConfig(testEnv({ dataDir: a.dataDir, databaseUrl: a.config.databaseUrl }, services, env));
    b = await startHamlet(config, {
      clock: opts.clockOfSecond ?? opts.clock,
      logger: createLogger({ level: config.logLevel, pretty: false }),
    });
  } catch (err) {
    await a.destroy();
    throw err;
  }
  // Redis subscriptions go live asynchronously: both directions must carry messages before a test writes.
  await busLinked(a.hamlet.platform.events, b.platform.events);
  await busLinked(b.platform.events, a.hamlet.platform.events);
  return {
    a,
    b,
    url: (instance, service) => (instance === 'a' ? a.url(service) : b.services[service]!.urls.api),
    async leaderOf(service) {
      const [one, two] = [a.hamlet, b];
      const leads = (h: Hamlet) => h.platform.leaders.of(service).isLeader();
      await waitFor(() => leads(one) !== leads(two), { message: `exactly one ${service} leader of the two instances` });
      return leads(one) ? { leader: one, follower: two } : { leader: two, follower: one };
    },
    async stop() {
      await b.stop().catch(() => {});
      await a.destroy();
    },
  };
}

/** A JSON request with a bearer token (or other headers); the body parsed when it is JSON. */
export async function call(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path, {
    method,
    headers: { ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: the text itself
  }
  return { status: res.status, body };
}
