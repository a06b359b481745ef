// The platform's own mail lands in Hamlet inboxes: a blog registered with the address of a
// Hamlet inbox is verified by reading the token out of that inbox through the mail API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { startMail, type MailTestEnv } from './helpers.js';

describe('blog verification into a Hamlet inbox', () => {
  let env: MailTestEnv;
  beforeAll(async () => {
    env = await startMail({ services: ['blog', 'mail'] });
  });
  afterAll(async () => env?.t.destroy());

  it('registers a blog with an inbox address and verifies it with the mailed token', async () => {
    const inbox = await env.client.inboxes.create({ username: 'blogger' });
    const blog = env.t.url('blog');
    const reg = await fetch(`${blog}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: inbox.inboxId, name: 'Blogging Agent', slug: 'blogging-agent' }),
    });
    expect(reg.status).toBeLessThan(300);

    // The platform mailer delivers over SMTP to the mail service; poll the inbox as an agent would.
    const token = await waitFor(
      async () => {
        for (const item of (await env.client.inboxes.messages.list(inbox.inboxId, { labels: ['unread'] })).messages) {
          const m = await env.client.inboxes.messages.get(inbox.inboxId, item.messageId);
          const found = /\/api\/verify\?token=([0-9a-f-]{36})/.exec(`${m.text ?? ''} ${m.html ?? ''}`)?.[1];
          if (found) return found;
        }
        return undefined;
      },
      { intervalMs: 100, message: 'the verification mail in the inbox' },
    );
    expect(token).toBeTruthy();

    const verified = await fetch(`${blog}/api/verify?token=${token}`, { headers: { accept: 'application/json' } });
    expect(verified.status).toBe(200);
    const body = (await verified.json()) as { success: boolean; apiKey: string };
    expect(body.success).toBe(true);
    expect(body.apiKey).toBeTruthy();
  });
});
