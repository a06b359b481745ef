// Shared setup for the home tests: a Hamlet with the home service, a token, and small REST helpers.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import type { Clock } from '../../src/platform/clock.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import { withDeadline } from '../helpers/wait.js';

export interface HomeTest {
  t: TestHamlet;
  url: string;
  token: string;
  api(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers; text: string }>;
}

export async function startHome(opts: { env?: Record<string, string>; clock?: Clock } = {}): Promise<HomeTest> {
  const t = await startTestHamlet({ services: ['home'], env: opts.env, clock: opts.clock });
  const { key } = await t.hamlet.platform.keys.create('home', { name: 'test' });
  return withToken(t, key);
}

export function withToken(t: TestHamlet, token: string): HomeTest {
  const url = t.url('home');
  return {
    t,
    url,
    token,
    async api(method, path, body, headers = {}) {
      const init = {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      };
      // After a server restart the pool may hold a connection the old server closed: retry once.
      const res = await fetch(url + path, init).catch(() => fetch(url + path, init));
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = text;
      }
      return { status: res.status, body: parsed, headers: res.headers, text };
    },
  };
}

/** A raw WebSocket that collects every message (arrays unpacked). */
export async function rawSocket(url: string): Promise<{
  ws: WebSocket;
  messages: any[];
  next(pred?: (m: any) => boolean, ms?: number): Promise<any>;
  send(m: unknown): void;
  closed: Promise<void>;
}> {
  const ws = new WebSocket(url.replace(/^http/, 'ws') + '/api/websocket');
  const messages: any[] = [];
  const waiters: Array<{ pred: (m: any) => boolean; resolve(m: any): void }> = [];
  let seen = 0;
  ws.on('message', (d) => {
    const parsed = JSON.parse(d.toString());
    for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
      messages.push(m);
      for (const w of [...waiters]) {
        if (!w.pred(m)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  const closed = new Promise<void>((r) => ws.on('close', () => r()));
  await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
  return {
    ws,
    messages,
    closed,
    send: (m) => ws.send(typeof m === 'string' ? m : JSON.stringify(m)),
    next(pred = () => true, ms = 5000) {
      const found = messages.slice(seen).find(pred);
      if (found) {
        seen = messages.indexOf(found) + 1;
        return Promise.resolve(found);
      }
      const waiter = { pred, resolve: (_: any) => {} };
      const matched = new Promise<any>((resolve) => {
        waiter.resolve = (m) => ((seen = messages.indexOf(m) + 1), resolve(m));
        waiters.push(waiter);
      });
      return withDeadline(matched, ms, `a WebSocket message matching ${pred.toString()}`).finally(() => {
        if (waiters.includes(waiter)) waiters.splice(waiters.indexOf(waiter), 1);
      });
    },
  };
}

export const ISO_US = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;
export const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** A copy of the demo house with more devices (YAML flow mappings, one a line); returns its path for HOME_CONFIG. */
export function demoHouseWith(devices: string[]): string {
  const demo = readFileSync(path.join(import.meta.dirname, '../../src/services/home/demo-house.yaml'), 'utf8');
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'hamlet-house-')), 'home.yaml');
  writeFileSync(file, demo.replace(/^devices:\n/m, `devices:\n${devices.map((d) => `  - ${d}\n`).join('')}`));
  return file;
}
