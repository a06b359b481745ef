// The local cluster: API instances (`hamlet start` with HAMLET_WORKERS=off), one `hamlet
// worker`, and HAProxy in front, all on one PostgreSQL database and one Redis. Used by
// `npm run cluster` (scripts/cluster/run.ts), the cluster tests (test/cluster/) and the
// two-instance benchmark (bench/cluster.bench.ts).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HAMLET_PORTS, HEALTH_PATHS, haproxyConfig, type PortMap, type PortName } from './haproxy.js';
import { ClusterProcess } from './processes.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ClusterOptions {
  databaseUrl: string;
  redisUrl: string;
  /** BullMQ key prefix (HAMLET_QUEUE_PREFIX): one per cluster sharing a Redis. */
  queuePrefix?: string;
  /** API instances behind the load balancer (default 2). */
  instances?: number;
  /**
   * `standard`: the load balancer takes Hamlet's usual ports (4000, 4100, 2525, …) and
   * instance n listens 10·n above them; `free`: ports the system has free now (tests).
   */
  ports?: 'standard' | 'free';
  /** `dist`: `node dist/cli.js` (build first); `source`: the TypeScript sources through tsx. */
  entry?: 'dist' | 'source';
  /** Where the HAProxy configuration, logs and data directories go (default: a new temp dir). */
  dir?: string;
  host?: string;
  /** More environment for every Hamlet process (e.g. HAMLET_RATE_LIMITS=off, HAMLET_SMTP_RELAY). */
  env?: Record<string, string>;
  /** Run HAProxy (default true); without it the instances are reached directly. */
  loadBalancer?: boolean;
  /** Run the worker (default true). */
  worker?: boolean;
  haproxyBinary?: string;
}

export interface Instance extends ClusterProcess {
  ports: PortMap;
}

export interface Cluster {
  dir: string;
  host: string;
  /** Where the load balancer listens (the instances' own ports when it does not run). */
  front: PortMap;
  instances: Instance[];
  worker?: ClusterProcess;
  haproxy?: ClusterProcess;
  /** `http://host:port` of a port on the load balancer, or on one instance. */
  url(port: PortName, instance?: number): string;
  /** Every process, in the order they are stopped. */
  processes(): ClusterProcess[];
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 90_000;

export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const host = opts.host ?? '127.0.0.1';
  const count = opts.instances ?? 2;
  const dir = opts.dir ?? mkdtempSync(path.join(os.tmpdir(), 'hamlet-cluster-'));
  mkdirSync(path.join(dir, 'logs'), { recursive: true });
  const { front, perInstance } = opts.ports === 'free' ? await freeLayout(host, count) : standardLayout(count);
  const balanced = opts.loadBalancer !== false;
  const publicPorts = balanced ? front : perInstance[0];
  const base = (p: PortName) => `http://${host}:${publicPorts[p]}`;

  // What every Hamlet process shares: the storage, the queue, and where the others reach a
  // service (through the load balancer), so links, webhook URLs and outbound mail name it.
  const shared: Record<string, string> = {
    DATABASE_URL: opts.databaseUrl,
    REDIS_URL: opts.redisUrl,
    HAMLET_QUEUE_PREFIX: opts.queuePrefix ?? 'hamlet',
    HAMLET_HOST: host,
    HAMLET_TRUST_PROXY: host,
    HAMLET_BLOG_URL: base('blog'),
    HAMLET_MAIL_URL: base('mail'),
    HAMLET_COMMUNITY_URL: base('community'),
    HAMLET_HOME_URL: base('home'),
    HAMLET_WORKFLOW_URL: base('workflow'),
    BLOG_API_URL: base('blog'),
    BLOG_PUBLIC_PORT: String(publicPorts.blog),
    MAIL_PUBLIC_URL: base('mail'),
    COMMUNITY_PUBLIC_URL: base('community'),
    WORKFLOW_PUBLIC_URL: base('workflow'),
    ...opts.env,
  };
  const hamlet = (command: string[]) =>
    opts.entry === 'dist'
      ? { command: process.execPath, args: [path.join(ROOT, 'dist/cli.js'), ...command] }
      : { command: process.execPath, args: ['--import', 'tsx', path.join(ROOT, 'src/cli.ts'), ...command] };
  const env = (more: Record<string, string>) => ({ ...process.env, ...shared, ...more });

  const instances: Instance[] = perInstance.map((ports, i) => {
    const name = `hamlet-${i + 1}`;
    const portVars = Object.fromEntries(HAMLET_PORTS.map((p) => [p.variable, String(ports[p.name])]));
    const proc = new ClusterProcess({
      name,
      ...hamlet(['start']),
      // Each instance its own data directory: it holds only local files (the SMTP STARTTLS
      // certificate, the home's YAML), never shared state.
      env: env({ ...portVars, HAMLET_WORKERS: 'off', HAMLET_DATA_DIR: path.join(dir, name) }),
      cwd: ROOT,
      logFile: path.join(dir, 'logs', `${name}.log`),
      ready: (out) => /is running:[\s\S]*\n\n/.test(out),
      readyTimeoutMs: READY_TIMEOUT_MS,
    });
    return Object.assign(proc, { ports });
  });
  // The worker sends mail for our own domains to the cluster's SMTP port (the load balancer).
  const worker =
    opts.worker === false
      ? undefined
      : new ClusterProcess({
          name: 'worker',
          ...hamlet(['worker']),
          env: env({ SMTP_PORT: String(publicPorts.smtp), HAMLET_DATA_DIR: path.join(dir, 'worker') }),
          cwd: ROOT,
          logFile: path.join(dir, 'logs', 'worker.log'),
          ready: (out) => out.includes('worker ready'),
          readyTimeoutMs: READY_TIMEOUT_MS,
        });
  let haproxy: ClusterProcess | undefined;

  const cluster: Cluster = {
    dir,
    host,
    front: publicPorts,
    instances,
    worker,
    get haproxy() {
      return haproxy;
    },
    url: (port, instance) =>
      `http://${host}:${instance === undefined ? publicPorts[port] : instances[instance].ports[port]}`,
    processes: () => [...(haproxy ? [haproxy] : []), ...instances, ...(worker ? [worker] : [])],
    async stop() {
      // The load balancer first (no new requests), then every Hamlet process drains at once.
      if (haproxy) await haproxy.kill('SIGTERM', 5_000);
      await Promise.all([...instances, ...(worker ? [worker] : [])].map((p) => p.kill('SIGTERM')));
      for (const p of cluster.processes()) p.close();
    },
  };

  try {
    // All at once, as replicas of a deployment start: migrations take PostgreSQL's advisory
    // lock and the seeds insert what is missing, so the processes may race for a fresh schema.
    await Promise.all([...instances.map((i) => i.start()), worker?.start()]);
    if (balanced) {
      const file = path.join(dir, 'haproxy.cfg');
      const healthPath = await healthPathOf(host, instances[0].ports);
      writeFileSync(
        file,
        haproxyConfig({ host, front, healthPath, instances: instances.map((i) => ({ name: i.name, ports: i.ports })) }),
      );
      haproxy = new ClusterProcess({
        name: 'haproxy',
        command: opts.haproxyBinary ?? 'haproxy',
        // -db: stay in the foreground, logs to this process's output.
        args: ['-db', '-f', file],
        env: process.env,
        cwd: dir,
        logFile: path.join(dir, 'logs', 'haproxy.log'),
        // HAProxy prints nothing when it starts well: it is ready once every frontend accepts.
        ready: async () => (await Promise.all(Object.values(front).map((port) => accepts(host, port)))).every(Boolean),
        readyTimeoutMs: 20_000,
      });
      await haproxy.start();
    }
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}

/** Readiness where the instance offers it (a 404 means a build without it: its liveness check then). */
async function healthPathOf(host: string, ports: PortMap): Promise<string> {
  for (const p of HAMLET_PORTS.filter((port) => port.protocol === 'http')) {
    // Ports of services this instance does not run (HAMLET_SERVICES) refuse the connection.
    const res = await fetch(`http://${host}:${ports[p.name]}${HEALTH_PATHS.readiness}`).catch(() => undefined);
    if (!res) continue;
    await res.arrayBuffer();
    return res.status === 404 ? HEALTH_PATHS.liveness : HEALTH_PATHS.readiness;
  }
  return HEALTH_PATHS.liveness;
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function standardLayout(count: number): { front: PortMap; perInstance: PortMap[] } {
  const at = (offset: number) => Object.fromEntries(HAMLET_PORTS.map((p) => [p.name, p.standard + offset])) as PortMap;
  return { front: at(0), perInstance: Array.from({ length: count }, (_, i) => at(10 * (i + 1))) };
}

/** Ports free now, all held open together so none is handed out twice, then released. */
async function freeLayout(host: string, count: number): Promise<{ front: PortMap; perInstance: PortMap[] }> {
  const servers = await Promise.all(
    Array.from(
      { length: HAMLET_PORTS.length * (count + 1) },
      () =>
        new Promise<net.Server>((resolve) => {
          const s = net.createServer();
          s.listen(0, host, () => resolve(s));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  const take = (block: number) =>
    Object.fromEntries(HAMLET_PORTS.map((p, i) => [p.name, ports[block * HAMLET_PORTS.length + i]])) as PortMap;
  return { front: take(0), perInstance: Array.from({ length: count }, (_, i) => take(i + 1)) };
}
