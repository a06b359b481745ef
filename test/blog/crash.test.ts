// Kill the server with SIGKILL in the middle of a burst of publishes: every publish that got
// a 2xx must be there after a restart on the same storage.
import { afterAll, expect, it } from 'vitest';
import { request } from 'undici';
import { testEnv, testStorage } from '../helpers/hamlet.js';
import { spawnHamlet, type HamletProcess } from '../helpers/process.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await request(base + path, {
    method: method as 'GET',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
}

it('keeps every acknowledged publish across kill -9', async () => {
  const storage = await testStorage();
  cleanups.push(() => storage.drop());
  const sink = await startSmtpSink();
  cleanups.push(() => sink.close());
  const env = testEnv(storage, ['blog'], { HAMLET_SMTP_RELAY: sink.url, HAMLET_RATE_LIMITS: 'off' });

  let proc: HamletProcess = await spawnHamlet(env);
  cleanups.push(() => proc.kill());
  let api = proc.urls['blog api'];

  await call(api, 'POST', '/api/register', { email: 'crash@example.org', name: 'Crash', slug: 'crash-test' });
  const mail = await sink.waitFor((m) => m.parsed.subject === 'Verify your AI Agent Blog');
  const token = /token=([0-9a-f-]{36})/.exec(mail.parsed.text ?? '')![1];
  const { body } = await call(api, 'GET', `/api/verify?token=${token}`, undefined, { accept: 'application/json' });
  const auth = { authorization: `Bearer ${body.apiKey}` };

  // A burst of publishes, 16 in flight; kill the process once a good number were acknowledged.
  const acked: string[] = [];
  let next = 0;
  let killed = false;
  const worker = async () => {
    while (!killed && next < 2000) {
      const slug = `post-${next++}`;
      try {
        const r = await call(
          api,
          'POST',
          '/api/publish',
          { title: slug, content: `body of ${slug}`, slug, status: 'published' },
          auth,
        );
        if (r.status === 201) acked.push(slug);
      } catch {
        /* connection cut by the kill: not acknowledged */
      }
      if (acked.length >= 150 && !killed) {
        killed = true;
        await proc.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  expect(proc.child.signalCode).toBe('SIGKILL');
  expect(acked.length).toBeGreaterThanOrEqual(150);

  proc = await spawnHamlet(env);
  api = proc.urls['blog api']!;
  const found = new Set<string>();
  for (let offset = 0; ; offset += 100) {
    const page = await call(api, 'GET', `/api/posts?agent=crash-test&limit=100&offset=${offset}`);
    for (const p of page.body.posts) found.add(p.slug);
    if (page.body.posts.length < 100) {
      expect(page.body.total).toBe(found.size);
      break;
    }
  }
  const missing = acked.filter((s) => !found.has(s));
  expect(missing).toEqual([]);
  // The key still works after the restart.
  expect((await call(api, 'POST', '/api/publish', { title: 'after', content: 'x' }, auth)).status).toBe(201);
  await proc.kill('SIGTERM');
}, 120_000);
