// Fair shares of the mail WebSocket stream (issue 10, observation 5): connections per key and
// per address are limited (refused at the upgrade with a 429 in the mail envelope), and a
// subscriber that stops reading is cut at its buffer cap while one that reads gets every event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { smtpSend, startMail, type MailTestEnv } from './helpers.js';

interface Opened {
  ws: WebSocket;
  status?: number;
  body?: any;
}

function open(env: MailTestEnv, key: string, localAddress?: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${env.api.replace(/^http/, 'ws')}/v0?api_key=${key}`, { localAddress });
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ ws, status: res.statusCode, body: JSON.parse(text) }));
    });
    ws.on('open', () => resolve({ ws }));
    ws.on('error', reject);
  });
}

async function subscribed(ws: WebSocket, inbox: string): Promise<void> {
  const ack = new Promise<void>((r) => ws.on('message', (d) => JSON.parse(d.toString()).type === 'subscribed' && r()));
  ws.send(JSON.stringify({ type: 'subscribe', event_types: ['message.received'], inbox_ids: [inbox] }));
  await ack;
}

describe('mail WebSocket shares', () => {
  let env: MailTestEnv;
  const sockets: WebSocket[] = [];
  beforeAll(async () => {
    env = await startMail({
      env: { HAMLET_WS_MAX_PER_KEY: '2', HAMLET_WS_MAX_PER_ADDRESS: '3', MAIL_WS_MAX_BUFFER: '1048576' },
    });
  });
  afterAll(async () => {
    for (const ws of sockets) ws.terminate();
    await env?.t.destroy();
  });

  it('refuses a key past its share and an address past its share, with a 429 each', async () => {
    const first = await open(env, env.key);
    const second = await open(env, env.key);
    expect([first.status, second.status]).toEqual([undefined, undefined]);
    sockets.push(first.ws, second.ws);
    const third = await open(env, env.key);
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({
      name: 'RateLimitError',
      message: expect.stringMatching(/too many WebSocket connections with this API key \(at most 2\)/i),
    });

    // Another key from another address: three connections, then the address is full.
    const { key: other } = await env.t.hamlet.platform.keys.create('mail', { name: 'other' });
    const { key: third3 } = await env.t.hamlet.platform.keys.create('mail', { name: 'third' });
    const fromTwo = [
      await open(env, other, '127.0.0.2'),
      await open(env, other, '127.0.0.2'),
      await open(env, third3, '127.0.0.2'),
    ];
    expect(fromTwo.map((o) => o.status)).toEqual([undefined, undefined, undefined]);
    sockets.push(...fromTwo.map((o) => o.ws));
    const fourth = await open(env, third3, '127.0.0.2');
    expect(fourth.status).toBe(429);
    expect(fourth.body.message).toMatch(/from your address \(at most 3\)/i);

    // A closed connection gives its key slot back.
    first.ws.close();
    await expect
      .poll(
        async () => {
          const again = await open(env, env.key);
          if (!again.status) sockets.push(again.ws);
          return again.status ?? 101;
        },
        { timeout: 5000, interval: 50 },
      )
      .toBe(101);
  });

  it('cuts a subscriber that stops reading, while one that reads gets every event', async () => {
    for (const ws of sockets.splice(0)) ws.terminate();
    const inbox = (await env.client.inboxes.create({ username: 'stream' })).inboxId;
    // Both with the inbox's key (events go to its organization); the first test's slots free as its sockets close.
    const opened = async () => {
      let o: Opened | undefined;
      await expect
        .poll(async () => (o = await open(env, env.key)).status ?? 101, { timeout: 5000, interval: 50 })
        .toBe(101);
      return o!.ws;
    };
    const reader = await opened();
    const stalled = await opened();
    sockets.push(reader, stalled);
    await subscribed(reader, inbox);
    await subscribed(stalled, inbox);
    const stalledSocket = (stalled as unknown as { _socket: import('node:net').Socket })._socket;
    stalledSocket.pause();
    let received = 0;
    reader.on('message', (d) => JSON.parse(d.toString()).type === 'event' && received++);

    // 400 KB messages: each event carries the text, so the stalled client's queue grows fast.
    const text = 'y'.repeat(400_000);
    const COUNT = 40;
    for (let i = 0; i < COUNT; i++) {
      const raw = [
        `From: a@outside.test`,
        `To: ${inbox}`,
        `Subject: big ${i}`,
        `Message-ID: <big${i}@outside.test>`,
        '',
        text,
        '',
      ].join('\r\n');
      expect(await smtpSend(env.smtpPort, 'a@outside.test', [inbox], raw)).toMatch(/^250/);
    }
    await expect.poll(() => received, { timeout: 20_000, interval: 100 }).toBe(COUNT);

    // The stalled one was cut: reading again, it reaches the end of its connection.
    const ended = new Promise<void>((r) => stalledSocket.once('close', () => r()));
    stalledSocket.removeAllListeners('data');
    stalledSocket.on('data', () => {});
    stalledSocket.resume();
    await ended;
    expect(reader.readyState).toBe(WebSocket.OPEN);
  }, 90_000);
});
