// A real browser (Debian's chromium through playwright-core) logs in to the console with an
// admin key, toggles a light on the home dashboard and sees the change both through the home's
// REST API and on the card, sees a change made elsewhere arrive live, imports a workflow by
// dropping its file, runs it and reads a node's output in the execution. Screenshots of every
// screen go to test-results/ at desktop (1280×800) and phone (390×844) sizes, light and dark.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

let t: TestHamlet;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let base: string;
let adminKey: string;
let homeHeaders: Record<string, string>;
/** Every screen shot at desktop size, by name, to shoot again at phone size and in dark mode. */
const visited = new Map<string, string>();

const EXPORT = {
  name: 'Browser greeter',
  nodes: [
    { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 100], parameters: {} },
    {
      name: 'Greet',
      type: 'n8n-nodes-base.set',
      typeVersion: 3.4,
      position: [240, 100],
      parameters: {
        assignments: { assignments: [{ id: 'g', name: 'greeting', type: 'string', value: 'dropped and run' }] },
        options: {},
      },
    },
    {
      name: 'Note',
      type: 'n8n-nodes-base.stickyNote',
      typeVersion: 1,
      position: [-20, -120],
      parameters: { content: '## Imported by drag and drop', width: 320, height: 100, color: 4 },
    },
  ],
  connections: { Start: { main: [[{ node: 'Greet', type: 'main', index: 0 }]] } },
  settings: { executionOrder: 'v1' },
};

beforeAll(async () => {
  t = await startTestHamlet({ services: ['home', 'workflow'], env: { HAMLET_CONSOLE: 'on' } });
  base = t.hamlet.console!.urls.web!;
  adminKey = (await t.hamlet.platform.keys.create('admin')).key;
  homeHeaders = {
    authorization: `Bearer ${(await t.hamlet.platform.keys.create('home')).key}`,
    'content-type': 'application/json',
  };
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
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  mkdirSync('test-results', { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.destroy();
});

const homeState = async (id: string) =>
  ((await (await fetch(`${t.url('home')}/api/states/${id}`, { headers: homeHeaders })).json()) as { state: string })
    .state;
const shot = async (name: string) => {
  visited.set(name, page.url().slice(base.length));
  await page.screenshot({ path: `test-results/console-${name}-desktop.png`, fullPage: true });
};

it('logs in on the login page with an admin key', async () => {
  await page.goto(`${base}/home`);
  expect(new URL(page.url()).pathname).toBe('/login');
  await page.screenshot({ path: 'test-results/console-login-desktop.png' });
  await page.getByLabel('Admin key').fill(adminKey);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${base}/home`);
  expect(await page.locator('h1').textContent()).toBe('Home');
});

it('toggles a light on the dashboard: the REST API and the card both show it, and changes made elsewhere arrive live', async () => {
  await expect.poll(() => page.locator('[data-live-status]').textContent()).toMatch(/^Live/);
  const before = await homeState('light.kitchen');
  const card = page.locator('#card-light\\.kitchen');
  const toggle = card.getByRole('button', { name: /^Kitchen: / });
  expect(await toggle.getAttribute('aria-pressed')).toBe(before === 'on' ? 'true' : 'false');
  // By keyboard: the toggle is a real button.
  await toggle.focus();
  await page.keyboard.press('Enter');
  const after = before === 'on' ? 'off' : 'on';
  await expect.poll(() => homeState('light.kitchen')).toBe(after);
  await expect
    .poll(() => card.getByRole('button', { name: /^Kitchen: / }).getAttribute('aria-pressed'))
    .toBe(after === 'on' ? 'true' : 'false');
  // The card was swapped, and the keyboard focus is back on its toggle.
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('light.kitchen-power');

  // A change through the REST API (as an agent would make it) reaches the open page.
  const coffee = page.locator('#card-switch\\.coffee_maker');
  expect(await coffee.locator('.value').textContent()).toBe('off');
  await fetch(`${t.url('home')}/api/services/switch/turn_on`, {
    method: 'POST',
    headers: homeHeaders,
    body: JSON.stringify({ entity_id: 'switch.coffee_maker' }),
  });
  await expect.poll(() => coffee.locator('.value').textContent()).toBe('on');
  expect(await coffee.getByRole('button').getAttribute('aria-pressed')).toBe('true');
  await shot('home');

  await page.goto(`${base}/home/entities/light.kitchen`);
  expect(await page.locator('svg polyline.line').count()).toBe(1);
  await shot('home-entity');
  await page.goto(`${base}/home/automations`);
  await shot('home-automations');
  await page.goto(`${base}/home/logbook`);
  expect(await page.locator('ol.logbook li').count()).toBeGreaterThan(0);
  await shot('home-logbook');
});

it('imports a workflow by drag and drop, runs it and shows a node output in the execution', async () => {
  await page.goto(`${base}/workflows`);
  await shot('workflows-empty');
  // Drop a file on the drop zone, as a person dragging it from their file manager.
  const transfer = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'browser-greeter.json', { type: 'application/json' }));
    return dt;
  }, JSON.stringify(EXPORT));
  await page.dispatchEvent('[data-import]', 'dragover', { dataTransfer: transfer });
  await page.dispatchEvent('[data-import]', 'drop', { dataTransfer: transfer });
  await page.waitForURL(/\/workflows\/[A-Za-z0-9]+$/);
  expect(await page.locator('h1').textContent()).toBe('Browser greeter');
  expect(await page.locator('svg.canvas g.node').count()).toBe(2);
  expect(await page.locator('svg.canvas path.connection').count()).toBe(1);
  expect(await page.locator('svg.canvas g.sticky').count()).toBe(1);
  await shot('workflow-canvas');

  await page.getByRole('button', { name: 'Run now' }).click();
  await page.waitForURL(/\/workflows\/executions\/\d+$/);
  expect(await page.locator('h1 .status').textContent()).toBe('success');
  const greet = page.locator('#node-Greet');
  expect(await greet.locator('table.items td', { hasText: 'dropped and run' }).count()).toBe(1);
  await shot('workflow-execution');

  await page.goto(`${base}/workflows`);
  expect(await page.locator('tbody tr').count()).toBe(1);
  await shot('workflows');
  await page.goto(`${base}/workflows/executions`);
  expect(await page.locator('tbody tr').count()).toBe(1);
  await shot('workflow-executions');
});

it('every screen at phone size and in dark mode, without sideways scrolling of the page', async () => {
  // The front page and the login page too (the login without the session).
  await page.goto(`${base}/`);
  await shot('overview');
  for (const [label, options] of [
    ['phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
    ['dark', { viewport: { width: 1280, height: 800 }, colorScheme: 'dark' as const }],
  ] as const) {
    const anonymous = await browser.newContext(options);
    const login = await anonymous.newPage();
    await login.goto(`${base}/login`);
    await login.screenshot({ path: `test-results/console-login-${label}.png`, fullPage: true });
    await anonymous.close();
  }
  const state = await context.storageState();
  for (const [label, options] of [
    ['phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
    ['dark', { viewport: { width: 1280, height: 800 }, colorScheme: 'dark' as const }],
  ] as const) {
    const ctx = await browser.newContext({ ...options, storageState: state });
    const p = await ctx.newPage();
    for (const [name, path] of visited) {
      await p.goto(base + path);
      await p.screenshot({ path: `test-results/console-${name}-${label}.png`, fullPage: true });
      if (label === 'phone') {
        const overflow = await p.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `${path} scrolls sideways on a phone`).toBeLessThanOrEqual(0);
      }
    }
    await ctx.close();
  }
});
