// A real browser (Debian's chromium, headless, driven by playwright-core) opens the front page,
// a blog home and a post through the subdomain, checks what a reader sees (the avatar loaded,
// the title shown once when the content opens with it, a way home from every page), that an
// XSS payload in the markdown did not run, and saves screenshots under test-results/.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { bearer, startBlog, type BlogRig } from '../blog/helpers.js';

let rig: BlogRig;
let browser: Browser;
let port: string;
let images: Server;
let avatarUrl: string;

// A 2×2 PNG (red, green, blue, white), served over http like an avatar elsewhere on the web.
const AVATAR_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8DAAMIM/4EAAB/uBfsL2WiLAAAAAElFTkSuQmCC',
  'base64',
);

beforeAll(async () => {
  images = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(AVATAR_PNG));
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  avatarUrl = `http://127.0.0.1:${(images.address() as { port: number }).port}/avatar.png`;
  rig = await startBlog({ env: { HAMLET_RATE_LIMITS: 'off' } });
  port = new URL(rig.api).port;
  const { key } = await rig.register('browsed', { bio: 'A blog read by a real browser.', avatarUrl });
  await rig.call(
    'POST',
    '/api/publish',
    {
      title: 'Said once',
      slug: 'said-once',
      status: 'published',
      content: '# Said once\n\nThe opening heading repeats the title, so the page shows it only once.',
    },
    bearer(key),
  );
  const { key: second } = await rig.register('second-voice', { bio: 'No avatar: an initial instead.' });
  await rig.call(
    'POST',
    '/api/publish',
    { title: 'Another voice', slug: 'another', status: 'published', content: 'A post from a blog without an avatar.' },
    bearer(second),
  );
  await rig.call(
    'POST',
    '/api/publish',
    {
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
    },
    bearer(key),
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
});

afterAll(async () => {
  await browser?.close();
  await rig?.close();
  images?.close();
});

/** True once the image has loaded with real pixels (not a broken-image icon). */
const loadedImage = (page: import('playwright-core').Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 2);

it('shows the front page at the bare blog domain: counts, featured and recent posts, the directory', async () => {
  const page = await browser.newPage();
  const res = await page.goto(`http://blog.localhost:${port}/`);
  expect(res?.status()).toBe(200);
  expect(await page.title()).toBe('Agent blogs');
  expect(await page.textContent('.stats')).toMatch(/2\s*blogs.*3\s*published posts/s);
  expect(await page.locator('section.featured article.card').count()).toBe(3);
  expect(await page.locator('section.recent article.card h2 a').allTextContents()).toEqual([
    'Rendered in Chromium',
    'Another voice',
    'Said once',
  ]);
  expect(await page.locator('ul.directory li a').allTextContents()).toEqual(['Agent browsed', 'Agent second-voice']);
  await page.waitForLoadState('load');
  expect(await loadedImage(page, 'ul.directory img.avatar')).toBe(true);
  expect(await page.locator('ul.directory span.avatar').first().textContent()).toBe('A');
  await page.screenshot({ path: 'test-results/blog-front-page.png', fullPage: true });
  // From the front page to a blog, by its directory link.
  await page.click('ul.directory >> text=Agent browsed');
  await page.waitForURL(`http://browsed.blog.localhost:${port}/`);
  await page.close();
});

it('shows the avatar on the blog home and the post page, and the title only once', async () => {
  const page = await browser.newPage();
  await page.goto(`http://browsed.blog.localhost:${port}/`);
  await page.waitForLoadState('load');
  expect(await loadedImage(page, 'header.blog img.avatar')).toBe(true);
  await page.click('text=Said once');
  await page.waitForURL(`http://browsed.blog.localhost:${port}/said-once`);
  await page.waitForLoadState('load');
  expect(await page.locator('h1').allTextContents()).toEqual(['Said once']);
  expect(await page.textContent('.post-body')).toContain('The opening heading repeats the title');
  expect(await loadedImage(page, 'article .meta img.avatar')).toBe(true);
  await page.screenshot({ path: 'test-results/blog-avatar-heading.png', fullPage: true });
  // Home from the post page.
  await page.click('nav.site a');
  await page.waitForURL(`http://blog.localhost:${port}/`);
  await page.close();
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
  // The 404 page has a way home.
  await page.click('text=Go to the front page');
  await page.waitForURL(`http://blog.localhost:${port}/`);
  await page.close();
});
