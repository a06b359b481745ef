// A newcomer's first hour with `--services blog` alone (issue 17): with no mail relay and no
// mail service in the process, the verification link is written to the log (info level), so a
// registration can be finished; with a relay set, it is not. The URLs the API returns open on
// this machine (http, the real port), and the API's root URL says what it is.
import { afterAll, expect, it } from 'vitest';
import { request } from 'undici';
import { testEnv, testStorage } from '../helpers/hamlet.js';
import { spawnHamlet, type HamletProcess } from '../helpers/process.js';
import { waitFor } from '../helpers/wait.js';

const cleanup: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

async function start(extra: Record<string, string>): Promise<{ proc: HamletProcess; api: string }> {
  const storage = await testStorage();
  const proc = await spawnHamlet(testEnv(storage, ['blog'], { HAMLET_LOG_LEVEL: 'info', ...extra }));
  cleanup.push(
    () => storage.drop(),
    () => proc.kill('SIGTERM'),
  );
  return { proc, api: proc.urls['blog api'] };
}

const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, body: (await res.body.json()) as any };
};

it('logs the verification link when no relay is set, and the whole flow then works from the log', async () => {
  const { proc, api } = await start({});
  expect((await post(`${api}/api/register`, { email: 'ada@example.org', name: 'Ada', slug: 'ada' })).status).toBe(200);
  const link = await waitFor(
    () =>
      /Verification link for ada@example\.org[^:]*: (http:\/\/\S+\/api\/verify\?token=[0-9a-f-]{36})/.exec(
        proc.output(),
      )?.[1],
    { message: 'the link in the log' },
  );
  // The link names the API as it listens, so it opens as printed.
  expect(link.startsWith(`${api}/api/verify?token=`)).toBe(true);
  const verified = await request(link, { headers: { accept: 'application/json' } });
  const { apiKey, blogUrl } = (await verified.body.json()) as { apiKey: string; blogUrl: string };
  expect(verified.statusCode).toBe(200);
  expect(blogUrl).toBe(`http://ada.blog.localhost:${new URL(api).port}`);
  // The key itself is never logged, only the link.
  expect(proc.output()).not.toContain(apiKey);

  // Resend works and logs the fresh link too (for a registration still pending).
  await post(`${api}/api/register`, { email: 'bob@example.org', name: 'Bob', slug: 'bob' });
  await waitFor(() => proc.output().includes('Verification link for bob@example.org'), { message: 'first link' });
  expect((await post(`${api}/api/resend-verification`, { email: 'bob@example.org' })).status).toBe(200);
  await waitFor(() => (proc.output().match(/Verification link for bob@example\.org/g) ?? []).length === 2, {
    message: 'the resent link',
  });

  // The post URL the API returns opens the post (Chromium and curl resolve *.localhost to loopback; here the Host header says it).
  const published = await post(
    `${api}/api/publish`,
    { title: 'Hello world', content: '# Hello world\n\nFirst.', status: 'published' },
    { authorization: `Bearer ${apiKey}` },
  );
  const url = new URL(published.body.post.url);
  expect(url.protocol).toBe('http:');
  const page = await request(`${api}${url.pathname}`, { headers: { host: url.host } });
  expect(page.statusCode).toBe(200);
  expect(await page.body.text()).toContain('<h1>Hello world</h1>');
});

it('does not log verification links when a relay is set', async () => {
  // A relay nobody listens on: the mail stays queued, which is not this test's concern.
  const { proc, api } = await start({ HAMLET_SMTP_RELAY: 'smtp://127.0.0.1:9' });
  expect((await post(`${api}/api/register`, { email: 'quiet@example.org', name: 'Q', slug: 'quiet' })).status).toBe(
    200,
  );
  // The link would be logged inside the request, so before the request's own log line.
  await waitFor(
    () =>
      proc
        .output()
        .split('\n')
        .some((line) => line.includes('/api/register') && line.includes('"status":200')),
    { message: "the registration's request log line" },
  );
  expect(proc.output()).not.toContain('Verification link');
  expect(proc.output()).not.toMatch(/verify\?token=[0-9a-f]/);
});

it('answers the API root URL with a small index instead of "not a blog"', async () => {
  const { api } = await start({});
  const json = await request(`${api}/`, { headers: { accept: 'application/json' } });
  expect(json.statusCode).toBe(200);
  expect(await json.body.json()).toMatchObject({
    docs: `${api}/api-docs`,
    openapi: `${api}/openapi.json`,
    docsJson: `${api}/docs/json`,
  });
  const html = await request(`${api}/`);
  const text = await html.body.text();
  expect(html.statusCode).toBe(200);
  expect(text).toContain('href="/api-docs"');
  expect(text).toContain('href="/docs/json"');
  expect(text).not.toContain('not a blog');
});
