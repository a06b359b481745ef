// The console's mail and social screens in Chromium: a person logs in with an admin key on the
// login page, reads a mail an agent sent through the mail API (its HTML in a sandboxed frame
// where the mail's script does not run), watches a new mail arrive without reloading, and
// finds the blog's verification mail in the outbox. Screenshots of every mail and social screen,
// desktop and phone, light and one dark, go to test-results/.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import { waitFor } from '../helpers/wait.js';

let t: TestHamlet;
let browser: Browser;
let base: string;
let adminKey: string;
let mailKey: string;
let operatorKey: string;
let reportId: string;
let threadId: string;

const BOT = 'bot@mail.localhost';
const FRIEND = 'friend@mail.localhost';
const enc = encodeURIComponent;

async function call(
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Record<string, any>> {
  const res = await fetch(url, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, any>;
}
const mail = (method: string, path: string, body?: unknown) =>
  call(t.url('mail') + path, method, body, { authorization: `Bearer ${mailKey}` });
const operatorMail = (method: string, path: string) =>
  call(t.url('mail') + path, method, undefined, { authorization: `Bearer ${operatorKey}` });

beforeAll(async () => {
  t = await startTestHamlet({
    services: ['mail', 'blog', 'community'],
    env: { HAMLET_CONSOLE: 'on', HAMLET_RATE_LIMITS: 'off' },
  });
  base = t.hamlet.console!.urls.web!;
  adminKey = (await t.hamlet.platform.keys.create('admin')).key;
  mailKey = (await t.hamlet.platform.keys.create('mail', { name: 'research-agent' })).key;
  operatorKey = (await t.hamlet.platform.keys.create('mail', { name: 'hamlet-console' })).key;
  await mail('POST', '/v0/inboxes', { username: 'bot', display_name: 'Research bot' });
  await mail('POST', '/v0/inboxes', { username: 'friend', display_name: 'A friend' });
  const report = await mail('POST', `/v0/inboxes/${enc(BOT)}/messages`, {
    to: FRIEND,
    subject: 'Quarterly report',
    text: 'Revenue went up.',
    html: '<h1 style="color:#2a7">Quarterly report</h1><p>Revenue went <b>up</b>.</p><script>window.top.__xss = "script"</script><img src="x" onerror="window.top.__xss = \'img\'">',
    attachments: [
      {
        filename: 'numbers.csv',
        content_type: 'text/csv',
        content: Buffer.from('quarter,revenue\nQ3,12\n').toString('base64'),
      },
    ],
  });
  reportId = report.message_id;
  threadId = report.thread_id;
  await mail('POST', `/v0/inboxes/${enc(BOT)}/messages`, {
    to: FRIEND,
    subject: 'Lunch on Friday?',
    text: 'Noon at the usual place?',
  });
  const lunch = (await mail('GET', `/v0/inboxes/${enc(FRIEND)}/messages?subject=Lunch`)).messages[0];
  await mail('POST', `/v0/inboxes/${enc(FRIEND)}/messages/${enc(lunch.message_id)}/reply`, { text: 'Noon suits me.' });
  threadId = lunch.thread_id;

  // A blog: its verification mail has no relay to go to, so it waits in the outbox, where the
  // operator reads it (an agent's key does not see the platform's own mail).
  await call(`${t.url('blog')}/api/register`, 'POST', {
    email: 'quill@example.org',
    name: 'Agent Quill',
    slug: 'quill',
  });
  const held = await waitFor(
    async () =>
      (await operatorMail('GET', '/v0/outbox')).messages.find((m: { to: string[] }) =>
        m.to.includes('quill@example.org'),
      ),
    {
      message: "the blog's verification mail in the outbox",
    },
  );
  const token = /token=([0-9a-f-]{36})/.exec(held.text)![1];
  const { apiKey } = await call(`${t.url('blog')}/api/verify?token=${token}`, 'GET', undefined, {
    accept: 'application/json',
  });
  await call(
    `${t.url('blog')}/api/publish`,
    'POST',
    { title: 'Notes from the garden', content: 'Tomatoes again.', status: 'published' },
    { authorization: `Bearer ${apiKey}` },
  );
  const community = `${t.url('community')}/api/v1`;
  const { agent } = await call(`${community}/agents/register`, 'POST', {
    name: 'moth_bot',
    description: 'I like lamps',
  });
  await call(
    `${community}/posts`,
    'POST',
    { title: 'The brightest lamp', content: 'Found it.', submolt: 'general' },
    { authorization: `Bearer ${agent.api_key}` },
  );

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-quic',
      '--disable-sync',
    ],
  });
  mkdirSync('test-results', { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.destroy();
});

/** A logged-in page: through the login form, as a person does it. */
async function loggedIn(viewport = { width: 1280, height: 800 }): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/mail`);
  await page.waitForURL(/\/login\?next=/);
  await page.getByLabel('Admin key').fill(adminKey);
  await page.keyboard.press('Enter');
  await page.waitForURL(`${base}/mail`);
  return { page, errors };
}

describe('console mail in Chromium', () => {
  it('logs in and reads a mail sent through the API, its HTML sandboxed', async () => {
    const { page, errors } = await loggedIn();
    expect(await page.textContent('h1')).toBe('Mail');
    await page.click(`a[href="/mail/inboxes/${enc(FRIEND)}"]`);
    await page.getByRole('link', { name: 'Quarterly report' }).click();
    await page.waitForURL(/\/messages\//);
    expect(await page.textContent('h1')).toBe('Quarterly report');
    const frame = page.frameLocator('iframe.mail-html');
    await expect.poll(() => frame.locator('h1').textContent()).toBe('Quarterly report');
    expect(await frame.locator('p').textContent()).toBe('Revenue went up.');
    // Neither the script nor the onerror handler ran, in the frame or in the console.
    expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
    expect(await page.getAttribute('iframe.mail-html', 'sandbox')).not.toMatch(/allow-scripts/);
    expect(await page.getByRole('link', { name: 'numbers.csv' }).getAttribute('download')).not.toBeNull();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'numbers.csv' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('numbers.csv');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows a new mail arriving without a reload', async () => {
    const { page, errors } = await loggedIn();
    await page.goto(`${base}/mail/inboxes/${enc(FRIEND)}`);
    await page.waitForSelector('[data-live-state="open"]');
    await page.evaluate(() => ((window as unknown as { __stayed: boolean }).__stayed = true));
    await mail('POST', `/v0/inboxes/${enc(BOT)}/messages`, {
      to: FRIEND,
      subject: 'Arrived while you watched',
      text: 'Hello, live.',
    });
    await page.getByRole('link', { name: 'Arrived while you watched' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __stayed?: boolean }).__stayed)).toBe(true);
    expect((await page.locator('#messages .subject').allTextContents())[0]).toBe('Arrived while you watched');
    await page.screenshot({ path: 'test-results/console-mail-live-desktop.png', fullPage: true });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('filters by search and label with labelled, keyboard-reachable controls', async () => {
    const { page } = await loggedIn();
    await page.goto(`${base}/mail/inboxes/${enc(FRIEND)}`);
    await page.getByLabel('Search').fill('lunch');
    await page.getByLabel('Search').press('Enter');
    await page.waitForURL(/q=lunch/);
    expect(await page.locator('#messages .subject').allTextContents()).toEqual([
      'Re: Lunch on Friday?',
      'Lunch on Friday?',
    ]);
    await page.getByLabel('Label').selectOption('unread');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/label=unread/);
    // The friend's own reply is sent, not unread.
    expect(await page.locator('#messages .subject').allTextContents()).toEqual(['Lunch on Friday?']);
    // The first Tab reaches the skip link, which moves focus to the content.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.context().close();
  });

  it('follows prefers-color-scheme: dark', async () => {
    const { page } = await loggedIn();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${base}/mail/inboxes/${enc(FRIEND)}`);
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).toBe('rgb(20, 21, 24)');
    await page.screenshot({ path: 'test-results/console-mail-inbox-dark.png', fullPage: true });
    await page.context().close();
  });

  it('screenshots every mail and social screen on a desktop and a phone', async () => {
    // The blog's verification mail, shown under the console's own reader (organization "console").
    const held = (await operatorMail('GET', '/v0/outbox')).messages[0];
    const org = 'console';
    const screens: Array<[string, string]> = [
      ['mail', '/mail'],
      ['inbox', `/mail/inboxes/${enc(FRIEND)}`],
      ['inbox-search', `/mail/inboxes/${enc(FRIEND)}?q=report`],
      ['threads', `/mail/inboxes/${enc(FRIEND)}/threads`],
      ['thread', `/mail/inboxes/${enc(FRIEND)}/threads/${enc(threadId)}`],
      ['message', `/mail/inboxes/${enc(FRIEND)}/messages/${enc(reportId)}`],
      ['raw', `/mail/inboxes/${enc(FRIEND)}/messages/${enc(reportId)}/raw`],
      ['outbox', '/mail/outbox'],
      ['outbox-message', `/mail/outbox/${enc(org)}/${enc(held.outbox_id)}`],
      ['social', '/social'],
    ];
    for (const [size, viewport] of [
      ['desktop', { width: 1280, height: 800 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      const { page, errors } = await loggedIn(viewport);
      for (const [name, path] of screens) {
        const res = await page.goto(base + path);
        expect(res?.status(), path).toBe(200);
        // Nothing runs off the side of a phone's screen.
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1),
          `${path} fits ${size}`,
        ).toBe(true);
        await page.screenshot({ path: `test-results/console-${name}-${size}.png`, fullPage: true });
      }
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });
});
