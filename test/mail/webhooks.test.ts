// Webhooks received on a local HTTP server: every signature verified with the svix package
// (svix-* and webhook-* headers), payloads parsed with the SDK's strict schemas, filters,
// disabled webhooks, retries with a stable id, and relay outcomes (delivered / bounced).
import { serialization } from 'agentmail';
import { SMTPServer } from 'smtp-server';
import { Webhook } from 'svix';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smtpSend, startMail, webhookReceiver, type MailTestEnv, type Received } from './helpers.js';

function verify(secret: string, r: Received) {
  const wh = new Webhook(secret);
  const h = r.headers;
  wh.verify(r.body, {
    'svix-id': String(h['svix-id']),
    'svix-timestamp': String(h['svix-timestamp']),
    'svix-signature': String(h['svix-signature']),
  });
  wh.verify(r.body, {
    'webhook-id': String(h['webhook-id']),
    'webhook-timestamp': String(h['webhook-timestamp']),
    'webhook-signature': String(h['webhook-signature']),
  });
  expect(() =>
    wh.verify(r.body + ' ', {
      'svix-id': String(h['svix-id']),
      'svix-timestamp': String(h['svix-timestamp']),
      'svix-signature': String(h['svix-signature']),
    }),
  ).toThrow();
}

const strictEvent: Record<string, { parse(raw: unknown): { ok: boolean; errors?: unknown } }> = {
  'message.received': serialization.events.MessageReceivedEvent,
  'message.sent': serialization.events.MessageSentEvent,
  'message.delivered': serialization.events.MessageDeliveredEvent,
  'message.bounced': serialization.events.MessageBouncedEvent,
};
function expectStrict(event: any) {
  const r = strictEvent[event.event_type].parse(event);
  if (!r.ok)
    throw new Error(
      `${event.event_type} fails the SDK's strict parser: ${JSON.stringify(r.errors)}\n${JSON.stringify(event)}`,
    );
}

describe('webhooks without a relay', () => {
  let env: MailTestEnv;
  let hooks: Awaited<ReturnType<typeof webhookReceiver>>;
  let flaky: Awaited<ReturnType<typeof webhookReceiver>>;
  let a: string;
  let b: string;
  let c: string;
  const attemptIds: string[] = [];

  beforeAll(async () => {
    env = await startMail();
    hooks = await webhookReceiver();
    // 500, then a redirect, then success: two failed attempts before the delivery lands.
    flaky = await webhookReceiver((n, r) => {
      attemptIds.push(String(r.headers['svix-id']));
      return n === 0 ? 500 : n === 1 ? 302 : 200;
    });
    a = (await env.client.inboxes.create({ username: 'wh-a' })).inboxId;
    b = (await env.client.inboxes.create({ username: 'wh-b' })).inboxId;
    c = (await env.client.inboxes.create({ username: 'wh-c' })).inboxId;
  });
  afterAll(async () => {
    await hooks?.close();
    await flaky?.close();
    await env?.t.destroy();
  });

  it('delivers signed, strictly valid events, filtered by type and inbox; disabled webhooks get nothing', async () => {
    const all = await env.call('POST', '/v0/webhooks', { url: hooks.url, inbox_ids: [a, b] });
    const onlyC = await env.client.webhooks.create({
      url: hooks.url + '?c',
      eventTypes: ['message.received'],
      inboxIds: [c],
    });
    const disabled = await env.call('POST', '/v0/webhooks', { url: hooks.url + '?disabled', enabled: false });
    const sentOnly = await env.client.webhooks.create({ url: hooks.url + '?sent', eventTypes: ['message.sent'] });

    // nobody@mail.test is of our domain with no inbox: bounced. Outside mail, with no relay, is held (queued).
    const sent = await env.client.inboxes.messages.send(a, {
      to: [b, 'nobody@mail.test', 'someone@external.test'],
      subject: 'Events',
      text: 'hi',
      html: '<p>hi</p>',
    });
    const kinds = ['message.sent', 'message.delivered', 'message.received', 'message.bounced'];
    for (const kind of kinds) {
      const { event, r } = await hooks.waitFor(
        (e, rr) => e.event_type === kind && rr.url === '/hook' && rr.body.includes(sent.messageId),
      );
      verify(all.body.secret, r);
      expectStrict(event);
      expect(event.event_id).toBe(r.headers['svix-id']);
    }
    const { event: bounce } = await hooks.waitFor((e) => e.event_type === 'message.bounced');
    expect(bounce.bounce.recipients).toEqual([{ address: 'nobody@mail.test', status: 'bounced' }]);
    expect(bounce.bounce.type).toBe('Permanent');
    expect((await env.client.inboxes.messages.get(a, sent.messageId)).labels).toEqual(
      expect.arrayContaining(['sent', 'bounced', 'queued']),
    );

    await env.t.hamlet.platform.jobs.idle();
    const seen = () => hooks.received.map((r) => `${r.url} ${JSON.parse(r.body).event_type}`).sort();
    // The C-only webhook saw nothing of A and B, the disabled one nothing at all, the sent-only one A's send.
    expect(seen()).toEqual([
      '/hook message.bounced',
      '/hook message.delivered',
      '/hook message.received',
      '/hook message.sent',
      '/hook?sent message.sent',
    ]);
    verify(
      sentOnly.secret,
      hooks.received.find((r) => r.url === '/hook?sent')!,
    );

    // A message to C: the C webhook gets message.received, the all-events hook (B is listed) B's send.
    const before = hooks.received.length;
    await env.client.inboxes.messages.send(b, { to: c, subject: 'To C', text: 'c' });
    await env.t.hamlet.platform.jobs.idle();
    const fresh = hooks.received
      .slice(before)
      .map((r) => `${r.url} ${JSON.parse(r.body).event_type}`)
      .sort();
    expect(fresh).toEqual([
      '/hook message.delivered',
      '/hook message.sent',
      '/hook?c message.received',
      '/hook?sent message.sent',
    ]);
    verify(
      onlyC.secret,
      hooks.received.find((r) => r.url === '/hook?c')!,
    );
    expect(hooks.received.some((r) => r.url === '/hook?disabled')).toBe(false);
    expect(disabled.body.enabled).toBe(false);

    // Disabling stops deliveries; enabling again resumes them.
    await env.client.webhooks.update(onlyC.webhookId, {});
    await env.call('PATCH', `/v0/webhooks/${onlyC.webhookId}`, { enabled: false });
    const n = hooks.received.length;
    await env.client.inboxes.messages.send(a, { to: c, subject: 'Not for the disabled', text: 'c' });
    await env.t.hamlet.platform.jobs.idle();
    expect(hooks.received.slice(n).some((r) => r.url === '/hook?c')).toBe(false);
  });

  it('retries a failed delivery (5xx, 3xx) with the same svix-id until it lands', async () => {
    const hook = await env.client.webhooks.create({ url: flaky.url, eventTypes: ['message.received'], inboxIds: [b] });
    await env.client.inboxes.messages.send(a, { to: b, subject: 'Retry me', text: 'r' });
    const { r } = await flaky.waitFor((e) => e.message.subject === 'Retry me', 15_000);
    expect(flaky.attempts()).toBe(3);
    verify(hook.secret, r);
    expect(attemptIds).toEqual([r.headers['svix-id'], r.headers['svix-id'], r.headers['svix-id']]);
  });
});

describe('webhooks with an SMTP relay', () => {
  let env: MailTestEnv;
  let relay: SMTPServer;
  let hooks: Awaited<ReturnType<typeof webhookReceiver>>;
  const relayed: Array<{ to: string[]; raw: string }> = [];

  beforeAll(async () => {
    relay = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo(address, _s, cb) {
        if (address.address.startsWith('reject'))
          return cb(Object.assign(new Error('5.1.1 user unknown'), { responseCode: 550 }));
        cb();
      },
      onData(stream, session, cb) {
        let raw = '';
        stream.on('data', (d) => (raw += d));
        stream.on('end', () => {
          relayed.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          cb();
        });
      },
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    const port = (relay.server.address() as net.AddressInfo).port;
    env = await startMail({ env: { HAMLET_SMTP_RELAY: `smtp://127.0.0.1:${port}` } });
    hooks = await webhookReceiver();
  });
  afterAll(async () => {
    await hooks?.close();
    await env?.t.destroy();
    await new Promise<void>((r) => relay.close(() => r()));
  });

  it('hands outside mail to the relay as a real RFC 5322 message: delivered, or bounced on a 5xx', async () => {
    const a = (await env.client.inboxes.create({ username: 'relay-a', displayName: 'Relay A' })).inboxId;
    const hook = await env.client.webhooks.create({
      url: hooks.url,
      eventTypes: ['message.delivered', 'message.bounced'],
    });
    const ok = await env.client.inboxes.messages.send(a, {
      to: 'friend@outside.test',
      bcc: ['hidden@outside.test'],
      subject: 'Out',
      text: 'out',
    });
    const { event, r } = await hooks.waitFor(
      (e) => e.event_type === 'message.delivered' && e.delivery.message_id === ok.messageId,
    );
    verify(hook.secret, r);
    expectStrict(event);
    expect(event.delivery.recipients.sort()).toEqual(['friend@outside.test', 'hidden@outside.test']);
    const got = relayed.find((m) => m.raw.includes(ok.messageId))!;
    expect(got.to.sort()).toEqual(['friend@outside.test', 'hidden@outside.test']);
    expect(got.raw).toContain('Subject: Out');
    expect(got.raw).toContain('From: Relay A <relay-a@mail.test>');
    expect(got.raw).not.toMatch(/^Bcc:/m);
    expect((await env.client.inboxes.messages.get(a, ok.messageId)).labels).toContain('delivered');

    const bad = await env.client.inboxes.messages.send(a, { to: 'reject-me@outside.test', subject: 'Nope', text: 'x' });
    const { event: bounce } = await hooks.waitFor(
      (e) => e.event_type === 'message.bounced' && e.bounce.message_id === bad.messageId,
    );
    expectStrict(bounce);
    expect(bounce.bounce.type).toBe('Permanent');
    expect((await env.client.inboxes.messages.get(a, bad.messageId)).labels).toContain('bounced');
  });

  it('delivers platform mail for its own domains to its own SMTP port (as the blog does)', async () => {
    const a = (await env.client.inboxes.create({ username: 'platform-mail' })).inboxId;
    await env.t.hamlet.platform.mailer.send({
      from: 'no-reply@blog.localhost',
      to: a,
      subject: 'From the platform',
      text: 'verify me',
    });
    await env.t.hamlet.platform.jobs.idle();
    const list = await env.client.inboxes.messages.list(a);
    expect(list.messages.map((m) => m.subject)).toEqual(['From the platform']);
    void smtpSend;
  });
});
