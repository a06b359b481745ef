// Beyond the contract, through the SDK: message and thread search with highlights, thread
// label updates (system labels refused with 422), atomic batch label updates, batch-get.
import { serialization } from 'agentmail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureWarnings, startMail, type MailTestEnv } from './helpers.js';

const passthrough = { unrecognizedObjectKeys: 'passthrough' as const };

describe('search, thread updates and batches', () => {
  let env: MailTestEnv;
  let warn: ReturnType<typeof captureWarnings>;
  let a: string;
  let b: string;
  const ids: string[] = [];

  beforeAll(async () => {
    warn = captureWarnings();
    env = await startMail();
    a = (await env.client.inboxes.create({ username: 'search-a' })).inboxId;
    b = (await env.client.inboxes.create({ username: 'search-b' })).inboxId;
    for (const [subject, text] of [
      ['Quarterly report', 'The numbers for Q3 are attached.'],
      ['Lunch?', 'Pizza or sushi today?'],
      ['Re: Quarterly report', 'Revenue grew by 12 percent.'],
    ])
      ids.push((await env.client.inboxes.messages.send(a, { to: b, subject, text })).messageId);
  });
  afterAll(async () => {
    warn?.restore();
    await env?.t.destroy();
  });

  it('searches messages with every term, newest first, with highlights', async () => {
    const res = await env.client.inboxes.messages.search(b, { q: 'quarterly' });
    expect(res.messages.map((m) => m.subject)).toEqual(['Re: Quarterly report', 'Quarterly report']);
    expect(res.messages[0].highlights?.subject).toEqual(['Re: **Quarterly** report']);
    const both = await env.client.inboxes.messages.search(b, { q: 'revenue QUARTERLY' });
    expect(both.messages.map((m) => m.subject)).toEqual(['Re: Quarterly report']);
    expect(both.messages[0].highlights?.text?.[0]).toContain('**Revenue**');
    const raw = await env.call('GET', `/v0/inboxes/${encodeURIComponent(b)}/messages/search?q=pizza`);
    expect(serialization.SearchMessagesResponse.parse(raw.body, passthrough).ok).toBe(true);
    expect(raw.body.count).toBe(1);
    expect((await env.call('GET', `/v0/inboxes/${encodeURIComponent(b)}/messages/search`)).status).toBe(400);
  });

  it('searches threads per inbox and across the organization', async () => {
    const res = await env.client.inboxes.threads.search(b, { q: 'lunch' });
    expect(res.threads.map((t) => t.subject)).toEqual(['Lunch?']);
    const org = await env.client.threads.search({ q: 'quarterly' });
    expect(org.threads.length).toBeGreaterThanOrEqual(1);
    expect(org.threads.every((t) => /quarterly/i.test(t.subject ?? ''))).toBe(true);
  });

  it('updates thread labels, refusing system labels', async () => {
    const thread = (await env.client.inboxes.messages.get(b, ids[1])).threadId;
    const res = await env.client.inboxes.threads.update(b, thread, { addLabels: ['food'], removeLabels: ['unread'] });
    expect(res.labels).toContain('food');
    expect(res.labels).not.toContain('unread');
    expect((await env.client.inboxes.messages.get(b, ids[1])).labels).toEqual(
      expect.arrayContaining(['received', 'food']),
    );
    const refused = await env.call('PATCH', `/v0/inboxes/${encodeURIComponent(b)}/threads/${thread}`, {
      remove_labels: ['received'],
    });
    expect(refused.status).toBe(422);
    expect((await env.client.inboxes.messages.get(b, ids[1])).labels).toContain('received');
  });

  it('updates labels of many messages at once, all or nothing; batch-get leaves unknown ids out', async () => {
    const res = await env.client.inboxes.messages.batchUpdate(b, {
      messageIds: [ids[0], ids[2]],
      addLabels: ['finance'],
    });
    expect(res.count).toBe(2);
    expect(res.updates.every((u) => u.labels.includes('finance'))).toBe(true);
    const failed = await env.call('POST', `/v0/inboxes/${encodeURIComponent(b)}/messages/batch-update`, {
      message_ids: [ids[1], '<nope@x>'],
      add_labels: ['x'],
    });
    expect(failed.status).toBe(404);
    expect((await env.client.inboxes.messages.get(b, ids[1])).labels).not.toContain('x');
    const got = await env.client.inboxes.messages.batchGet(b, { messageIds: [ids[0], '<nope@x>'] });
    expect(got.messages.map((m) => m.messageId)).toEqual([ids[0]]);
    const finance = await env.client.inboxes.messages.list(b, { labels: ['finance'] });
    expect(finance.count).toBe(2);
  });

  it('printed no "Failed to validate" warnings', () => {
    expect(warn.warnings.filter((w) => w.includes('Failed to validate'))).toEqual([]);
  });
});
