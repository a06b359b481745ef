// The console's mail views over HTTP: mail sent through the mail API (by an agent's own key,
// another organization than the console's) shows in the inbox lists, search and label filters
// narrow them, a message's HTML sits in a sandboxed iframe, the raw source and attachments come
// through the console, threads list their messages, held mail shows in the outbox, and the
// event stream announces a new message.
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEventStream } from './event-stream-reader.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import { waitFor } from '../helpers/wait.js';

let t: TestHamlet;
let base: string;
let api: string;
let agentKey: string;
let cookie: string;

const BOT = 'bot@mail.localhost';
const FRIEND = 'friend@mail.localhost';
const enc = encodeURIComponent;

async function mailApi<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(api + path, {
    method,
    headers: { authorization: `Bearer ${agentKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return (await res.json()) as T;
}

const page = async (path: string) => {
  const res = await fetch(base + path, { headers: { cookie } });
  return { status: res.status, text: await res.text(), headers: res.headers };
};

let htmlMessage: string;
let plainMessage: string;
let threadId: string;

beforeAll(async () => {
  t = await startTestHamlet({ services: ['mail'], env: { HAMLET_CONSOLE: 'on', HAMLET_RATE_LIMITS: 'off' } });
  base = t.hamlet.console!.urls.web!;
  api = t.url('mail');
  agentKey = (await t.hamlet.platform.keys.create('mail', { name: 'agent-one' })).key;
  await mailApi('POST', '/v0/inboxes', { username: 'bot', display_name: 'Bot' });
  await mailApi('POST', '/v0/inboxes', { username: 'friend' });
  await mailApi('POST', '/v0/inboxes', { username: 'crowd' });
  const sentHtml = await mailApi<{ message_id: string; thread_id: string }>(
    'POST',
    `/v0/inboxes/${enc(BOT)}/messages`,
    {
      to: FRIEND,
      subject: 'Quarterly report',
      text: 'The report, in plain text.',
      html: '<h1>Report</h1><p>Numbers inside.</p><script>window.parent.__xss = 1</script><img src="http://tracker.example/pixel.gif" onerror="window.__xss=2">',
      attachments: [
        { filename: 'numbers.csv', content_type: 'text/csv', content: Buffer.from('a,b\n1,2\n').toString('base64') },
      ],
    },
  );
  htmlMessage = sentHtml.message_id;
  const sentPlain = await mailApi<{ message_id: string; thread_id: string }>(
    'POST',
    `/v0/inboxes/${enc(BOT)}/messages`,
    { to: FRIEND, subject: 'Lunch on Friday?', text: 'Shall we meet at noon?' },
  );
  plainMessage = sentPlain.message_id;
  // The friend answers: both messages are one thread in the friend's inbox.
  await mailApi('POST', `/v0/inboxes/${enc(FRIEND)}/messages/${enc(plainMessage)}/reply`, { text: 'Noon suits me.' });
  await mailApi('PATCH', `/v0/inboxes/${enc(FRIEND)}/messages/${enc(htmlMessage)}`, {
    add_labels: ['read'],
    remove_labels: ['unread'],
  });
  await mailApi('POST', `/v0/inboxes/${enc(BOT)}/messages`, {
    to: 'someone@example.com',
    subject: 'Leaving the building',
    text: 'Held for want of a relay.',
  });
  const received = await mailApi<{ messages: Array<{ message_id: string; thread_id: string }> }>(
    'GET',
    `/v0/inboxes/${enc(FRIEND)}/messages`,
  );
  threadId = received.messages.find((m) => m.message_id === plainMessage)!.thread_id;

  const adminKey = (await t.hamlet.platform.keys.create('admin')).key;
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ key: adminKey, next: '/mail' }),
  });
  cookie = login.headers.get('set-cookie')!.split(';')[0]!;
}, 120_000);
afterAll(async () => t?.destroy());

describe('console mail views', () => {
  it('lists the inboxes of an agent organization and its recent threads', async () => {
    const { status, text } = await page('/mail');
    expect(status).toBe(200);
    expect(text).toContain('agent-one');
    expect(text).toContain(`href="/mail/inboxes/${enc(BOT)}"`);
    expect(text).toContain(`href="/mail/inboxes/${enc(FRIEND)}"`);
    expect(text).toContain('Quarterly report');
    expect(text).toContain('data-live="/mail/events"');
  });

  it("lists an inbox's messages, newest first, and filters them by search and by label", async () => {
    const all = await page(`/mail/inboxes/${enc(FRIEND)}`);
    expect(all.status).toBe(200);
    expect(all.text.indexOf('Lunch on Friday?')).toBeLessThan(all.text.indexOf('Quarterly report'));
    expect(all.text).toContain(`data-live="/mail/events?inbox=${enc(FRIEND)}"`);

    const search = await page(`/mail/inboxes/${enc(FRIEND)}?q=noon`);
    expect(search.text).toContain('Lunch on Friday?');
    expect(search.text).not.toContain('Quarterly report');

    const unread = await page(`/mail/inboxes/${enc(FRIEND)}?label=unread`);
    expect(unread.text).toContain('Lunch on Friday?');
    expect(unread.text).not.toContain('Quarterly report');
    const read = await page(`/mail/inboxes/${enc(FRIEND)}?label=read`);
    expect(read.text).toContain('Quarterly report');
    expect(read.text).not.toContain('Lunch on Friday?');

    const both = await page(`/mail/inboxes/${enc(FRIEND)}?q=report&label=unread`);
    expect(both.text).toContain('No message matches.');
  });

  it('pages through a long inbox with the API page tokens instead of loading everything', async () => {
    for (let i = 0; i < 52; i++)
      await mailApi('POST', `/v0/inboxes/${enc('crowd@mail.localhost')}/messages`, {
        to: BOT,
        subject: `Filler ${i}`,
        text: 'x',
      });
    const first = await page(`/mail/inboxes/${enc(BOT)}?label=received`);
    expect(first.text.match(/class="subject"/g)!.length).toBe(50);
    const next = /href="([^"]*page=[^"]+)" rel="next"|rel="next" href="([^"]+)"/.exec(first.text)!;
    const second = await page((next[1] ?? next[2]).replace(/&amp;/g, '&'));
    expect(second.status).toBe(200);
    // 52 fillers and the friend's reply, newest first: three are left for the second page.
    expect(second.text.match(/class="subject"/g)!.length).toBe(3);
    expect(second.text).toContain('Filler 0');
    expect(second.text).toContain('← Newest');
  });

  it('shows the HTML body in a sandboxed iframe with no script allowed and remote loads blocked', async () => {
    const { status, text, headers } = await page(`/mail/inboxes/${enc(FRIEND)}/messages/${enc(htmlMessage)}`);
    expect(status).toBe(200);
    const iframe = /<iframe[^>]*>/.exec(text)![0];
    const sandbox = /\ssandbox="([^"]*)"/.exec(iframe)![1];
    expect(sandbox).not.toMatch(/allow-scripts|allow-same-origin/);
    expect(iframe).toMatch(/srcdoc="[^"]*&lt;h1&gt;Report&lt;\/h1&gt;/);
    // The mail's script is text inside the attribute, never markup of the page.
    expect(text).not.toContain('<script>window.parent.__xss');
    expect(iframe).toContain('default-src &#39;none&#39;');
    expect(headers.get('content-security-policy')).toMatch(/img-src 'self' data:/);
    expect(text).toContain('numbers.csv');
    expect(text).toMatch(/From<\/dt><dd>[^<]*bot@mail\.localhost/);
  });

  it('shows the text when a message has no HTML', async () => {
    const { text } = await page(`/mail/inboxes/${enc(FRIEND)}/messages/${enc(plainMessage)}`);
    expect(text).not.toContain('<iframe');
    expect(text).toContain('<pre class="mail-text">Shall we meet at noon?');
  });

  it('shows the raw source and serves it as a .eml download', async () => {
    const src = await page(`/mail/inboxes/${enc(FRIEND)}/messages/${enc(htmlMessage)}/raw`);
    expect(src.status).toBe(200);
    expect(src.text).toMatch(/Subject: Quarterly report/);
    expect(src.text).toMatch(/Content-Type: multipart\/mixed/i);
    const eml = await fetch(`${base}/mail/inboxes/${enc(FRIEND)}/messages/${enc(htmlMessage)}/raw.eml`, {
      headers: { cookie },
    });
    expect(eml.status).toBe(200);
    expect(eml.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(await eml.text()).toMatch(/Subject: Quarterly report/);
  });

  it('downloads an attachment through the console, always as a file', async () => {
    const res = await fetch(`${base}/mail/inboxes/${enc(FRIEND)}/messages/${enc(htmlMessage)}/attachments/att_1`, {
      headers: { cookie },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;.*numbers\.csv/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toMatch(/sandbox/);
    expect(await res.text()).toBe('a,b\n1,2\n');
    const missing = await fetch(`${base}/mail/inboxes/${enc(FRIEND)}/messages/${enc(htmlMessage)}/attachments/att_9`, {
      headers: { cookie },
    });
    expect(missing.status).toBe(404);
  });

  it('lists threads and shows a thread with its messages in order', async () => {
    const list = await page(`/mail/inboxes/${enc(FRIEND)}/threads`);
    expect(list.text).toContain(`href="/mail/inboxes/${enc(FRIEND)}/threads/${enc(threadId)}"`);
    const thread = await page(`/mail/inboxes/${enc(FRIEND)}/threads/${enc(threadId)}`);
    expect(thread.status).toBe(200);
    expect(thread.text).toContain('2 messages');
    expect(thread.text.indexOf('Shall we meet at noon?')).toBeLessThan(thread.text.indexOf('Noon suits me.'));
  });

  it('shows mail held for other domains in the outbox', async () => {
    const list = await page('/mail/outbox');
    expect(list.text).toContain('Leaving the building');
    const link = /href="(\/mail\/outbox\/[^"]+)"/.exec(list.text)![1];
    const held = await page(link);
    expect(held.status).toBe(200);
    expect(held.text).toContain('someone@example.com');
    expect(held.text).toContain('Held for want of a relay.');
  });

  it("shows Hamlet's own held mail, before any mail key exists and once agents have theirs", async () => {
    const fresh = await startTestHamlet({ services: ['mail', 'blog'], env: { HAMLET_CONSOLE: 'on' } });
    try {
      const key = (await fresh.hamlet.platform.keys.create('admin')).key;
      const register = await fetch(`${fresh.url('blog')}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ada@example.org', name: 'Ada', slug: 'ada' }),
      });
      expect(register.status).toBe(200);
      const outbox = () =>
        fetch(`${fresh.hamlet.console!.urls.web}/mail/outbox`, { headers: { authorization: `Bearer ${key}` } }).then(
          (r) => r.text(),
        );
      const text = await waitFor(
        async () => ((await outbox()).includes('ada@example.org') ? await outbox() : undefined),
        { message: "the blog's verification mail in the console's outbox" },
      );
      expect(text).toContain('Hamlet&#39;s own mail');
      // Agents' keys do not see the platform's mail (issue 27); the console's own key still does.
      await fresh.hamlet.platform.keys.create('mail', { name: 'an agent' });
      const again = await outbox();
      expect(again).toContain('ada@example.org');
      const link = /href="(\/mail\/outbox\/console\/[^"]+)"/.exec(again)![1];
      const held = await fetch(`${fresh.hamlet.console!.urls.web}${link}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(held.status).toBe(200);
      expect(await held.text()).toMatch(/\/api\/verify\?token=[0-9a-f-]{36}/);
    } finally {
      await fresh.destroy();
    }
  });

  it('never mints a key for an organization made up in a URL', async () => {
    const before = (await t.hamlet.platform.keys.list('mail')).length;
    expect((await page('/mail/outbox/made-up-org/x')).status).toBe(404);
    expect((await t.hamlet.platform.keys.list('mail')).length).toBe(before);
  });

  it('answers 404 pages for an unknown inbox or message', async () => {
    expect((await page('/mail/inboxes/nobody%40mail.localhost')).status).toBe(404);
    expect((await page(`/mail/inboxes/${enc(FRIEND)}/messages/${enc('<nope@mail.localhost>')}`)).status).toBe(404);
  });

  it('announces a new message on the event stream of its inbox, and not on another', async () => {
    const stream = await readEventStream(`${base}/mail/events?inbox=${enc(FRIEND)}`, cookie);
    await stream.until(': connected');
    await mailApi('POST', `/v0/inboxes/${enc(FRIEND)}/messages`, { to: BOT, subject: 'Not for the friend', text: 'x' });
    await mailApi('POST', `/v0/inboxes/${enc(BOT)}/messages`, {
      to: FRIEND,
      subject: 'Fresh news',
      text: 'Just arrived.',
    });
    await stream.until('Fresh news');
    const event = JSON.parse(/data: (.*)\n/.exec(stream.text)![1]) as Record<string, unknown>;
    expect(event).toMatchObject({ inbox_id: FRIEND, subject: 'Fresh news' });
    expect(event.from).toContain(BOT);
    expect(stream.text).not.toContain('Not for the friend');
    // Mail from outside, over SMTP, is announced the same way.
    const smtp = new URL(t.url('mail', 'smtp'));
    await nodemailer
      .createTransport({ host: smtp.hostname, port: Number(smtp.port), secure: false, ignoreTLS: true })
      .sendMail({ from: 'stranger@outside.test', to: FRIEND, subject: 'Over SMTP', text: 'Hello from outside.' });
    await stream.until('Over SMTP');
    expect(stream.text).toContain('stranger@outside.test');
    stream.close();
  });
});
