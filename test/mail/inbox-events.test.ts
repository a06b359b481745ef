// AgentMail's log of label changes (GET /v0/inboxes/{inbox_id}/events), read with the npm SDK:
// every label a message gets on arrival and every later change, newest first, paged, scoped to
// the caller's own inboxes.
import { AgentMailClient, AgentMailError } from 'agentmail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { startMail, type MailTestEnv } from './helpers.js';

let env: MailTestEnv;

beforeAll(async () => {
  env = await startMail();
  await env.client.inboxes.create({ username: 'writer' });
  await env.client.inboxes.create({ username: 'reader' });
});

afterAll(async () => {
  await env?.t.destroy();
});

describe('inbox events (label changes)', () => {
  it('logs the labels a message arrives with and every change after, newest first, with the ids of the message and inbox', async () => {
    const sent = await env.client.inboxes.messages.send('writer@mail.test', {
      to: ['reader@mail.test'],
      subject: 'Log me',
      text: 'hello',
    });
    await waitFor(async () => (await env.client.inboxes.messages.list('reader@mail.test')).count === 1, {
      message: 'the delivery',
    });
    await env.client.inboxes.messages.update('reader@mail.test', sent.messageId, {
      addLabels: ['important'],
      removeLabels: ['unread'],
    });

    const { events, count } = await env.client.inboxes.events.list('reader@mail.test');
    const seen = events.map((e) => `${e.eventType} ${e.label}`);
    expect(seen.slice(0, 2).sort()).toEqual(['label.added important', 'label.removed unread']);
    expect(seen.slice(2).sort()).toEqual(['label.added received', 'label.added unread']);
    expect(count).toBe(4);
    const org = (await env.call('GET', '/v0/organizations')).body.organization_id;
    for (const e of events) {
      expect(e).toMatchObject({ inboxId: 'reader@mail.test', messageId: sent.messageId, organizationId: org });
      expect(e.podId).toEqual(expect.any(String));
      expect(e.eventAt).toBeInstanceOf(Date);
    }
    // Oldest first on request; ids sort in the order the events happened.
    const ascending = await env.client.inboxes.events.list('reader@mail.test', { ascending: true });
    expect(ascending.events.map((e) => e.eventId)).toEqual(events.map((e) => e.eventId).reverse());
    // The sender's copy has its own log.
    expect((await env.client.inboxes.events.list('writer@mail.test')).events.map((e) => e.label)).toContain('sent');
  });

  it('pages with limit and the next page token, and stops', async () => {
    const all: string[] = [];
    let pageToken: string | undefined;
    do {
      const page = await env.client.inboxes.events.list('reader@mail.test', { limit: 3, pageToken });
      expect(page.events.length).toBeLessThanOrEqual(3);
      all.push(...page.events.map((e) => e.eventId));
      pageToken = page.nextPageToken;
    } while (pageToken);
    const whole = await env.client.inboxes.events.list('reader@mail.test');
    expect(all).toEqual(whole.events.map((e) => e.eventId));
  });

  it("answers 404 for another organization's inbox and for none, 400 for a bad page token; a deleted inbox takes its log along", async () => {
    const { key } = await env.t.hamlet.platform.keys.create('mail', { name: 'other org' });
    const other = new AgentMailClient({ apiKey: key, baseUrl: env.api, maxRetries: 0 });
    for (const call of [
      () => other.inboxes.events.list('reader@mail.test'),
      () => env.client.inboxes.events.list('nobody@mail.test'),
    ]) {
      const err = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(AgentMailError);
      expect((err as AgentMailError).statusCode).toBe(404);
    }
    expect((await env.call('GET', '/v0/inboxes/reader@mail.test/events?page_token=%00%ff')).status).toBe(400);
    expect((await env.call('GET', '/v0/inboxes/reader@mail.test/events?limit=-1')).status).toBe(400);
    await env.client.inboxes.delete('reader@mail.test');
    await env.client.inboxes.create({ username: 'reader' });
    expect((await env.client.inboxes.events.list('reader@mail.test')).count).toBe(0);
  });
});
