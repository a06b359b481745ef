// The console's live streams (server-sent events) under the same budget as every WebSocket of
// the process (issue 27, finding 8): subscribers that never read are cut once the bytes queued
// for them pass the shared memory budget, a reader that keeps up keeps its stream, and an
// address past its share of open streams is refused with 429.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import { waitFor } from '../helpers/wait.js';

let t: TestHamlet;
let base: string;
let admin: Record<string, string>;
let homeAuth: Record<string, string>;

const IDLE = 8;

beforeAll(async () => {
  // The smallest budget the setting allows (1 MiB), and room for IDLE + 2 streams per address.
  t = await startTestHamlet({
    services: ['home'],
    env: {
      HAMLET_CONSOLE: 'on',
      HAMLET_RATE_LIMITS: 'off',
      HAMLET_WS_MEMORY_BUDGET: String(1024 * 1024),
      HAMLET_WS_MAX_PER_ADDRESS: String(IDLE + 2),
    },
  });
  base = t.hamlet.console!.urls.web!;
  admin = { authorization: `Bearer ${(await t.hamlet.platform.keys.create('admin')).key}` };
  homeAuth = {
    authorization: `Bearer ${(await t.hamlet.platform.keys.create('home')).key}`,
    'content-type': 'application/json',
  };
}, 120_000);
afterAll(async () => t?.destroy());

/** Opens a stream and never reads it: what is sent piles up in the kernel, then in the server. */
function idleSubscriber(path: string): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = http.get(base + path, { headers: admin, agent: false }, (res) => {
      res.pause();
      resolve(res);
    });
    req.on('error', reject);
  });
}

/** Opens a stream and reads everything as it comes, as a browser does. */
function readingSubscriber(path: string): Promise<{ text(): string; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = http.get(base + path, { headers: admin, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      resolve({ text: () => text, close: () => res.destroy() });
    });
    req.on('error', reject);
  });
}

/** Resumes reading a stream and resolves once it ends (the server cut it); never resolves while it stays open. */
const ended = (res: http.IncomingMessage) =>
  new Promise<void>((resolve) => {
    res.on('error', () => resolve());
    res.on('aborted', () => resolve());
    res.on('close', () => resolve());
    res.resume();
  });

const toggle = (entity: string) =>
  fetch(`${t.url('home')}/api/services/light/toggle`, {
    method: 'POST',
    headers: homeAuth,
    body: JSON.stringify({ entity_id: entity }),
  }).then((r) => r.text());
/** A state change whose card is large (its name is 8,000 characters), so queues fill in few changes. */
let big = 0;
const bigChange = () =>
  fetch(`${t.url('home')}/api/states/sensor.big_card`, {
    method: 'POST',
    headers: homeAuth,
    body: JSON.stringify({ state: String(big++), attributes: { friendly_name: 'x'.repeat(8000) } }),
  }).then((r) => r.text());

describe('console event streams under the shared budget', () => {
  it('cuts /home/events subscribers that never read once they pass the budget, keeps the one that reads', async () => {
    const reader = await readingSubscriber('/home/events');
    const idle: http.IncomingMessage[] = [];
    for (let i = 0; i < IDLE; i++) idle.push(await idleSubscriber('/home/events'));
    for (const res of idle) expect(res.statusCode).toBe(200);

    const budget = t.hamlet.platform.websockets;
    const cutsBefore = budget.cuts;
    // Changes until the budget has cut half the idle subscribers (each change queues one card per
    // stream, here of 8 KB; how much the kernel takes first varies, so the last ones may still be
    // filling it).
    await waitFor(
      async () => {
        await Promise.all([bigChange(), bigChange(), bigChange(), bigChange()]);
        return budget.cuts - cutsBefore >= IDLE / 2;
      },
      {
        timeoutMs: 60_000,
        intervalMs: 0,
        message: () =>
          `${IDLE / 2} idle subscribers cut (cut so far: ${budget.cuts - cutsBefore}, queued ${budget.queuedBytes()} bytes)`,
      },
    );
    expect(budget.queuedBytes()).toBeLessThanOrEqual(1024 * 1024);
    // The server closed those streams: read again, each one cut reaches its end.
    let endedCount = 0;
    for (const res of idle) void ended(res).then(() => endedCount++);
    await waitFor(() => endedCount >= budget.cuts - cutsBefore, {
      message: () => `${budget.cuts - cutsBefore} streams ended (ended: ${endedCount})`,
    });
    for (const res of idle) res.destroy();

    // The reader kept up and still gets the next change.
    const marker = reader.text().length;
    await toggle('light.kitchen');
    await waitFor(() => reader.text().slice(marker).includes('event: state'));
    reader.close();
  }, 90_000);

  it('refuses an address past its share of open streams with 429, on every console stream', async () => {
    const held: http.IncomingMessage[] = [];
    try {
      for (let i = 0; i < IDLE + 2; i++) {
        const res = await idleSubscriber(['/home/events', '/activity/stream', '/mail/events', '/social/stream'][i % 4]);
        held.push(res);
      }
      const refused = await fetch(`${base}/activity/stream`, { headers: admin });
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({
        code: 'rate_limited',
        message: expect.stringMatching(/streams from your address \(at most 10\)/),
      });
    } finally {
      for (const res of held) res.destroy();
    }
    // The slots come back as the streams close.
    await waitFor(async () => {
      const res = await fetch(`${base}/activity/stream`, { headers: admin, signal: AbortSignal.timeout(2000) });
      const ok = res.status === 200;
      await res.body?.cancel();
      return ok;
    });
  });
});
