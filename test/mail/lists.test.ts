// Allow and block lists at receive time, over SMTP and for mail delivered between inboxes by
// the API: a refused sender's mail is kept, labelled `blocked`, hidden from lists unless
// include_blocked=true, and announced as message.received.blocked (never as message.received).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smtpSend, startMail, webhookReceiver, type MailTestEnv } from './helpers.js';

describe('mail allow and block lists at receive', () => {
  let env: MailTestEnv;
  let hooks: Awaited<ReturnType<typeof webhookReceiver>>;
  let inbox: string;
  let other: string;

  beforeAll(async () => {
    env = await startMail();
    hooks = await webhookReceiver();
    inbox = (await env.client.inboxes.create({ username: 'guarded' })).inboxId;
    other = (await env.client.inboxes.create({ username: 'open' })).inboxId;
    await env.client.webhooks.create({ url: hooks.url, eventTypes: ['message.received', 'message.received.blocked'] });
  });
  afterAll(async () => {
    await hooks?.close();
    await env?.t.destroy();
  });

  const mail = (from: string, to: string, subject: string) =>
    `From: ${from}\r\nTo: ${to}\r\nSubject: ${subject}\r\nMessage-ID: <${subject.replace(/\W/g, '')}@x.test>\r\n\r\nBody of ${subject}\r\n`;
  const subjects = async (id: string, includeBlocked = false) =>
    (await env.client.inboxes.messages.list(id, { includeBlocked })).messages.map((m) => m.subject);

  it("an organization block entry for a domain blocks its mail (and its subdomains') over SMTP, keeping it", async () => {
    await env.client.lists.create('receive', 'block', { entry: 'spam.test' });
    expect(
      await smtpSend(env.smtpPort, 'x@spam.test', [inbox], mail('Bad <x@spam.test>', inbox, 'Blocked one')),
    ).toMatch(/^250/);
    expect(
      await smtpSend(env.smtpPort, 'y@eu.spam.test', [inbox], mail('y@eu.spam.test', inbox, 'Blocked two')),
    ).toMatch(/^250/);
    expect(await smtpSend(env.smtpPort, 'z@fine.test', [inbox], mail('z@fine.test', inbox, 'Welcome'))).toMatch(/^250/);
    expect(await subjects(inbox)).toEqual(['Welcome']);
    expect((await subjects(inbox, true)).sort()).toEqual(['Blocked one', 'Blocked two', 'Welcome']);
    const blocked = (await env.client.inboxes.messages.list(inbox, { includeBlocked: true, labels: ['blocked'] }))
      .messages;
    expect(blocked.map((m) => m.labels.includes('received'))).toEqual([true, true]);
    expect((await env.client.inboxes.threads.list(inbox)).threads.map((t) => t.subject)).toEqual(['Welcome']);

    await hooks.waitFor((e) => e.event_type === 'message.received.blocked' && e.message.subject === 'Blocked one');
    await hooks.waitFor((e) => e.event_type === 'message.received' && e.message.subject === 'Welcome');
    expect(
      hooks.received
        .map((r) => JSON.parse(r.body))
        .filter((e) => e.event_type === 'message.received' && e.message.subject.startsWith('Blocked')),
    ).toEqual([]);
  });

  it('removing the entry lets the next message through at once', async () => {
    await env.client.lists.delete('receive', 'block', 'spam.test');
    expect(await smtpSend(env.smtpPort, 'x@spam.test', [inbox], mail('x@spam.test', inbox, 'Forgiven'))).toMatch(
      /^250/,
    );
    expect(await subjects(inbox)).toContain('Forgiven');
  });

  it('an inbox allow list admits only its entries, for that inbox only', async () => {
    await env.client.inboxes.lists.create(inbox, 'receive', 'allow', { entry: 'boss@corp.test' });
    expect(
      await smtpSend(env.smtpPort, 'boss@corp.test', [inbox, other], mail('boss@corp.test', inbox, 'From the boss')),
    ).toMatch(/^250/);
    expect(
      await smtpSend(
        env.smtpPort,
        'intern@corp.test',
        [inbox, other],
        mail('intern@corp.test', inbox, 'From the intern'),
      ),
    ).toMatch(/^250/);
    expect(await subjects(inbox)).toContain('From the boss');
    expect(await subjects(inbox)).not.toContain('From the intern');
    expect(await subjects(inbox, true)).toContain('From the intern');
    // The other inbox has no allow list: both arrive normally.
    expect(await subjects(other)).toEqual(expect.arrayContaining(['From the boss', 'From the intern']));
    await env.client.inboxes.lists.delete(inbox, 'receive', 'allow', 'boss@corp.test');
  });

  it('applies at API receive too: mail sent between inboxes of the service from a blocked address', async () => {
    const sender = (await env.client.inboxes.create({ username: 'noisy' })).inboxId;
    await env.client.pods.lists.create((await env.client.inboxes.get(inbox)).podId, 'receive', 'block', {
      entry: sender,
    });
    await env.client.inboxes.messages.send(sender, { to: [inbox, other], subject: 'Via the API', text: 'hi' });
    expect(await subjects(inbox)).not.toContain('Via the API');
    expect(await subjects(inbox, true)).toContain('Via the API');
    // The pod's list covers every inbox of the pod (both are in the default pod), the sender's own copy is not received mail.
    expect(await subjects(other)).not.toContain('Via the API');
    expect((await env.client.inboxes.messages.list(sender)).messages.map((m) => m.subject)).toEqual(['Via the API']);
    await hooks.waitFor((e) => e.event_type === 'message.received.blocked' && e.message.subject === 'Via the API');
  });
});
