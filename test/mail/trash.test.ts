// DELETE without permanent=true never deletes: threads, messages and drafts move to the trash
// (label `trash`, hidden from lists unless include_trash=true) and come back when the label
// is taken off; only permanent=true removes anything, and then for good.
import { AgentMail } from 'agentmail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMail, type MailTestEnv } from './helpers.js';

describe('mail trash', () => {
  let env: MailTestEnv;
  let a: string;
  let b: string;
  const enc = encodeURIComponent;

  beforeAll(async () => {
    env = await startMail();
    a = (await env.client.inboxes.create({ username: 'trash-a' })).inboxId;
    b = (await env.client.inboxes.create({ username: 'trash-b' })).inboxId;
  });
  afterAll(async () => env?.t.destroy());

  async function conversation(subject: string) {
    const c = env.client;
    const first = await c.inboxes.messages.send(a, { to: b, subject, text: 'one' });
    const inB = (await c.inboxes.messages.list(b, { subject: [subject] })).messages[0];
    await c.inboxes.messages.reply(b, inB.messageId, { text: 'two' });
    return { threadId: first.threadId, messageId: first.messageId };
  }

  it('a thread DELETE, even repeated, only trashes; the messages and their raw copies stay; taking the label off restores it', async () => {
    const c = env.client;
    const { threadId, messageId } = await conversation('Trash me');
    for (let i = 0; i < 2; i++) {
      const res = await env.call('DELETE', `/v0/inboxes/${enc(a)}/threads/${threadId}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ deleted: false, trashed: true, thread_id: threadId });
    }
    expect((await c.inboxes.threads.list(a)).threads.map((t) => t.threadId)).not.toContain(threadId);
    expect((await c.threads.list()).threads.map((t) => t.threadId)).not.toContain(threadId);
    expect((await c.inboxes.threads.list(a, { includeTrash: true })).threads.map((t) => t.threadId)).toContain(
      threadId,
    );
    expect(
      (await c.inboxes.threads.list(a, { labels: ['trash'], includeTrash: true })).threads.map((t) => t.threadId),
    ).toEqual([threadId]);
    const thread = await c.inboxes.threads.get(a, threadId);
    expect(thread.messageCount).toBe(2);
    expect(thread.messages.every((m) => m.labels.includes('trash'))).toBe(true);
    expect((await c.inboxes.messages.list(a)).messages.map((m) => m.messageId)).not.toContain(messageId);
    expect((await c.inboxes.messages.list(a, { includeTrash: true })).messages.map((m) => m.messageId)).toContain(
      messageId,
    );
    expect((await c.inboxes.messages.search(a, { q: 'Trash me' })).messages).toEqual([]);
    const raw = await c.inboxes.messages.getRaw(a, messageId);
    expect(await (await fetch(raw.downloadUrl)).text()).toContain('Subject: Trash me');

    const restored = await c.inboxes.threads.update(a, threadId, { removeLabels: ['trash'] });
    expect(restored.labels).not.toContain('trash');
    expect((await c.inboxes.threads.list(a)).threads.map((t) => t.threadId)).toContain(threadId);
    // The other inbox's copy of the conversation was never touched.
    expect((await c.inboxes.messages.list(b, { subject: ['Trash me'] })).messages.length).toBe(2);
  });

  it('one trashed message does not hide its thread; new mail brings a trashed thread back', async () => {
    const c = env.client;
    const { threadId, messageId } = await conversation('Partly trashed');
    const res = await env.call('DELETE', `/v0/inboxes/${enc(a)}/messages/${enc(messageId)}`);
    expect(res.body).toMatchObject({ deleted: false, trashed: true });
    expect((await c.inboxes.messages.get(a, messageId)).labels).toContain('trash');
    expect((await c.inboxes.threads.list(a)).threads.map((t) => t.threadId)).toContain(threadId);
    expect((await c.inboxes.threads.get(a, threadId)).labels).not.toContain('trash');

    await c.threads.delete(threadId);
    expect((await c.inboxes.threads.list(a)).threads.map((t) => t.threadId)).not.toContain(threadId);
    const last = (await c.inboxes.messages.list(b, { subject: ['Partly trashed'] })).messages[0];
    await c.inboxes.messages.reply(b, last.messageId, { text: 'three' });
    const back = await c.inboxes.threads.get(a, threadId);
    expect(back.labels).not.toContain('trash');
    expect(back.messageCount).toBe(3);
    expect((await c.inboxes.threads.list(a)).threads.map((t) => t.threadId)).toContain(threadId);
  });

  it('a draft DELETE trashes it and cancels its scheduled send; permanent=true deletes it', async () => {
    const c = env.client;
    const sendAt = new Date(Date.now() + 3_600_000);
    const draft = await c.inboxes.drafts.create(a, { to: [b], subject: 'Later', text: 'x', sendAt });
    expect(draft.sendStatus).toBe('scheduled');
    const res = await env.call('DELETE', `/v0/inboxes/${enc(a)}/drafts/${draft.draftId}`);
    expect(res.body).toEqual({ deleted: false, trashed: true, draft_id: draft.draftId });
    const trashed = await c.inboxes.drafts.get(a, draft.draftId);
    expect(trashed.labels).toContain('trash');
    expect(trashed.labels).not.toContain('scheduled');
    expect(trashed.sendAt).toBeUndefined();
    expect(trashed.text).toBe('x');
    expect((await c.inboxes.drafts.list(a)).drafts.map((d) => d.draftId)).not.toContain(draft.draftId);
    const withTrash = await env.call('GET', `/v0/inboxes/${enc(a)}/drafts?include_trash=true`);
    expect(withTrash.body.drafts.map((d: { draft_id: string }) => d.draft_id)).toContain(draft.draftId);

    const gone = await env.call('DELETE', `/v0/inboxes/${enc(a)}/drafts/${draft.draftId}?permanent=true`);
    expect(gone.body).toEqual({ deleted: true, trashed: false, draft_id: draft.draftId });
    await expect(c.inboxes.drafts.get(a, draft.draftId)).rejects.toBeInstanceOf(AgentMail.NotFoundError);
  });

  it('permanent=true deletes a message and a thread for good; a bad value is refused', async () => {
    const c = env.client;
    const { threadId, messageId } = await conversation('Gone for good');
    const bad = await env.call('DELETE', `/v0/inboxes/${enc(a)}/messages/${enc(messageId)}?permanent=maybe`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('permanent');
    expect((await c.inboxes.messages.get(a, messageId)).labels).not.toContain('trash');

    const msg = await env.call('DELETE', `/v0/inboxes/${enc(a)}/messages/${enc(messageId)}?permanent=true`);
    expect(msg.body).toEqual({ deleted: true, trashed: false, message_id: messageId });
    await expect(c.inboxes.messages.get(a, messageId)).rejects.toBeInstanceOf(AgentMail.NotFoundError);
    expect((await c.inboxes.threads.get(a, threadId)).messageCount).toBe(1);

    const thr = await env.call('DELETE', `/v0/threads/${threadId}?permanent=true`);
    expect(thr.body).toEqual({ deleted: true, trashed: false, thread_id: threadId });
    await expect(c.threads.get(threadId)).rejects.toBeInstanceOf(AgentMail.NotFoundError);
    // The recipient's copies live in the recipient's own thread and stay.
    expect((await c.inboxes.messages.list(b, { subject: ['Gone for good'] })).messages.length).toBe(2);
  });
});
