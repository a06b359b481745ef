// `npm run cluster`: Hamlet as a cluster on this machine. Two API instances (HAMLET_WORKERS=off),
// one `hamlet worker` and HAProxy in front, on PostgreSQL and Redis (started here if they are
// installed but down). Ctrl-C or SIGTERM stops every process it started.
//
//   DATABASE_URL   default postgres://postgres@127.0.0.1:5432/hamlet (created if missing)
//   REDIS_URL      default redis://127.0.0.1:6379
//   CLUSTER_INSTANCES  API instances (default 2)
//   CLUSTER_PORTS  `standard` (HAProxy on 4000, 4100, 2525, …; instance n 10·n above) or `free`
// Any other Hamlet variable (HAMLET_SMTP_RELAY, MAIL_DOMAIN, …) is passed to every process.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, startCluster, type Cluster } from './cluster.js';
import { HAMLET_PORTS, SERVED_BY_HEADER } from './haproxy.js';
import { ensureBuilt, ensureDatabase, ensurePostgres, ensureRedis, haproxyInstalled } from './infrastructure.js';

const say = (line: string) => console.log(`[cluster] ${line}`);

async function main(): Promise<number> {
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/hamlet';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const instances = Number(process.env.CLUSTER_INSTANCES ?? 2);
  if (!Number.isInteger(instances) || instances < 1 || instances > 9) {
    console.error(`CLUSTER_INSTANCES=${process.env.CLUSTER_INSTANCES}: expected 1 to 9`);
    return 1;
  }
  const ports = process.env.CLUSTER_PORTS ?? 'standard';
  if (ports !== 'standard' && ports !== 'free') {
    console.error(`CLUSTER_PORTS=${ports}: expected standard or free`);
    return 1;
  }
  if (!haproxyInstalled()) {
    console.error("haproxy is not installed: apt-get install haproxy (Debian/Ubuntu), or your system's package");
    return 1;
  }
  await ensurePostgres(databaseUrl, say);
  await ensureDatabase(databaseUrl, say);
  await ensureRedis(redisUrl, say);
  ensureBuilt(ROOT, say);

  const dir = mkdtempSync(path.join(os.tmpdir(), 'hamlet-cluster-'));
  say(`starting ${instances} API instance(s), a worker and HAProxy; logs in ${dir}/logs`);
  // Listen before starting: a SIGTERM during the start must still stop what was started.
  const stopRequested = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  let stopping = false;
  const cluster: Cluster = await startCluster({ databaseUrl, redisUrl, instances, entry: 'dist', ports, dir });
  for (const p of cluster.processes()) {
    p.onUnexpectedExit = (name, code, signal) => {
      if (!stopping) say(`${name} exited (${signal ?? code}); the others go on. Its log: ${p.spec.logFile}`);
    };
  }
  printSummary(cluster, databaseUrl);

  await stopRequested;
  stopping = true;
  say('stopping…');
  await cluster.stop();
  say('stopped');
  return 0;
}

function printSummary(cluster: Cluster, databaseUrl: string): void {
  const rows = HAMLET_PORTS.map((p) => {
    const scheme = p.protocol === 'http' ? 'http' : 'smtp';
    const behind = cluster.instances.map((i) => i.ports[p.name]).join(', ');
    return (
      `  ${p.name.padEnd(11)} ${scheme}://${cluster.host}:${cluster.front[p.name]}`.padEnd(42) +
      `→ instances on ${behind}`
    );
  });
  console.log(
    [
      '',
      'Hamlet cluster is running (HAProxy in front):',
      ...rows,
      '',
      `  processes: ${cluster
        .processes()
        .map((p) => `${p.name} (pid ${p.pid})`)
        .join(', ')}`,
      `  HAProxy config: ${path.join(cluster.dir, 'haproxy.cfg')}; every HTTP answer names its instance in ${SERVED_BY_HEADER}`,
      `  API keys: DATABASE_URL='${databaseUrl}' node dist/cli.js keys create mail`,
      '  Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
}

main().then(
  (code) => (process.exitCode = code),
  (err: Error) => {
    console.error(`[cluster] ${err.message}`);
    process.exitCode = 1;
  },
);
