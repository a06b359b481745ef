// Drafts through the SDK: create, read, update, send (idempotent; the draft goes away), reply
// drafts that join the thread, and scheduled sends run by a durable job (or unscheduled).
import { serialization } from 'agentmail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { captureWarnings, startMail, type MailTestEnv } from './helpers.js';

describe('drafts', () => {
  let env: MailTestEnv;
  let warn: ReturnType<typeof captureWarnings>;
  let a: string;
  let b: string;
  // Scheduled sends are jobs due at a clock time: the test moves the clock instead of waiting.
  const clock = new ManualClock(Date.now());
  beforeAll(async () => {
    warn = captureWarnings();
    env = await startMail({ clock });
    a = (await env.client.inboxes.create({ username: 'draft-a' })).inboxId;
    b = (await env.client.inboxes.create({ username: 'draft-b' })).inboxId;
  });
  afterAll(async () => {
    warn?.restore();
    await env?.t.destroy();
  });

  it('creates, reads, updates and sends a draft once', async () => {
    const d = await env.client.inboxes.drafts.create(a, {
      to: [b],
      subject: 'Draft one',
      text: 'first version',
      labels: ['wip'],
      clientId: 'd-1',
      attachments: [{ filename: 'a.txt', contentType: 'text/plain', content: Buffer.from('AAA').toString('base64') }],
    });
    expect((await env.client.inboxes.drafts.create(a, { clientId: 'd-1', subject: 'other' })).draftId).toBe(d.draftId);
    const raw = await env.call('GET', `/v0/inboxes/${encodeURIComponent(a)}/drafts/${d.draftId}`);
    expect(serialization.Draft.parse(raw.body, { unrecognizedObjectKeys: 'passthrough' }).ok).toBe(true);
    const listed = await env.client.inboxes.drafts.list(a);
    expect(listed.drafts.map((x) => x.draftId)).toEqual([d.draftId]);
    expect((await env.client.drafts.list()).drafts.length).toBe(1);

    const updated = await env.client.inboxes.drafts.update(a, d.draftId, {
      text: 'second version',
      addAttachments: [
        { filename: 'b.txt', contentType: 'text/plain', content: Buffer.from('BBB').toString('base64') },
      ],
      removeAttachments: ['att_1'],
      addLabels: ['ready'],
      removeLabels: ['wip'],
    });
    expect(updated.text).toBe('second version');
    expect(updated.labels).toEqual(['ready']);
    expect(updated.attachments!.map((x) => x.filename)).toEqual(['b.txt']);

    const sent = await env.client.inboxes.drafts.send(a, d.draftId, {}, { idempotencyKey: 'draft-send-1' });
    const again = await env.client.inboxes.drafts.send(a, d.draftId, {}, { idempotencyKey: 'draft-send-1' });
    expect(again.messageId).toBe(sent.messageId);
    expect((await env.call('GET', `/v0/inboxes/${encodeURIComponent(a)}/drafts/${d.draftId}`)).status).toBe(404);
    const got = await env.client.inboxes.messages.get(b, sent.messageId);
    expect(got.text?.trim()).toBe('second version');
    expect(got.attachments!.map((x) => x.filename)).toEqual(['b.txt']);
    expect((await env.client.inboxes.messages.get(a, sent.messageId)).labels).toEqual(
      expect.arrayContaining(['sent', 'ready']),
    );
  });

  it('drafts a reply that takes recipients and thread from the message', async () => {
    const first = await env.client.inboxes.messages.send(a, { to: b, subject: 'Question', text: '?' });
    const d = await env.client.inboxes.drafts.create(b, { inReplyTo: first.messageId, text: 'Answer' });
    expect(d.to).toEqual([a]);
    expect(d.subject).toBe('Re: Question');
    const sent = await env.client.inboxes.drafts.send(b, d.draftId, {});
    expect((await env.client.inboxes.messages.get(a, sent.messageId)).threadId).toBe(first.threadId);
    const bad = await env.call('POST', `/v0/inboxes/${encodeURIComponent(b)}/drafts`, { in_reply_to: '<nope@x>' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('in_reply_to');
  });

  it('sends a scheduled draft when its time comes, and not once unscheduled', async () => {
    const soon = new Date(clock.ms() + 3_600_000).toISOString();
    const scheduled = await env.client.inboxes.drafts.create(a, {
      to: [b],
      subject: 'Scheduled',
      text: 'later',
      sendAt: new Date(soon),
    });
    expect(scheduled.sendStatus).toBe('scheduled');
    expect(scheduled.labels).toContain('scheduled');
    const cancelled = await env.client.inboxes.drafts.create(a, {
      to: [b],
      subject: 'Cancelled',
      text: 'never',
      sendAt: new Date(soon),
    });
    await env.client.inboxes.drafts.update(a, cancelled.draftId, { sendAt: null });
    const past = await env.call('POST', `/v0/inboxes/${encodeURIComponent(a)}/drafts`, {
      to: [b],
      send_at: '2001-01-01T00:00:00Z',
    });
    expect(past.status).toBe(400);

    await env.t.hamlet.platform.jobs.idle();
    expect((await env.client.inboxes.messages.list(b, { subject: ['Scheduled'] })).count).toBe(0);
    clock.advance(3_600_000);
    await env.t.hamlet.platform.jobs.idle();
    expect((await env.client.inboxes.messages.list(b, { subject: ['Scheduled'] })).count).toBe(1);
    expect((await env.client.inboxes.messages.list(b, { subject: ['Cancelled'] })).count).toBe(0);
    expect((await env.call('GET', `/v0/inboxes/${encodeURIComponent(a)}/drafts/${scheduled.draftId}`)).status).toBe(
      404,
    );
    const kept = await env.client.inboxes.drafts.get(a, cancelled.draftId);
    expect(kept.sendAt).toBeUndefined();
    expect(kept.labels).not.toContain('scheduled');
  });

  it('printed no "Failed to validate" warnings', () => {
    expect(warn.warnings.filter((w) => w.includes('Failed to validate'))).toEqual([]);
  });
});
