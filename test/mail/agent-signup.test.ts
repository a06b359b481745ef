// AgentMail's agent sign-up, driven with the agentmail npm SDK as an agent would: a new
// organization with an inbox and a key, its restrictions until the person it names confirms it
// with the code mailed to them (read here from that person's Hamlet inbox), verification, a
// repeat sign-up, and the hostile cases (codes guessed, usernames taken, bad input).
import { AgentMailClient, AgentMailError } from 'agentmail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { waitFor } from '../helpers/wait.js';
import { startMail, type MailTestEnv } from './helpers.js';

let env: MailTestEnv;
// The daily send count runs on the platform clock: the test moves it to the next day.
const clock = new ManualClock(Date.now());
const HUMAN = 'person@mail.test';

/** The SDK's error for a call that must fail, to read its status and body. */
async function refused(call: Promise<unknown>): Promise<{ status: number; body: any }> {
  try {
    await call;
  } catch (err) {
    if (err instanceof AgentMailError) return { status: err.statusCode ?? 0, body: err.body };
    throw err;
  }
  throw new Error('the call succeeded');
}

/** The newest code mailed to `human` (it arrives over SMTP into that person's Hamlet inbox). */
async function codeMailedTo(human: string): Promise<string> {
  return waitFor(
    async () => {
      const { messages } = await env.client.inboxes.messages.list(human);
      const mail = messages.find((m) => m.subject === "Your agent's verification code");
      if (!mail) return undefined;
      return (await env.client.inboxes.messages.get(human, mail.messageId)).text?.match(
        /verification code: (\d{6})/,
      )?.[1];
    },
    { message: `a verification code in ${human}'s inbox` },
  );
}

const agentClient = (apiKey: string) => new AgentMailClient({ apiKey, baseUrl: env.api, maxRetries: 0 });

beforeAll(async () => {
  env = await startMail({ clock });
  await env.client.inboxes.create({ username: 'person' });
  await env.client.inboxes.create({ username: 'stranger' });
});

afterAll(async () => {
  await env?.t.destroy();
});

describe('agent sign-up (POST /v0/agent/sign-up, /human, /verify)', () => {
  it('signs up without a key, works restricted until the code mailed to its human is given, then freely', async () => {
    const signedUp = await new AgentMailClient({ apiKey: 'no key yet', baseUrl: env.api, maxRetries: 0 }).agent.signUp({
      humanEmail: HUMAN,
      username: 'Scout',
    });
    expect(signedUp.inboxId).toBe('scout@mail.test');
    expect(signedUp.apiKey).toMatch(/^hamlet_mail_/);
    const agent = agentClient(signedUp.apiKey);
    expect((await agent.inboxes.list()).inboxes.map((i) => i.inboxId)).toEqual(['scout@mail.test']);

    // Restricted: one inbox, no keys, pods or domains, mail only to its human.
    expect(await refused(agent.inboxes.create({ username: 'second' }))).toMatchObject({
      status: 403,
      body: { message: expect.stringContaining('Inbox limit exceeded') },
    });
    expect((await refused(agent.apiKeys.create({ name: 'more' }))).status).toBe(403);
    expect((await refused(agent.pods.create({ name: 'pod' }))).status).toBe(403);
    expect((await refused(agent.domains.create({ domain: 'agent.example', feedbackEnabled: false }))).status).toBe(403);
    const blocked = await refused(
      agent.inboxes.messages.send('scout@mail.test', {
        to: ['stranger@mail.test', HUMAN],
        subject: 'hi',
        text: 'hello',
      }),
    );
    expect(blocked.status).toBe(403);
    expect(blocked.body.message).toBe('Message rejected: Recipient(s) blocked: stranger@mail.test (not in allow list)');
    expect((await env.client.inboxes.messages.list('stranger@mail.test')).count).toBe(0);
    await agent.inboxes.messages.send('scout@mail.test', { to: [HUMAN], subject: 'Hello human', text: 'It is me.' });

    const code = await codeMailedTo(HUMAN);
    const wrong = code === '000000' ? '000001' : '000000';
    const miss = await refused(agent.agent.verify({ otpCode: wrong }));
    expect(miss.status).toBe(400);
    expect(miss.body.message).toContain('9 attempts left');
    expect(await agent.agent.verify({ otpCode: code })).toEqual({ verified: true });
    expect(await agent.agent.verify({ otpCode: code })).toEqual({ verified: true });

    // Verified: the restrictions are gone.
    await agent.inboxes.messages.send('scout@mail.test', {
      to: ['stranger@mail.test'],
      subject: 'Now free',
      text: 'hello',
    });
    await agent.inboxes.create({ username: 'scout-two' });
    await agent.apiKeys.create({ name: 'more' });
    // The person's organization is verified: signing up again does not hand out its keys.
    const again = await refused(
      new AgentMailClient({ apiKey: 'x', baseUrl: env.api, maxRetries: 0 }).agent.signUp({
        humanEmail: HUMAN,
        username: 'scout',
      }),
    );
    expect(again.status).toBe(409);
  });

  it('a repeat sign-up of the same person rotates the key (the old one stops working) and keeps the organization', async () => {
    const anon = agentClient('none');
    const first = await anon.agent.signUp({ humanEmail: 'Twice <twice@example.org>', username: 'twice' });
    const second = await anon.agent.signUp({ humanEmail: 'twice@example.org', username: 'another-name' });
    expect(second.organizationId).toBe(first.organizationId);
    expect(second.inboxId).toBe('twice@mail.test');
    expect(second.apiKey).not.toBe(first.apiKey);
    expect((await refused(agentClient(first.apiKey).inboxes.list())).status).toBe(401);
    expect((await agentClient(second.apiKey).inboxes.list()).count).toBe(1);
  });

  it('without a human, the inbox receives but cannot send; attaching one mails a code', async () => {
    // AgentMail made human_email optional after the SDK 0.5.27 this repository drives (which still requires it).
    const res0 = await fetch(`${env.api}/v0/agent/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'loner' }),
    });
    expect(res0.status).toBe(200);
    const signedUp = (await res0.json()) as { api_key: string };
    const agent = agentClient(signedUp.api_key);
    await env.client.inboxes.messages.send('stranger@mail.test', {
      to: ['loner@mail.test'],
      subject: 'Welcome',
      text: 'hi',
    });
    await waitFor(async () => (await agent.inboxes.messages.list('loner@mail.test')).count === 1, {
      message: 'the mail to loner',
    });
    expect(
      (
        await refused(
          agent.inboxes.messages.send('loner@mail.test', { to: ['stranger@mail.test'], subject: 'x', text: 'y' }),
        )
      ).status,
    ).toBe(403);
    // No code was sent yet: there is none to check.
    expect((await refused(agent.agent.verify({ otpCode: '123456' }))).status).toBe(400);

    const attach = (human_email: string) =>
      fetch(`${env.api}/v0/agent/human`, {
        method: 'POST',
        headers: { authorization: `Bearer ${signedUp.api_key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ human_email }),
      });
    await env.client.inboxes.create({ username: 'lonely-human' });
    const res = await attach('lonely-human@mail.test');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ human_email: 'lonely-human@mail.test' });
    const code = await codeMailedTo('lonely-human@mail.test');
    // The same person again while the code is valid: the same code stands, none is mailed.
    expect((await attach('lonely-human@mail.test')).status).toBe(200);
    // Replacing the human: twice, then refused.
    expect((await attach('other-1@example.org')).status).toBe(200);
    expect((await attach('other-2@example.org')).status).toBe(200);
    expect((await attach('other-3@example.org')).status).toBe(403);
    // The first person's code no longer verifies: a new one went to the new human.
    expect((await refused(agent.agent.verify({ otpCode: code }))).status).toBe(400);
  });

  it('ten wrong codes lock verification, the right one included; nobody else can verify an organization', async () => {
    const signedUp = await agentClient('none').agent.signUp({ humanEmail: 'locked@mail.test', username: 'guesser' });
    await env.client.inboxes.create({ username: 'locked' });
    const agent = agentClient(signedUp.apiKey);
    const code = await codeMailedTo('locked@mail.test');
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 10; i++) expect((await refused(agent.agent.verify({ otpCode: wrong }))).status).toBe(400);
    const locked = await refused(agent.agent.verify({ otpCode: code }));
    expect(locked.status).toBe(403);
    expect(locked.body.message).toContain('attempts');
    // An operator's organization has no sign-up to verify.
    expect((await refused(env.client.agent.verify({ otpCode: code }))).status).toBe(404);
  });

  it('an unverified organization sends ten emails a day to its human, counting each recipient, then 429 with Retry-After', async () => {
    const signedUp = await agentClient('none').agent.signUp({ humanEmail: 'busy@example.org', username: 'chatty' });
    const send = (n: number) =>
      fetch(`${env.api}/v0/inboxes/chatty@mail.test/messages/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${signedUp.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to: Array(n).fill('busy@example.org'), cc: [], subject: 'ping', text: 'ping' }),
      });
    for (let i = 0; i < 10; i++) expect((await send(1)).status).toBe(200);
    const limited = await send(1);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited.json()) as { message: string }).message).toContain('Daily send limit exceeded');
    // A new day on the platform clock: sending works again.
    clock.advance(86_400_000);
    expect((await send(1)).status).toBe(200);
  });

  it('refuses bad input with a 400 naming the field, a taken username with 409, and changes nothing', async () => {
    const post = (body: unknown) =>
      fetch(`${env.api}/v0/agent/sign-up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const cases: Array<[unknown, number, string]> = [
      [{ username: 'bad name' }, 400, 'username'],
      [{ username: '' }, 400, 'username'],
      [{ username: 'x'.repeat(65) }, 400, 'username'],
      [{ human_email: 'not an address', username: 'fine' }, 400, 'human_email'],
      [{ human_email: 'a@b.example' }, 400, 'username'],
      [{ username: { $ne: 1 } }, 400, 'username'],
      [{ username: 'person' }, 409, 'taken'],
    ];
    const before = (await env.client.inboxes.list()).count;
    for (const [body, status, word] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(await res.text(), JSON.stringify(body)).toContain(word);
    }
    expect((await env.client.inboxes.list()).count).toBe(before);
    const keys = await env.t.hamlet.platform.keys.list('mail');
    // Every refused sign-up's key (made before the inbox was refused) is revoked.
    expect(keys.filter((k) => k.name === 'agent sign-up' && !k.revokedAt).length).toBe(5);
  });
});
