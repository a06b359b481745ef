// A real browser (Debian's chromium, headless, driven by playwright-core) reads the community
// pages as a person would: switches sort tabs, follows an author to the profile, searches from
// the header, reads a post with code and a table in dark mode and on a phone-sized screen.
// Screenshots go to test-results/.
import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommunity, type Community } from '../community/helpers.js';

let c: Community;
let browser: Browser;
let styledId: string;

beforeAll(async () => {
  c = await startCommunity();
  const ada = await c.register('ada');
  const bob = await c.register('bob');
  const lab = await c.createCommunity(ada.key, 'lab');
  const liked = await c.createPost(ada.key, lab.id, 'An older post everyone liked');
  await c.createPost(bob.key, lab.id, 'The newest post, no votes yet');
  expect((await c.call('POST', `/api/v1/posts/${liked.id}/upvote`, { key: bob.key })).status).toBe(200);
  const styled = await c.createPost(ada.key, lab.id, 'Code, a table and a long line', {
    content: [
      'Some `inline code` and a block:',
      '',
      '```ts',
      'export function add(a: number, b: number): number { return a + b; } // a long line that must scroll, not widen the page',
      '```',
      '',
      '| agent | karma | note |',
      '| --- | ---: | --- |',
      '| ada | 1 | a rather long note in a table cell that should not push the page wider than a phone |',
      '| bob | 0 | short |',
    ].join('\n'),
  });
  styledId = styled.id;
  await c.call('POST', `/api/v1/posts/${styledId}/comments`, {
    key: bob.key,
    body: { content: 'Nice **table**, ada.' },
  });
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
  await c?.t.destroy();
});

/** A page that records script errors and console errors (a CSP violation is one). */
async function open(opts: Parameters<Browser['newPage']>[0] = {}): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage(opts);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return { page, errors };
}

const titles = (page: Page) => page.locator('article.post a.title').allTextContents();

describe('community pages in Chromium', () => {
  it('sort tabs change the listing and its heading', async () => {
    const { page, errors } = await open();
    await page.goto(c.base + '/');
    expect(await page.textContent('main h1')).toBe('Hot posts');
    expect(await page.textContent('nav.tabs a[aria-current="page"]')).toBe('Hot');

    await page.click('nav.tabs >> text=New');
    await page.waitForURL(c.base + '/?sort=new');
    expect(await page.textContent('main h1')).toBe('New posts');
    expect(await page.textContent('nav.tabs a[aria-current="page"]')).toBe('New');
    expect((await titles(page))[0]).toBe('Code, a table and a long line');
    await page.screenshot({ path: 'test-results/community-sort-new.png', fullPage: true });

    await page.click('nav.tabs >> text=Top');
    await page.waitForURL(c.base + '/?sort=top');
    expect(await page.textContent('main h1')).toBe('Top posts');
    expect((await titles(page))[0]).toBe('An older post everyone liked');
    // The marked tab stands out: its background is the accent colour, the others' is not.
    const backgrounds = await page.$$eval('nav.tabs a', (links) =>
      links.map((a) => getComputedStyle(a).backgroundColor),
    );
    expect(new Set(backgrounds).size).toBe(2);

    await page.click('nav.tabs >> text=Rising');
    expect(await page.textContent('main h1')).toBe('Rising posts');
    await page.screenshot({ path: 'test-results/community-sort-top.png', fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('an author name leads to the profile with karma, posts and comments', async () => {
    const { page, errors } = await open();
    await page.goto(c.base + '/?sort=top');
    await page.locator('article.post a.author', { hasText: 'ada' }).first().click();
    await page.waitForURL(c.base + '/u/ada');
    expect(await page.textContent('main h1')).toBe('ada');
    expect(await page.textContent('.stats')).toContain('1 karma');
    expect(await page.locator('section.posts article.post a.title').allTextContents()).toEqual([
      'Code, a table and a long line',
      'An older post everyone liked',
    ]);
    expect(await page.getAttribute('meta[property="og:type"]', 'content')).toBe('profile');

    await page.screenshot({ path: 'test-results/community-profile.png', fullPage: true });

    await page.goto(c.base + '/u/bob');
    expect(await page.textContent('section.recent-comments')).toContain('Nice table, ada.');
    await page.click('section.recent-comments >> text=Code, a table and a long line');
    await page.waitForURL(new RegExp(`/post/${styledId}#c-`));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the header search finds agents, communities and posts', async () => {
    const { page, errors } = await open();
    await page.goto(c.base + '/m');
    expect(await page.locator('article.card a.title').allTextContents()).toContain('LAB');
    await page.fill('header.site input[name=q]', 'ada');
    await page.press('header.site input[name=q]', 'Enter');
    await page.waitForURL(c.base + '/search?q=ada');
    expect(await page.textContent('main h1')).toBe('Results for “ada”');
    expect(await page.locator('section.agents a.title').allTextContents()).toEqual(['ada']);
    // The table in the styled post mentions ada, and so does bob's comment.
    expect(await page.locator('section.posts a.title').allTextContents()).toEqual(['Code, a table and a long line']);
    expect(await page.textContent('section.comments')).toContain('Nice table, ada.');
    await page.screenshot({ path: 'test-results/community-search.png', fullPage: true });

    await page.click('nav.tabs >> text=Communities');
    await page.waitForURL(c.base + '/search?q=ada&type=communities');
    expect(await page.textContent('section.communities')).toContain('No communities match.');
    await page.fill('main input[name=q]', 'lab');
    await page.press('main input[name=q]', 'Enter');
    await page.click('section.communities a.title');
    await page.waitForURL(c.base + '/m/lab');
    expect(await page.textContent('main h2')).toBe('Hot posts');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('follows the dark colour scheme without any script, code and tables included', async () => {
    const colours = async (page: Page) =>
      page.evaluate(() => {
        const style = (sel: string) => getComputedStyle(document.querySelector(sel)!);
        return {
          bg: style('body').backgroundColor,
          fg: style('body').color,
          pre: style('.content pre').backgroundColor,
          th: style('.content th').backgroundColor,
          link: style('a.author').color,
        };
      });
    const light = await browser.newContext({ colorScheme: 'light', javaScriptEnabled: false });
    const lp = await light.newPage();
    await lp.goto(`${c.base}/post/${styledId}`);
    expect(await colours(lp)).toMatchObject({
      bg: 'rgb(255, 255, 255)',
      fg: 'rgb(26, 26, 26)',
      pre: 'rgb(246, 248, 250)',
    });

    const dark = await browser.newContext({ colorScheme: 'dark', javaScriptEnabled: false });
    const dp = await dark.newPage();
    await dp.goto(`${c.base}/post/${styledId}`);
    const d = await colours(dp);
    expect(d).toEqual({
      bg: 'rgb(18, 20, 23)',
      fg: 'rgb(227, 227, 227)',
      pre: 'rgb(26, 29, 34)',
      th: 'rgb(30, 34, 39)',
      link: 'rgb(160, 166, 173)',
    });
    // Highlighted code keeps its colours in the dark too.
    expect(await dp.$eval('.content .hljs-keyword', (k) => getComputedStyle(k).color)).toBe('rgb(198, 120, 221)');
    await dp.screenshot({ path: 'test-results/community-post-dark.png', fullPage: true });
    await dp.goto(c.base + '/?sort=new');
    await dp.screenshot({ path: 'test-results/community-front-dark.png', fullPage: true });
    await light.close();
    await dark.close();
  });

  it('fits a phone screen: code and tables scroll inside the page, not the page', async () => {
    const { page, errors } = await open({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
    await page.goto(`${c.base}/post/${styledId}`);
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      view: window.innerWidth,
      pre: document.querySelector('.content pre')!.scrollWidth > document.querySelector('.content pre')!.clientWidth,
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.view);
    expect(widths.pre).toBe(true);
    await page.screenshot({ path: 'test-results/community-post-phone.png', fullPage: true });
    await page.goto(c.base + '/');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: 'test-results/community-front-phone.png', fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });
});
