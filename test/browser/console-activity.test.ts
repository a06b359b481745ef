// A real browser logs in to the console with an admin key and follows the activity feed while an
// agent works through the APIs: a mail arrives, a post is published, a light is turned on, a
// workflow execution finishes. Each appears on the open page without a reload (server-sent
// events, then htmx). Screenshots for desktop and phone go to test-results/.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startAgentRig, type AgentRig } from '../console/agent-rig.js';

let rig: AgentRig;
let browser: Browser;
let base: string;
let adminKey: string;

beforeAll(async () => {
  rig = await startAgentRig({ HAMLET_CONSOLE: 'on' });
  base = rig.t.hamlet.console!.urls.web!;
  adminKey = (await rig.t.hamlet.platform.keys.create('admin', { name: 'browser' })).key;
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
  await rig?.t.destroy();
});

async function logIn(page: Page): Promise<void> {
  await page.goto(`${base}/activity`);
  expect(page.url()).toContain('/login?next=%2Factivity');
  await page.getByLabel('Admin key').fill(adminKey);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${base}/activity`);
}

/** Waits until the feed on the open page shows a line with this text (no reload). */
const seeLive = (page: Page, text: string) =>
  page.locator('#feed .activity-item', { hasText: text }).first().waitFor({ timeout: 20_000 });

it('follows the activity feed live while an agent works', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await logIn(page);
  await expect(page.getByRole('heading', { name: 'Activity' }).isVisible()).resolves.toBe(true);
  // Nothing was reloaded: a marker set on the window survives all the updates below.
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

  await rig.sendMail('Browser lunch');
  await seeLive(page, 'Browser lunch');
  await rig.publishPost('Seen in a browser');
  await seeLive(page, 'published "Seen in a browser"');
  await rig.turnOnLight('light.kitchen');
  await seeLive(page, 'Kitchen turned on');
  await rig.runWorkflow('Browser workflow');
  await seeLive(page, 'of "Browser workflow" finished: success');

  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  const shown = await page.locator('#feed .activity-item').allTextContents();
  const at = (text: string) => shown.findIndex((l) => l.includes(text));
  expect(at('Browser workflow')).toBeLessThan(at('Kitchen turned on')); // newest first
  expect(at('Kitchen turned on')).toBeLessThan(at('Browser lunch'));
  await page.screenshot({ path: 'test-results/console-activity-desktop.png', fullPage: true });

  // Filtered to one service and kind with the form, then still live.
  await page.getByLabel('Service', { exact: true }).selectOption('home');
  await page.getByLabel('What', { exact: true }).selectOption('event');
  await page.getByRole('button', { name: 'Show' }).click();
  await page.waitForURL(/service=home/);
  expect(await page.locator('#feed .activity-item').allTextContents()).toEqual([
    expect.stringContaining('Kitchen turned on'),
  ]);
  await rig.turnOnLight('light.hall');
  await seeLive(page, 'Hall turned on');
  await page.close();

  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await logIn(phone);
  await seeLive(phone, 'Browser lunch');
  const overflow = await phone.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await phone.screenshot({ path: 'test-results/console-activity-phone.png', fullPage: true });
  await phone.close();
}, 120_000);
