// Mail as two instances of a cluster: the relay's verdict on a sent message reaches both
// instances over the bus, yet the message is labelled delivered once and its webhook hears
// message.delivered once; an inbox made through one instance is listed by the other at once
// after a write. Skips without TEST_DATABASE_URL and TEST_REDIS_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { settle, waitFor } from '../helpers/wait.js';
import { webhookReceiver } from '../mail/helpers.js';
import { call, clusterEnabled, startCluster, type Cluster } from './state-cluster.js';

let cluster: Cluster;
let relay: SmtpSink;
let hooks: Awaited<ReturnType<typeof webhookReceiver>>;
let key: string;

const mail = (instance: 'a' | 'b', method: string, route: string, body?: unknown) =>
  call(cluster.url(instance, 'mail'), method, route, { body, headers: { authorization: `Bearer ${key}` } });

beforeAll(async () => {
  if (!clusterEnabled) return;
  relay = await startSmtpSink();
  hooks = await webhookReceiver();
  cluster = await startCluster(['mail'], {
    env: { HAMLET_SMTP_RELAY: relay.url, HAMLET_ALLOW_INTERNAL_REQUESTS: '1', MAIL_DOMAIN: 'cluster.test' },
  });
  key = (await cluster.a.hamlet.platform.keys.create('mail')).key;
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
  await hooks?.close();
  await relay?.close();
});

describe.skipIf(!clusterEnabled)('mail across two instances', () => {
  it('a relayed message is labelled delivered and announced to its webhook once', async () => {
    const inbox = (await mail('a', 'POST', '/v0/inboxes', { username: `twice-${Date.now().toString(36)}` })).body
      .inbox_id as string;
    expect(
      (await mail('b', 'POST', '/v0/webhooks', { url: hooks.url, event_types: ['message.delivered'] })).status,
    ).toBeLessThan(300);
    const sent = await mail('b', 'POST', `/v0/inboxes/${encodeURIComponent(inbox)}/messages/send`, {
      to: ['someone@elsewhere.test'],
      subject: 'Once',
      text: 'hi',
    });
    expect(sent.status).toBeLessThan(300);
    await relay.waitFor((m) => m.parsed.subject === 'Once', 30_000);
    await hooks.waitFor((e) => e.event_type === 'message.delivered', 30_000);
    // Both instances heard the outcome; a second event would be queued by now.
    await Promise.all([cluster.a.hamlet.platform.jobs.idle(), cluster.b.platform.jobs.idle()]);
    await settle(500);
    await Promise.all([cluster.a.hamlet.platform.jobs.idle(), cluster.b.platform.jobs.idle()]);
    expect(hooks.received.map((r) => JSON.parse(r.body).event_type)).toEqual(['message.delivered']);
    const onB = await mail(
      'b',
      'GET',
      `/v0/inboxes/${encodeURIComponent(inbox)}/messages/${encodeURIComponent(sent.body.message_id)}`,
    );
    expect(onB.body.labels).toContain('delivered');
  });

  it("a message sent through A is in B's cached list", async () => {
    const inbox = (await mail('a', 'POST', '/v0/inboxes', { username: `lists-${Date.now().toString(36)}` })).body
      .inbox_id as string;
    const subjects = async (instance: 'a' | 'b') =>
      (
        (await mail(instance, 'GET', `/v0/inboxes/${encodeURIComponent(inbox)}/messages`)).body.messages as Array<{
          subject: string;
        }>
      ).map((m) => m.subject);
    expect(await subjects('b')).toEqual([]); // B caches the empty list
    await mail('a', 'POST', `/v0/inboxes/${encodeURIComponent(inbox)}/messages/send`, {
      to: ['someone@elsewhere.test'],
      subject: 'Listed',
      text: 'hi',
    });
    await waitFor(async () => (await subjects('b')).includes('Listed'), { message: "the sent message in B's list" });
  });
});
