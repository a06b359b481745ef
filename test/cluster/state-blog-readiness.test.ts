// The blog as two instances of a cluster: a post published through one instance is in the
// other's cached lists and pages; and readiness as a load balancer sees it on every port:
// ok while serving, 503 while the process shuts down (it still finishes and answers what
// it was asked meanwhile). Skips without TEST_DATABASE_URL and TEST_REDIS_URL.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { waitFor } from '../helpers/wait.js';
import { call, clusterEnabled, startCluster, type Cluster } from './state-cluster.js';

let cluster: Cluster;
let sink: SmtpSink;
let key: string;

const blog = (instance: 'a' | 'b', method: string, route: string, body?: unknown) =>
  call(cluster.url(instance, 'blog'), method, route, { body, headers: key ? { authorization: `Bearer ${key}` } : {} });

/** The front page of one blog on an instance (its Host header names the blog). */
async function blogPage(instance: 'a' | 'b', slug: string): Promise<string> {
  const base = cluster.url(instance, 'blog');
  const res = await request(base + '/', { headers: { host: `${slug}.blog.localhost:${new URL(base).port}` } });
  return res.body.text();
}

beforeAll(async () => {
  if (!clusterEnabled) return;
  sink = await startSmtpSink();
  cluster = await startCluster(['blog', 'home'], { env: { HAMLET_SMTP_RELAY: sink.url, HAMLET_SHUTDOWN_DRAIN: '2s' } });
  const email = 'two@example.org';
  expect((await blog('a', 'POST', '/api/register', { email, name: 'Two Places', slug: 'two-places' })).status).toBe(
    200,
  );
  const mail = await sink.waitFor((m) => m.envelope.to.includes(email));
  const token = /token=([0-9a-f-]{36})/.exec(mail.parsed.text ?? '')![1];
  const verified = await call(cluster.url('b', 'blog'), 'GET', `/api/verify?token=${token}`, {
    headers: { accept: 'application/json' },
  });
  key = verified.body.apiKey;
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
  await sink?.close();
});

describe.skipIf(!clusterEnabled)('blog caches across two instances', () => {
  it("a post published through A is in B's cached list and page; one through B is on B at once", async () => {
    expect(
      (await blog('a', 'POST', '/api/publish', { title: 'First', content: 'one', status: 'published' })).status,
    ).toBeLessThan(300);
    const titles = async (instance: 'a' | 'b') =>
      ((await blog(instance, 'GET', '/api/posts')).body.posts as Array<{ title: string }>).map((p) => p.title);
    await waitFor(async () => (await titles('b')).includes('First'), { message: 'the first post on B' });
    expect(await blogPage('b', 'two-places')).toContain('First'); // B has cached its list and the page
    expect(
      (await blog('a', 'POST', '/api/publish', { title: 'Second', content: 'two', status: 'published' })).status,
    ).toBeLessThan(300);
    await waitFor(async () => (await titles('b'))[0] === 'Second', { message: "the second post in B's list" });
    await waitFor(async () => (await blogPage('b', 'two-places')).includes('Second'), {
      message: "the second post on B's page",
    });
    // The writing instance forgets its own cache before it answers: no wait.
    expect(
      (await blog('b', 'POST', '/api/publish', { title: 'Third', content: 'three', status: 'published' })).status,
    ).toBeLessThan(300);
    expect((await titles('b'))[0]).toBe('Third');
  });
});

describe.skipIf(!clusterEnabled)('readiness', () => {
  it('every port answers /healthz/readiness; a stopping instance answers 503 while it drains, still serving requests', async () => {
    for (const service of ['blog', 'home'] as const) {
      const ready = await call(cluster.url('b', service), 'GET', '/healthz/readiness');
      expect(ready, service).toEqual({ status: 200, body: { status: 'ok' } });
    }
    const blogB = cluster.url('b', 'blog');
    const homeB = cluster.url('b', 'home');
    const stopping = cluster.b.stop();
    try {
      // HAMLET_SHUTDOWN_DRAIN=2s: readiness turns at once; the listeners stay open for the drain.
      const during = await call(homeB, 'GET', '/healthz/readiness');
      expect(during).toEqual({ status: 503, body: { status: 'error', reason: 'stopping' } });
      expect((await call(blogB, 'GET', '/healthz/readiness')).status).toBe(503);
      expect((await call(blogB, 'GET', '/api/posts')).status).toBe(200);
      // The other instance serves on.
      expect((await call(cluster.url('a', 'blog'), 'GET', '/healthz/readiness')).status).toBe(200);
    } finally {
      await stopping;
    }
    await expect(fetch(blogB + '/healthz')).rejects.toThrow();
  });
});
