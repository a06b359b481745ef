// The console's blog and community view: blogs, recent posts, communities and active agents,
// read from the services' public APIs and linked to their real pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEventStream } from './event-stream-reader.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';

let t: TestHamlet;
let sink: SmtpSink;
let base: string;
let cookie: string;
let mothAuth: Record<string, string>;

async function call(url: string, method: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  expect(res.status, `${method} ${url}: ${text}`).toBeLessThan(300);
  return JSON.parse(text) as Record<string, any>;
}

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestHamlet({
    services: ['blog', 'community'],
    env: { HAMLET_CONSOLE: 'on', HAMLET_RATE_LIMITS: 'off', HAMLET_SMTP_RELAY: sink.url },
  });
  base = t.hamlet.console!.urls.web!;
  const blog = t.url('blog');
  // A verified blog with a post, the way an agent gets one: register, read the mail, verify.
  await call(`${blog}/api/register`, 'POST', { email: 'quill@example.org', name: 'Agent Quill', slug: 'quill' });
  const mail = await sink.waitFor((m) => m.envelope.to.includes('quill@example.org'));
  const token = /token=([0-9a-f-]{36})/.exec(mail.parsed.text ?? '')![1];
  const { apiKey } = await call(`${blog}/api/verify?token=${token}`, 'GET', undefined, { accept: 'application/json' });
  await call(
    `${blog}/api/publish`,
    'POST',
    { title: 'Notes from the garden', content: 'Tomatoes again.', status: 'published' },
    { authorization: `Bearer ${apiKey}` },
  );
  // A community agent posting in a new community.
  const community = `${t.url('community')}/api/v1`;
  const { agent } = await call(`${community}/agents/register`, 'POST', {
    name: 'moth_bot',
    description: 'I like lamps',
  });
  mothAuth = { authorization: `Bearer ${agent.api_key}` };
  const auth = mothAuth;
  await call(`${community}/communities`, 'POST', { name: 'lamps', display_name: 'Lamps' }, auth);
  await call(
    `${community}/posts`,
    'POST',
    { title: 'The brightest lamp', content: 'Found it.', submolt: 'lamps' },
    auth,
  );

  const adminKey = (await t.hamlet.platform.keys.create('admin')).key;
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ key: adminKey }),
  });
  cookie = login.headers.get('set-cookie')!.split(';')[0]!;
}, 120_000);
afterAll(async () => {
  await t?.destroy();
  await sink?.close();
});

describe('console blog and community view', () => {
  it('lists blogs and their posts with links to the blog pages', async () => {
    const res = await fetch(`${base}/social`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/<a href="http:\/\/quill\.blog\.localhost:\d+\/?">Agent Quill<\/a>/);
    expect(text).toMatch(/<a href="http:\/\/quill\.blog\.localhost:\d+\/[^"]+">Notes from the garden<\/a>/);
  });

  it('lists communities, recent posts and their agents with links to /m/, /post/ and /u/', async () => {
    const text = await (await fetch(`${base}/social`, { headers: { cookie } })).text();
    const community = t.url('community');
    expect(text).toContain(`<a href="${community}/m/lamps">m/lamps</a>`);
    expect(text).toContain(`<a href="${community}/m/general">m/general</a>`);
    expect(text).toMatch(new RegExp(`<a href="${community}/post/[0-9a-f-]+">The brightest lamp</a>`));
    expect(text).toContain(`<a href="${community}/u/moth_bot">u/moth_bot</a>`);
  });

  it('follows new posts live: the stream announces a write to the community, and the lists it refreshes from show it', async () => {
    const page = await (await fetch(`${base}/social`, { headers: { cookie } })).text();
    expect(page).toContain('data-live="/social/stream"');
    expect(page).toContain('hx-get="/social/sections"');
    const stream = await readEventStream(`${base}/social/stream`, cookie);
    try {
      await stream.until(': connected');
      // The console's own reads are not changes: refreshing the lists announces nothing.
      await fetch(`${base}/social/sections`, { headers: { cookie } });
      await call(
        `${t.url('community')}/api/v1/posts`,
        'POST',
        { title: 'A lamp at dusk', content: 'Warm.', submolt: 'lamps' },
        mothAuth,
      );
      await stream.until(/data: \w+\n\n/);
      const sections = await (await fetch(`${base}/social/sections`, { headers: { cookie } })).text();
      expect(sections).toContain('A lamp at dusk');
      expect(sections).not.toContain('<html');
    } finally {
      stream.close();
    }
  });

  it('keeps the console viewer out of the community as an agent', async () => {
    const res = await fetch(`${t.url('community')}/u/hamlet-console`);
    expect(res.status).toBe(404);
  });

  it('says which service is not running instead of failing', async () => {
    const only = await startTestHamlet({ services: ['mail'], env: { HAMLET_CONSOLE: 'on' } });
    try {
      const key = (await only.hamlet.platform.keys.create('admin')).key;
      const res = await fetch(`${only.hamlet.console!.urls.web}/social`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain('The blog service is not running here.');
      expect(text).toContain('The community service is not running here.');
    } finally {
      await only.destroy();
    }
  });
});
