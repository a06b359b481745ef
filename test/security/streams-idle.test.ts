// 500 subscribers that never read, on every live stream of the process (issue 27, finding 8):
// the console's server-sent events (/home/events, /activity/stream, /mail/events,
// /social/stream) and the services' WebSockets (the home's /api/websocket, mail's /v0). While
// they hang on, the writes that feed the stream go on and every service keeps answering:
// /healthz of the five services keeps its p99 within a bound, and the writes feeding a console
// stream keep at least a share of their pace without subscribers. Before the fix, 500 idle
// /home/events subscribers cut home writes 13× (each change rendered 500 cards, one write per
// card and stream) and raised blog /healthz p99 from 194 to 1,840 ms; on this shared machine the
// unfixed code kept 10–16 % of the pace, the fixed one 40–100 %.
//
// Latency assertions: this file runs in the ALONE project (vitest.config.ts), after the rest.
// Bounds are relative to the same run's measurement without subscribers, and generous: the
// machine's load moves every number by 2× from one minute to the next.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import { percentile, probeWhile } from '../workflow/hostile-helpers.js';

const SUBSCRIBERS = 500;
// Two seconds per window (nine windows run one after another, alone): long enough for hundreds of
// writes and /healthz probes per window, and the bounds below are loose (4× pace, 3× p99).
const WINDOW_MS = Number(process.env.STREAMS_WINDOW_MS ?? 2000);
/** Writes feeding a console stream with 500 idle subscribers keep at least this share of their pace without them. */
const MIN_PACE = 0.25;
/** /healthz p99 of the services with 500 idle subscribers: at most this, or this many times the p99 measured without them. */
const P99_BOUND_MS = 1000;
const P99_FACTOR = 3;

let t: TestHamlet;
let admin: string;
let keys: { home: string; mail: string };
let inboxes: { from: string; to: string };
let community: { voter: string; postId: string };

beforeAll(async () => {
  t = await startTestHamlet({
    services: ['blog', 'mail', 'community', 'home', 'workflow'],
    // Room for 500 subscribers from one address and one key: the budget is what is tested, not the connection shares.
    env: {
      HAMLET_CONSOLE: 'on',
      HAMLET_RATE_LIMITS: 'off',
      HAMLET_WS_MAX_PER_ADDRESS: '5000',
      HAMLET_WS_MAX_PER_KEY: '5000',
    },
  });
  const k = t.hamlet.platform.keys;
  admin = (await k.create('admin')).key;
  keys = { home: (await k.create('home')).key, mail: (await k.create('mail')).key };
  const inbox = async (username: string) =>
    (await call('mail', 'POST', '/v0/inboxes', keys.mail, { username })).inbox_id as string;
  inboxes = { from: await inbox('sender'), to: await inbox('receiver') };
  const author = (
    await call('community', 'POST', '/api/v1/agents/register', undefined, {
      name: 'stream_author',
      description: 'posts',
    })
  ).agent.api_key as string;
  const voter = (
    await call('community', 'POST', '/api/v1/agents/register', undefined, {
      name: 'stream_voter',
      description: 'votes',
    })
  ).agent.api_key as string;
  const post = await call('community', 'POST', '/api/v1/posts', author, {
    submolt: 'general',
    title: 'Streams',
    content: 'vote on me',
  });
  community = { voter, postId: post.post.id };
  // The console's home link is up before the first measurement.
  await fetch(`${t.hamlet.console!.urls.web}/home`, { headers: { authorization: `Bearer ${admin}` } });
}, 120_000);
afterAll(async () => t?.destroy());

async function call(
  service: 'mail' | 'community' | 'home',
  method: string,
  path: string,
  key: string | undefined,
  body?: unknown,
): Promise<any> {
  const res = await fetch(t.url(service) + path, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

// ---- what feeds each stream --------------------------------------------------------------------

type Feed = () => Promise<unknown>;
const LIGHTS = ['light.kitchen', 'light.living_room', 'light.hall', 'light.porch'];
let n = 0;
const FEEDS: Record<'home' | 'mail' | 'community', Feed> = {
  home: () => call('home', 'POST', '/api/services/light/toggle', keys.home, { entity_id: LIGHTS[n++ % LIGHTS.length] }),
  mail: () =>
    call('mail', 'POST', `/v0/inboxes/${encodeURIComponent(inboxes.from)}/messages/send`, keys.mail, {
      to: [inboxes.to],
      subject: `n${n++}`,
      text: 'x'.repeat(500),
    }),
  community: () =>
    call('community', 'POST', `/api/v1/posts/${community.postId}/vote`, community.voter, {
      direction: n++ % 2 ? 'up' : 'none',
    }),
};

/** Runs `feed` with two callers for the window, probing every service's /healthz meanwhile. */
async function measure(feed: Feed): Promise<{ pace: number; p99: number; failures: string[] }> {
  const end = Date.now() + WINDOW_MS;
  let done = 0;
  const caller = async () => {
    while (Date.now() < end) {
      await feed();
      done++;
    }
  };
  const writing = Promise.all([caller(), caller()]);
  const probes = await probeWhile(
    (['blog', 'mail', 'community', 'home', 'workflow'] as const).map((s) => t.url(s)),
    writing,
  );
  await writing;
  return { pace: done / (WINDOW_MS / 1000), p99: percentile(probes.latencies, 99), failures: probes.failures };
}

// ---- subscribers that never read -----------------------------------------------------------------

interface Idle {
  close(): void;
}

function idleEventStream(path: string): Promise<Idle> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      t.hamlet.console!.urls.web + path,
      { headers: { authorization: `Bearer ${admin}` }, agent: false },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`${path}: ${res.statusCode}`));
        res.pause();
        resolve({ close: () => res.destroy() });
      },
    );
    req.on('error', reject);
  });
}

/** Stops reading the socket under a WebSocket client: what the server sends piles up. */
const pauseReading = (ws: WebSocket) => (ws as unknown as { _socket: { pause(): void } })._socket.pause();

/** A WebSocket client that does the protocol's greeting and subscription, then stops reading. */
function idleWebSocket(
  url: string,
  headers: Record<string, string>,
  greet: (ws: WebSocket, msg: any) => boolean,
): Promise<Idle> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on('error', reject);
    ws.on('message', (data) => {
      if (!greet(ws, JSON.parse(String(data)))) return;
      ws.removeAllListeners('message');
      pauseReading(ws);
      resolve({ close: () => ws.terminate() });
    });
  });
}

const homeSubscriber = () =>
  idleWebSocket(`${t.url('home').replace(/^http/, 'ws')}/api/websocket`, {}, (ws, msg) => {
    if (msg.type === 'auth_required') ws.send(JSON.stringify({ type: 'auth', access_token: keys.home }));
    else if (msg.type === 'auth_ok')
      ws.send(JSON.stringify({ id: 1, type: 'subscribe_events', event_type: 'state_changed' }));
    return msg.type === 'result' && msg.id === 1 && msg.success;
  });

/** Mail's stream says nothing until the client subscribes. */
async function mailSubscriber(): Promise<Idle> {
  const ws = new WebSocket(`${t.url('mail').replace(/^http/, 'ws')}/v0`, {
    headers: { authorization: `Bearer ${keys.mail}` },
  });
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  const subscribed = new Promise<void>((resolve, reject) =>
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data));
      if (msg.type === 'subscribed') resolve();
      else if (msg.type === 'error') reject(new Error(msg.message));
    }),
  );
  ws.send(JSON.stringify({ type: 'subscribe' }));
  await subscribed;
  ws.removeAllListeners('message');
  pauseReading(ws);
  return { close: () => ws.terminate() };
}

async function openMany(open: () => Promise<Idle>): Promise<Idle[]> {
  const all: Idle[] = [];
  // In small batches: 500 handshakes at once would measure the accept queue, not the streams.
  for (let i = 0; i < SUBSCRIBERS; i += 25)
    all.push(...(await Promise.all(Array.from({ length: Math.min(25, SUBSCRIBERS - i) }, open))));
  return all;
}

/**
 * `paced`: the pace of the writes is asserted too. The services' WebSockets (already under the
 * budget before this suite) send each event as it happens, one write per subscriber, as Home
 * Assistant and AgentMail clients expect; with 500 subscribers that costs 500 writes per event,
 * so their pace is printed, not asserted.
 */
const STREAMS: Array<{ name: string; feed: keyof typeof FEEDS; open: () => Promise<Idle>; paced?: boolean }> = [
  { name: 'console /home/events', feed: 'home', open: () => idleEventStream('/home/events'), paced: true },
  { name: 'console /activity/stream', feed: 'home', open: () => idleEventStream('/activity/stream'), paced: true },
  { name: 'console /mail/events', feed: 'mail', open: () => idleEventStream('/mail/events'), paced: true },
  { name: 'console /social/stream', feed: 'community', open: () => idleEventStream('/social/stream'), paced: true },
  { name: 'home /api/websocket subscribe_events', feed: 'home', open: homeSubscriber },
  { name: 'mail /v0 WebSocket', feed: 'mail', open: mailSubscriber },
];

describe('500 idle subscribers on every live stream', () => {
  const baseline: Partial<Record<keyof typeof FEEDS, { pace: number; p99: number }>> = {};

  it('measures each feed without subscribers', async () => {
    for (const feed of Object.keys(FEEDS) as Array<keyof typeof FEEDS>) {
      const m = await measure(FEEDS[feed]);
      expect(m.failures).toEqual([]);
      baseline[feed] = m;
      console.log(`baseline ${feed}: ${m.pace.toFixed(1)} writes/s, services /healthz p99 ${m.p99.toFixed(0)} ms`);
    }
  }, 60_000);

  for (const stream of STREAMS) {
    it(`${stream.name}: the services answer${stream.paced ? ' and the writes keep their pace' : ''}`, async () => {
      const base = baseline[stream.feed]!;
      const idle = await openMany(stream.open);
      try {
        const m = await measure(FEEDS[stream.feed]);
        const cuts = t.hamlet.platform.websockets.cuts;
        console.log(
          `${stream.name}: ${m.pace.toFixed(1)} writes/s (${((m.pace / base.pace) * 100).toFixed(0)} % of ${base.pace.toFixed(1)}), services /healthz p99 ${m.p99.toFixed(0)} ms (${base.p99.toFixed(0)} without), budget cuts so far ${cuts}, RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`,
        );
        expect(m.failures).toEqual([]);
        if (stream.paced) expect(m.pace).toBeGreaterThanOrEqual(base.pace * MIN_PACE);
        expect(m.p99).toBeLessThanOrEqual(Math.max(P99_BOUND_MS, base.p99 * P99_FACTOR));
        expect(t.hamlet.platform.websockets.queuedBytes()).toBeLessThanOrEqual(t.config.websockets.memoryBudgetBytes);
      } finally {
        for (const s of idle) s.close();
      }
    }, 120_000);
  }
});
