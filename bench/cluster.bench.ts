// One instance against two (issue 20): the cluster of `npm run cluster` (two API instances, a
// worker and HAProxy on PostgreSQL and Redis), a read and a write of the community measured on
// one instance directly, on both instances directly (the same 10 connections split 5 + 5,
// what a client-side balancer does) and through HAProxy. Target: two instances at least as
// fast as one (the target column of a two-instance row is the one-instance row's rate). On a two-core machine the load generator, HAProxy and the database share the
// cores with the instances, so this shows the cost of the extra hop as much as the scaling.
import type autocannon from 'autocannon';
import { startCluster } from '../scripts/cluster/cluster.js';
import { haproxyInstalled } from '../scripts/cluster/infrastructure.js';
import { BENCH_REDIS_URL, benchSchema, call, postgresAnswers, redisAnswers } from './cluster-support.js';
import { load, type BenchContext, type LoadOptions } from './lib.js';

type Result = Awaited<ReturnType<typeof load>>;

/** The same load split over several URLs at once: request rates add up, the worst p99 counts. */
async function split(urls: string[], opts: Omit<LoadOptions, 'url'>): Promise<Result> {
  const per = Math.max(1, Math.round((opts.connections ?? 10) / urls.length));
  const results = await Promise.all(urls.map((url) => load({ ...opts, url, connections: per })));
  return results.reduce((a, r) => ({
    rps: a.rps + r.rps,
    p99: Math.max(a.p99, r.p99),
    errors: a.errors + r.errors,
    non2xx: a.non2xx + r.non2xx,
  }));
}

export default async function clusterBench(ctx: BenchContext) {
  if (!(await postgresAnswers()) || !(await redisAnswers()) || !haproxyInstalled()) {
    console.error('  needs PostgreSQL, Redis and haproxy (BENCH_DATABASE_URL, BENCH_REDIS_URL): skipped');
    return;
  }
  const schema = await benchSchema();
  const cluster = await startCluster({
    databaseUrl: schema.databaseUrl,
    redisUrl: BENCH_REDIS_URL,
    queuePrefix: `hamlet-bench-${Date.now().toString(36)}`,
    ports: 'free',
    entry: 'source',
    env: { HAMLET_LOG_LEVEL: 'warn', HAMLET_RATE_LIMITS: 'off', HAMLET_SERVICES: 'community' },
  });
  try {
    const lb = cluster.url('community');
    const direct = cluster.instances.map((_, i) => cluster.url('community', i));
    const agent = await call(lb, 'POST', '/api/v1/agents/register', {
      name: 'cluster_bench',
      description: 'benchmarks',
    });
    const auth = { authorization: `Bearer ${agent.agent.api_key}` };
    for (let i = 0; i < 200; i++)
      await call(lb, 'POST', '/api/v1/posts', { title: `Seed ${i}`, content: 'seed', submolt: 'general' }, auth);

    const read = { headers: auth };
    const path = '/api/v1/posts?sort=hot&limit=25';
    const one = await load({ url: direct[0] + path, ...read });
    ctx.row('community hot list, one instance', one);
    const both = await split(
      direct.map((d) => d + path),
      read,
    );
    ctx.row(
      'community hot list, two instances (5 + 5 connections)',
      both,
      { rps: Math.round(one.rps) },
      `${(both.rps / one.rps).toFixed(2)}× one instance`,
    );
    const balanced = await load({ url: lb + path, ...read });
    ctx.row(
      'community hot list, two instances through HAProxy',
      balanced,
      { rps: Math.round(one.rps) },
      `${(balanced.rps / one.rps).toFixed(2)}× one instance`,
    );

    let n = 0;
    const posting = (): autocannon.Request[] => [
      {
        method: 'POST',
        path: '/api/v1/posts',
        setupRequest: (req) => ({
          ...req,
          headers: { 'content-type': 'application/json', ...auth },
          body: JSON.stringify({ title: `Bench ${n++}`, content: 'post', submolt: 'general' }),
        }),
      },
    ];
    const writeOne = await load({ url: direct[0], requests: posting() });
    ctx.row('community POST /api/v1/posts, one instance', writeOne);
    const writeBoth = await split(direct, { requests: posting() });
    ctx.row(
      'community POST /api/v1/posts, two instances (5 + 5 connections)',
      writeBoth,
      { rps: Math.round(writeOne.rps) },
      `${(writeBoth.rps / writeOne.rps).toFixed(2)}× one instance`,
    );
    const writeBalanced = await load({ url: lb, requests: posting() });
    ctx.row(
      'community POST /api/v1/posts, two instances through HAProxy',
      writeBalanced,
      { rps: Math.round(writeOne.rps) },
      `${(writeBalanced.rps / writeOne.rps).toFixed(2)}× one instance`,
    );
  } finally {
    await cluster.stop();
    await schema.drop();
  }
}
