// The cluster of `npm run cluster` (scripts/cluster/cluster.ts) for a test: two API instances,
// one worker and HAProxy on a fresh PostgreSQL schema and a fresh Redis key prefix, every port
// free, the TypeScript sources run through tsx (no build), an SMTP sink as the relay. Runs only
// where PostgreSQL (TEST_DATABASE_URL), Redis (TEST_REDIS_URL) and haproxy are all present.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startCluster, type Cluster } from '../../scripts/cluster/cluster.js';
import { SERVED_BY_HEADER, type PortName } from '../../scripts/cluster/haproxy.js';
import { haproxyInstalled } from '../../scripts/cluster/infrastructure.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { closePlatform, openPlatform } from '../../src/server.js';
import { testStorage } from '../helpers/hamlet.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';

export const clusterEnabled = !!process.env.TEST_DATABASE_URL && !!process.env.TEST_REDIS_URL && haproxyInstalled();

/** Starting five processes on a loaded two-core machine: the hooks get this long. */
export const CLUSTER_START_MS = 180_000;

export interface Reply {
  status: number;
  body: any;
  text: string;
  /** The instance HAProxy sent the request to (`hamlet-1`, …), or `direct` when an instance was called directly. */
  servedBy: string;
}

export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Call this instance (0-based) directly instead of going through the load balancer. */
  instance?: number;
}

export interface ClusterRig {
  cluster: Cluster;
  databaseUrl: string;
  /** The relay every process sends outside mail to (the blog's verification mail arrives here). */
  relay: SmtpSink;
  /** Which instance answered each request through the load balancer, in order. */
  servedBy: string[];
  call(port: PortName, method: string, route: string, opts?: CallOptions): Promise<Reply>;
  /** A new admin-issued API key (mail, home, workflow), written straight to the shared database. */
  key(service: 'mail' | 'home' | 'workflow'): Promise<string>;
  /** The processes' logs, for a failure message. */
  logs(): string;
  destroy(): Promise<void>;
}

export async function startClusterRig(env: Record<string, string> = {}): Promise<ClusterRig> {
  const storage = await testStorage();
  const relay = await startSmtpSink();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hamlet-cluster-test-'));
  let cluster: Cluster;
  try {
    cluster = await startCluster({
      databaseUrl: storage.databaseUrl!,
      redisUrl: process.env.TEST_REDIS_URL!,
      queuePrefix: `hamlet-cluster-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`,
      ports: 'free',
      entry: 'source',
      dir,
      env: {
        HAMLET_LOG_LEVEL: process.env.HAMLET_TEST_LOG_LEVEL ?? 'warn',
        HAMLET_RATE_LIMITS: 'off',
        HAMLET_ALLOW_INTERNAL_REQUESTS: '1',
        HAMLET_SMTP_RELAY: relay.url,
        ...env,
      },
    });
  } catch (err) {
    await relay.close();
    await storage.drop();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const servedBy: string[] = [];
  const keyDir = mkdtempSync(path.join(os.tmpdir(), 'hamlet-cluster-keys-'));

  const rig: ClusterRig = {
    cluster,
    databaseUrl: storage.databaseUrl!,
    relay,
    servedBy,
    async call(port, method, route, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      let body: string | undefined;
      if (opts.body !== undefined) {
        body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(cluster.url(port, opts.instance) + route, { method, headers, body });
      const text = await res.text();
      let parsed: any = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* not JSON */
      }
      const by = opts.instance === undefined ? (res.headers.get(SERVED_BY_HEADER) ?? 'unknown') : 'direct';
      if (opts.instance === undefined) servedBy.push(by);
      return { status: res.status, body: parsed, text, servedBy: by };
    },
    async key(service) {
      // The CLI's `keys create` does the same; in-process it costs no process start.
      const config = loadConfig({
        DATABASE_URL: storage.databaseUrl!,
        HAMLET_DATA_DIR: keyDir,
        HAMLET_SERVICES: service,
      });
      const platform = await openPlatform(config, { logger: createLogger({ level: 'silent', pretty: false }) });
      try {
        return (await platform.keys.create(service)).key;
      } finally {
        await closePlatform(platform);
      }
    },
    logs: () =>
      cluster
        .processes()
        .map((p) => `--- ${p.name} ---\n${p.logText().slice(-3000)}`)
        .join('\n'),
    async destroy() {
      await cluster.stop();
      await relay.close();
      await storage.drop();
      rmSync(dir, { recursive: true, force: true });
      rmSync(keyDir, { recursive: true, force: true });
    },
  };
  return rig;
}

/** Fails with the status and body when a reply is not the expected one (a bare toBe hides the body). */
export function expectStatus(r: Reply, ...statuses: number[]): Reply {
  if (!statuses.includes(r.status))
    throw new Error(`expected ${statuses.join(' or ')}, got ${r.status} from ${r.servedBy}: ${r.text.slice(0, 500)}`);
  return r;
}
