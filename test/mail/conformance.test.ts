// Drives the real agentmail SDK (0.5.27) against a running Hamlet through every call of the
// issue, checks required fields with the SDK's own schemas, and fails on any
// "Failed to validate" warning the SDK prints when a response does not match its types.
import { AgentMail, AgentMailClient, AgentMailError, serialization } from 'agentmail';

const { NotFoundError } = AgentMail;
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureWarnings, startMail, webhookReceiver, type MailTestEnv } from './helpers.js';

const passthrough = { unrecognizedObjectKeys: 'passthrough' as const };
function strict(schema: { parse(raw: unknown, opts?: object): { ok: boolean; errors?: unknown } }, raw: unknown) {
  const r = schema.parse(raw, passthrough);
  if (!r.ok) throw new Error(`schema mismatch: ${JSON.stringify(r.errors)}\n${JSON.stringify(raw)}`);
}

describe('agentmail SDK conformance', () => {
  let env: MailTestEnv;
  let c: AgentMailClient;
  let warn: ReturnType<typeof captureWarnings>;
  let hooks: Awaited<ReturnType<typeof webhookReceiver>>;

  beforeAll(async () => {
    warn = captureWarnings();
    env = await startMail();
    c = env.client;
    hooks = await webhookReceiver();
  });
  afterAll(async () => {
    warn?.restore();
    await hooks?.close();
    await env?.t.destroy();
  });

  let a: string;
  let b: string;
  let sentId: string;
  let sentThread: string;
  let receivedId: string;
  let webhookId: string;

  it('creates inboxes idempotently by client_id, and with no arguments at all', async () => {
    const first = await c.inboxes.create({ username: 'conf-a', displayName: 'Conf A', clientId: 'conf-a-1' });
    const again = await c.inboxes.create({ username: 'conf-a', displayName: 'Other', clientId: 'conf-a-1' });
    expect(again.inboxId).toBe(first.inboxId);
    expect(first.inboxId).toBe('conf-a@mail.test');
    a = first.inboxId;
    const empty = await c.inboxes.create();
    expect(empty.email).toBe(empty.inboxId);
    expect(empty.podId).toMatch(/^[0-9a-f-]{36}$/);
    expect(empty.createdAt).toBeInstanceOf(Date);
    b = (await c.inboxes.create({ username: 'conf-b', displayName: 'Conf B' })).inboxId;
    const taken = await env.call('POST', '/v0/inboxes', { username: 'conf-b' });
    expect(taken.status).toBe(409);
    const badDomain = await env.call('POST', '/v0/inboxes', { username: 'x', domain: 'elsewhere.test' });
    expect(badDomain.status).toBe(400);
    expect(badDomain.body.error.details.field).toBe('domain');
  });

  it('lists inboxes page by page, newest first, and rejects a garbage token', async () => {
    const p1 = await c.inboxes.list({ limit: 1 });
    expect(p1.count).toBe(p1.inboxes.length);
    expect(p1.count).toBe(1);
    expect(p1.inboxes[0].inboxId).toBe(b);
    expect(p1.nextPageToken).toBeTruthy();
    const seen = [p1.inboxes[0].inboxId];
    let token = p1.nextPageToken;
    while (token) {
      const p = await c.inboxes.list({ limit: 1, pageToken: token });
      seen.push(...p.inboxes.map((i) => i.inboxId));
      token = p.nextPageToken;
    }
    expect(seen.length).toBe(3);
    expect(new Set(seen).size).toBe(3);
    expect(seen[2]).toBe(a);
    await expect(c.inboxes.list({ pageToken: 'garbage!!' })).rejects.toMatchObject({ statusCode: 400 });
  });

  it('gets an inbox by its address, 404s an unknown one, 401s a bad key', async () => {
    const got = await c.inboxes.get(a);
    expect(got.displayName).toBe('Conf A');
    await expect(c.inboxes.get('nobody@mail.test')).rejects.toBeInstanceOf(NotFoundError);
    const bad = new AgentMailClient({ apiKey: 'hamlet_mail_wrong', baseUrl: env.api, maxRetries: 0 });
    const err: any = await bad.inboxes.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentMailError);
    expect(err.statusCode).toBe(401);
    expect(err.body.error.type).toBe('unauthorized');
    expect(err.body.name).toBeTruthy();
    const raw = await env.call('GET', `/v0/inboxes/${encodeURIComponent(a)}`);
    strict(serialization.inboxes.Inbox, raw.body);
    const updated = await c.inboxes.update(a, { displayName: 'Conf A2', metadata: { team: 'ops' } });
    expect(updated.displayName).toBe('Conf A2');
    expect(updated.metadata).toEqual({ team: 'ops' });
  });

  it('creates, lists, gets and updates webhooks', async () => {
    const hook = await c.webhooks.create({
      url: hooks.url,
      eventTypes: ['message.received', 'message.sent'],
      inboxIds: [a, b],
      clientId: 'conf-hook',
    });
    expect(hook.secret).toMatch(/^whsec_/);
    expect(hook.enabled).toBe(true);
    webhookId = hook.webhookId;
    const again = await c.webhooks.create({ url: hooks.url, eventTypes: ['message.received'], clientId: 'conf-hook' });
    expect(again.webhookId).toBe(webhookId);
    const listed = await c.webhooks.list();
    expect(listed.webhooks.map((w) => w.webhookId)).toContain(webhookId);
    expect((await c.webhooks.get(webhookId)).url).toBe(hooks.url);
    const patched = await c.webhooks.update(webhookId, {
      eventTypes: ['message.received', 'message.sent', 'message.delivered'],
    });
    expect(patched.eventTypes).toEqual(['message.received', 'message.sent', 'message.delivered']);
    const raw = await env.call('GET', `/v0/webhooks/${webhookId}`);
    strict(serialization.webhooks.Webhook, raw.body);
  });

  it('serves the contract webhook routes: PUT, and create without event_types means all', async () => {
    const put = await c.fetch(`/v0/webhooks/${webhookId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        event_types: ['message.received', 'message.sent', 'message.delivered', 'message.bounced'],
      }),
    });
    expect(put.status).toBe(200);
    expect((await put.json()).event_types).toContain('message.bounced');
    const all = await env.call('POST', '/v0/webhooks', { url: hooks.url, enabled: false });
    expect(all.status).toBe(200);
    expect(all.body.event_types.length).toBe(11);
    expect(all.body.enabled).toBe(false);
    const bad = await env.call('POST', '/v0/webhooks', { url: 'ftp://x', event_types: ['message.received'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('url');
    await env.call('DELETE', `/v0/webhooks/${all.body.webhook_id}`);
  });

  it('sends with attachments, idempotently', async () => {
    const body = {
      to: b,
      subject: 'Conformance hello',
      text: 'Hello B, this is A.',
      html: '<p>Hello <b>B</b></p>',
      labels: ['conf'],
      attachments: [
        { filename: 'note.txt', contentType: 'text/plain', content: Buffer.from('attached bytes').toString('base64') },
      ],
    };
    const sent = await c.inboxes.messages.send(a, body, { idempotencyKey: 'k1' });
    expect(sent.messageId).toMatch(/^<.+@mail\.test>$/);
    const again = await c.inboxes.messages.send(a, body, { idempotencyKey: 'k1' });
    expect(again.messageId).toBe(sent.messageId);
    expect(again.threadId).toBe(sent.threadId);
    const inB = await c.inboxes.messages.list(b);
    expect(inB.messages.filter((m) => m.subject === 'Conformance hello').length).toBe(1);
    await expect(
      c.inboxes.messages.send(a, { ...body, text: 'different' }, { idempotencyKey: 'k1' }),
    ).rejects.toMatchObject({ statusCode: 409 });
    const empty = await c.fetch(`/v0/inboxes/${encodeURIComponent(a)}/messages/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': '' },
      body: JSON.stringify({ to: b, text: 'x' }),
    });
    expect(empty.status).toBe(400);
    sentId = sent.messageId;
    sentThread = sent.threadId;
  });

  it('serves the contract send route', async () => {
    const res = await c.fetch(`/v0/inboxes/${encodeURIComponent(a)}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: [b], subject: 'Via contract route', text: 'contract' }),
    });
    expect(res.status).toBe(200);
    const json = await res.json();
    expect(Object.keys(json).sort()).toEqual(['message_id', 'thread_id']);
  });

  it('validates sends: too many recipients, oversize, bad address, none at all', async () => {
    const many = Array.from({ length: 51 }, (_, i) => `r${i}@example.com`);
    await expect(c.inboxes.messages.send(a, { to: many, text: 'x' })).rejects.toMatchObject({ statusCode: 400 });
    const big = await env.call('POST', `/v0/inboxes/${encodeURIComponent(a)}/messages/send`, {
      to: b,
      text: 'x'.repeat(6.5 * 1024 * 1024),
    });
    expect(big.status).toBe(413);
    expect(big.body.error).toBeTruthy();
    const badAddr: any = await c.inboxes.messages.send(a, { to: 'not-an-email', text: 'x' }).catch((e: unknown) => e);
    expect(badAddr.statusCode).toBe(400);
    expect(badAddr.body.error.details.code).toBe('INVALID_EMAIL');
    expect(badAddr.body.error.details.field).toBe('to');
    const none = await env.call('POST', `/v0/inboxes/${encodeURIComponent(a)}/messages`, { subject: 'nobody' });
    expect(none.status).toBe(400);
    expect(none.body.error.details.field).toBe('to');
    const badJson = await env.call('POST', `/v0/inboxes/${encodeURIComponent(a)}/messages`, '{"to":');
    expect(badJson.status).toBe(400);
    const wrongType = await env.call('POST', `/v0/inboxes/${encodeURIComponent(a)}/messages`, { to: b, labels: 'x' });
    expect(wrongType.status).toBe(400);
  });

  it('gets the sent message with its labels and attachment', async () => {
    const m = await c.inboxes.messages.get(a, sentId);
    expect(m.labels).toContain('sent');
    expect(m.labels).toContain('conf');
    expect(m.size).toBeGreaterThan(0);
    expect(m.attachments?.[0]?.attachmentId).toBeTruthy();
    const raw = await env.call('GET', `/v0/inboxes/${encodeURIComponent(a)}/messages/${encodeURIComponent(sentId)}`);
    strict(serialization.Message, raw.body);
  });

  it('delivers locally and filters lists by labels, from, subject, dates and order', async () => {
    const unread = await c.inboxes.messages.list(b, { labels: ['unread'] });
    const hello = unread.messages.find((m) => m.subject === 'Conformance hello')!;
    expect(hello.labels).toEqual(expect.arrayContaining(['received', 'unread']));
    receivedId = hello.messageId;
    const fromA = await c.inboxes.messages.list(b, { from: [a] });
    expect(fromA.messages.length).toBe(2);
    const fromNobody = await c.inboxes.messages.list(b, { from: ['nobody@else.test'] });
    expect(fromNobody.messages.length).toBe(0);
    const bySubject = await c.inboxes.messages.list(b, { subject: ['contract route'] });
    expect(bySubject.messages.map((m) => m.subject)).toEqual(['Via contract route']);
    const future = await c.inboxes.messages.list(b, { after: new Date(Date.now() + 3_600_000) });
    expect(future.messages.length).toBe(0);
    const past = await c.inboxes.messages.list(b, { before: new Date(Date.now() + 3_600_000) });
    expect(past.messages.length).toBe(2);
    const asc = await c.inboxes.messages.list(b, { ascending: true });
    expect(asc.messages[0].subject).toBe('Conformance hello');
    const desc = await c.inboxes.messages.list(b);
    expect(desc.messages[0].subject).toBe('Via contract route');
    const p1 = await c.inboxes.messages.list(b, { limit: 1 });
    const p2 = await c.inboxes.messages.list(b, { limit: 1, pageToken: p1.nextPageToken });
    expect(p2.messages[0].messageId).not.toBe(p1.messages[0].messageId);
    expect(p2.nextPageToken).toBeUndefined();
    const raw = await env.call('GET', `/v0/inboxes/${encodeURIComponent(b)}/messages`);
    strict(serialization.ListMessagesResponse, raw.body);
  });

  it('replies (keeping cc), replies to all and forwards, in the same thread', async () => {
    const reply = await c.inboxes.messages.reply(
      b,
      receivedId,
      { text: 'Reply from B', cc: ['watcher@mail.test'] },
      { idempotencyKey: 'r1' },
    );
    const inB = await c.inboxes.messages.get(b, reply.messageId);
    expect(inB.threadId).toBe((await c.inboxes.messages.get(b, receivedId)).threadId);
    expect(inB.cc).toEqual(['watcher@mail.test']);
    expect(inB.to).toEqual(['Conf A2 <conf-a@mail.test>']);
    expect(inB.subject).toBe('Re: Conformance hello');
    // The reply reaches A in A's original thread.
    const inA = await c.inboxes.messages.get(a, reply.messageId);
    expect(inA.threadId).toBe(sentThread);
    expect(inA.inReplyTo).toBe(sentId);
    const all = await c.inboxes.messages.replyAll(b, receivedId, { text: 'Reply all' });
    expect((await c.inboxes.messages.get(b, all.messageId)).threadId).toBe(inB.threadId);
    const fwd = await c.inboxes.messages.forward(b, receivedId, { to: a, text: 'FYI' });
    const fwdMsg = await c.inboxes.messages.get(a, fwd.messageId);
    expect(fwdMsg.subject).toBe('Fwd: Conformance hello');
    expect(fwdMsg.attachments?.[0]?.filename).toBe('note.txt');
  });

  it('updates labels', async () => {
    const res = await c.inboxes.messages.update(b, receivedId, { addLabels: ['read'], removeLabels: 'unread' });
    expect(res.labels).toContain('read');
    expect(res.labels).not.toContain('unread');
    const unread = await c.inboxes.messages.list(b, { labels: ['unread'] });
    expect(unread.messages.map((m) => m.messageId)).not.toContain(receivedId);
  });

  it('downloads attachments and raw messages through their URLs', async () => {
    const m = await c.inboxes.messages.get(b, receivedId);
    const att = await c.inboxes.messages.getAttachment(b, receivedId, m.attachments![0].attachmentId);
    expect(att.downloadUrl).toBeTruthy();
    expect(att.expiresAt).toBeInstanceOf(Date);
    const bytes = await (await fetch(att.downloadUrl)).text();
    expect(bytes).toBe('attached bytes');
    const raw = await c.inboxes.messages.getRaw(b, receivedId);
    const eml = await (await fetch(raw.downloadUrl)).text();
    expect(eml).toContain('Subject: Conformance hello');
    expect((await fetch(raw.downloadUrl + 'x')).status).toBe(404);
  });

  it('lists and gets threads, per inbox and across the organization', async () => {
    const list = await c.inboxes.threads.list(b);
    const rawList = await env.call('GET', `/v0/inboxes/${encodeURIComponent(b)}/threads`);
    strict(serialization.ListThreadsResponse, rawList.body);
    for (const row of rawList.body.threads) {
      strict(serialization.ThreadItem, row);
      expect(row.participants).toBeInstanceOf(Array);
      expect(row.last_message_at).toBe(row.timestamp);
    }
    const tid = (await c.inboxes.messages.get(b, receivedId)).threadId;
    expect(list.threads.map((t) => t.threadId)).toContain(tid);
    const thread = await c.inboxes.threads.get(b, tid);
    expect(thread.messageCount).toBeGreaterThanOrEqual(2);
    expect(thread.lastMessageId).toBeTruthy();
    expect(thread.senders.length).toBeGreaterThan(0);
    expect(thread.recipients.length).toBeGreaterThan(0);
    const times = thread.messages.map((m) => m.timestamp.getTime());
    expect([...times].sort((x, y) => x - y)).toEqual(times);
    const rawThread = await env.call('GET', `/v0/inboxes/${encodeURIComponent(b)}/threads/${tid}`);
    strict(serialization.Thread, rawThread.body);
    const org = await c.threads.list();
    expect(org.threads.map((t) => t.threadId)).toEqual(expect.arrayContaining([tid, sentThread]));
    expect((await c.threads.get(sentThread)).inboxId).toBe(a);
  });

  it('delivered the events to the webhook, signed', async () => {
    const { event } = await hooks.waitFor(
      (e) => e.event_type === 'message.received' && e.message.message_id === sentId,
    );
    expect(serialization.events.MessageReceivedEvent.parse(event).ok).toBe(true);
    const { event: sent } = await hooks.waitFor((e) => e.event_type === 'message.sent');
    expect(serialization.events.MessageSentEvent.parse(sent).ok).toBe(true);
  });

  it('deletes webhooks and inboxes', async () => {
    await c.webhooks.delete(webhookId);
    await expect(c.webhooks.get(webhookId)).rejects.toBeInstanceOf(NotFoundError);
    const extra = await c.inboxes.create({ username: 'conf-gone' });
    await c.inboxes.delete(extra.inboxId);
    await expect(c.inboxes.get(extra.inboxId)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('printed no "Failed to validate" warnings', () => {
    expect(warn.warnings.filter((w) => w.includes('Failed to validate'))).toEqual([]);
  });
});
