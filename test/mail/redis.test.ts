// With REDIS_URL (scale-out mode) the mail service's caches and live stream listen on Redis
// pub/sub: a list read before a write shows the write after it, and the WebSocket stream
// still carries events. Runs when TEST_REDIS_URL names a Redis server.
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { startMail, type MailTestEnv } from './helpers.js';

describe.runIf(process.env.TEST_REDIS_URL)('mail over Redis pub/sub', () => {
  let env: MailTestEnv;
  afterAll(async () => env?.t.destroy());

  it('invalidates cached lists and streams events through Redis', async () => {
    env = await startMail({ env: { REDIS_URL: process.env.TEST_REDIS_URL! } });
    const a = (await env.client.inboxes.create({ username: 'redis-a' })).inboxId;
    const b = (await env.client.inboxes.create({ username: 'redis-b' })).inboxId;
    expect((await env.client.inboxes.messages.list(b)).count).toBe(0); // now cached
    const socket = await env.client.websockets.connect();
    const raw: string[] = [];
    await socket.waitForOpen();
    (
      socket.socket as unknown as { addEventListener(t: string, f: (e: { data: string }) => void): void }
    ).addEventListener('message', (e) => raw.push(String(e.data)));
    socket.sendSubscribe({ type: 'subscribe', inboxIds: [b] });
    // The instance marks the organization as listened to before it answers `subscribed` (one
    // instance here: no other presence table to reach over Redis).
    await waitFor(() => raw.some((r) => r.includes('subscribed')), { message: 'the subscribed answer' });

    const sent = await env.client.inboxes.messages.send(a, { to: b, subject: 'Via Redis', text: 'x' });
    expect((await env.client.inboxes.messages.list(b)).messages.map((m) => m.messageId)).toEqual([sent.messageId]);
    await waitFor(() => raw.some((r) => r.includes('"message.received"') && r.includes(sent.messageId)), {
      message: 'the message.received event over the socket',
    });
    socket.close();
  });
});
