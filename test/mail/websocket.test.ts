// The WebSocket event stream through the SDK: websockets.connect(), subscribe, then the same
// strictly valid event objects webhooks carry, filtered by the subscription.
import { serialization } from 'agentmail';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { captureWarnings, startMail, type MailTestEnv } from './helpers.js';

describe('WebSocket event stream', () => {
  let env: MailTestEnv;
  let warn: ReturnType<typeof captureWarnings>;
  beforeAll(async () => {
    warn = captureWarnings();
    env = await startMail();
  });
  afterAll(async () => {
    warn?.restore();
    await env?.t.destroy();
  });

  it('subscribes and receives filtered, strictly valid events', async () => {
    const a = (await env.client.inboxes.create({ username: 'ws-a' })).inboxId;
    const b = (await env.client.inboxes.create({ username: 'ws-b' })).inboxId;
    const socket = await env.client.websockets.connect();
    const messages: any[] = [];
    const raw: string[] = [];
    socket.on('message', (m) => messages.push(m));
    await socket.waitForOpen();
    (
      socket.socket as unknown as { addEventListener(t: string, f: (e: { data: string }) => void): void }
    ).addEventListener('message', (e) => raw.push(String(e.data)));
    socket.sendSubscribe({ type: 'subscribe', eventTypes: ['message.received'], inboxIds: [b] });
    await waitFor(() => messages.some((m) => m.type === 'subscribed'), { message: 'the subscribed answer' });
    expect(messages[0]).toMatchObject({ type: 'subscribed', eventTypes: ['message.received'], inboxIds: [b] });

    await env.client.inboxes.messages.send(b, { to: a, subject: 'not for the stream', text: 'x' });
    const sent = await env.client.inboxes.messages.send(a, { to: b, subject: 'Live', text: 'over the socket' });
    await waitFor(() => raw.some((r) => r.includes(sent.messageId)), { message: 'the event of the message sent to b' });
    const events = raw.map((r) => JSON.parse(r)).filter((e) => e.type === 'event');
    expect(events.map((e) => e.event_type)).toEqual(['message.received']);
    expect(events[0].message.inbox_id).toBe(b);
    const parsed = serialization.events.MessageReceivedEvent.parse(events[0]);
    expect(parsed.ok).toBe(true);
    socket.close();

    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${env.api.replace('http', 'ws')}/v0?api_key=wrong`);
      ws.on('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        ws.terminate();
      });
      ws.on('open', () => resolve(101));
      ws.on('error', () => {});
    });
    expect(status).toBe(401);
    expect(warn.warnings.filter((w) => w.includes('Failed to validate'))).toEqual([]);
  });
});
