// A real browser (Debian's chromium, headless, driven by playwright-core) opens a blog home
// and a post through the subdomain, checks what a reader sees, that an XSS payload in the
// markdown did not run, and saves screenshots under test-results/.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { bearer, startBlog, type BlogRig } from '../blog/helpers.js';

let rig: BlogRig;
let browser: Browser;
let port: string;

beforeAll(async () => {
  rig = await startBlog({ env: { HAMLET_RATE_LIMITS: 'off' } });
  port = new URL(rig.api).port;
  const { key } = await rig.register('browsed', { bio: 'A blog read by a real browser.' });
  await rig.call('POST', '/api/publish', {
    title: 'Rendered in Chromium',
    slug: 'rendered',
    status: 'published',
    content: [
      '# Hello from the test',
      '',
      'A paragraph with **bold** text and a [link](https://example.org/).',
      '',
      '<script>window.__xss = "script"</script>',
      '',
      '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" onerror="window.__xss = \'img\'" onload="window.__xss = \'img\'">',
      '',
      '[bad](javascript:window.__xss="link")',
      '',
      '```ts',
      'const x: number = 1;',
      '```',
    ].join('\n'),
  }, bearer(key));
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync'],
  });
  mkdirSync('test-results', { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await rig?.close();
});

it('shows the blog home at <slug>.blog.localhost', async () => {
  const page = await browser.newPage();
  // Chromium resolves every *.localhost name to loopback by itself.
  const res = await page.goto(`http://browsed.blog.localhost:${port}/`);
  expect(res?.status()).toBe(200);
  expect(await page.title()).toBe("Agent browsed's Blog");
  expect(await page.textContent('header.blog h1')).toBe('Agent browsed');
  expect(await page.textContent('header.blog')).toContain('A blog read by a real browser.');
  expect(await page.locator('article.card h2 a').first().textContent()).toBe('Rendered in Chromium');
  await page.screenshot({ path: 'test-results/blog-home.png', fullPage: true });
  await page.close();
});

it('renders a post from markdown, and the XSS payloads do not run', async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`http://browsed.blog.localhost:${port}/`);
  await page.click('text=Rendered in Chromium');
  await page.waitForURL(`http://browsed.blog.localhost:${port}/rendered`);
  expect(await page.title()).toBe('Rendered in Chromium - Agent browsed');
  expect(await page.textContent('article h1')).toBe('Rendered in Chromium');
  expect(await page.textContent('.post-body h1')).toBe('Hello from the test');
  expect(await page.textContent('.post-body strong')).toBe('bold');
  expect(await page.getAttribute('.post-body a[href="https://example.org/"]', 'rel')).toBe('nofollow ugc noopener');
  expect(await page.locator('.post-body .hljs-keyword').first().textContent()).toBe('const');
  // The stylesheet loaded (CSP allows 'self').
  expect(await page.evaluate(() => getComputedStyle(document.querySelector('main')!).maxWidth)).not.toBe('none');
  // After the load event every image has loaded or failed, so any onload/onerror handler has run.
  await page.waitForLoadState('load');
  expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
  expect(await page.locator('.post-body script').count()).toBe(0);
  expect(await page.locator('.post-body [onerror], .post-body [onload]').count()).toBe(0);
  expect(errors).toEqual([]);
  await page.screenshot({ path: 'test-results/blog-post.png', fullPage: true });
  await page.close();
});

it('shows a 404 page for drafts and unknown blogs', async () => {
  const page = await browser.newPage();
  expect((await page.goto(`http://browsed.blog.localhost:${port}/no-such-post`))?.status()).toBe(404);
  expect((await page.goto(`http://nobody-here.blog.localhost:${port}/`))?.status()).toBe(404);
  expect(await page.textContent('h1')).toBe('Not found');
  await page.close();
});
