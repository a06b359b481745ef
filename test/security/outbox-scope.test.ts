// Issue 27, finding 5: the mail outbox held the platform's own mail (a blog's verification link,
// then its API key) where any mail key could list it, so an agent under evaluation could take
// over every other agent's blog. Now platform mail is the operator's alone (the console's own
// key, `hamlet mail outbox`); an agent's key sees its own organization's held mail, narrowed to
// its inbox or pod when the key is scoped. And with the mail service running, the blog no longer
// writes verification links to the log: the outbox holds them.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { startHamlet, type Hamlet } from '../../src/server.js';
import { testEnv, testStorage } from '../helpers/hamlet.js';
import { waitFor } from '../helpers/wait.js';

const TOKEN = /\/api\/verify\?token=([0-9a-f-]{36})/;

describe("the outbox against agents reading other agents' secrets", () => {
  let hamlet: Hamlet;
  let storage: Awaited<ReturnType<typeof testStorage>>;
  const lines: string[] = [];
  let mailApi: string;
  let blogApi: string;
  let agentKey: string;
  let operatorKey: string;
  let agentInbox: string;

  const get = async (key: string, path: string) => {
    const res = await fetch(mailApi + path, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: await res.json() };
  };
  const post = async (key: string, path: string, body: unknown) => {
    const res = await fetch(mailApi + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    storage = await testStorage();
    const destination = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const config = loadConfig(
      testEnv(storage, ['blog', 'mail'], {
        HAMLET_LOG_LEVEL: 'info',
        HAMLET_RATE_LIMITS: 'off',
        MAIL_DOMAIN: 'mail.test',
      }),
    );
    hamlet = await startHamlet(config, { logger: createLogger({ level: 'info', pretty: false, destination }) });
    mailApi = hamlet.services.mail!.urls.api!;
    blogApi = hamlet.services.blog!.urls.api!;
    // An agent's key, as the operator hands them out (`hamlet keys create mail`), and the key the
    // console mints for itself.
    agentKey = (await hamlet.platform.keys.create('mail', { name: 'agent under evaluation' })).key;
    operatorKey = (await hamlet.platform.keys.create('mail', { name: 'hamlet-console' })).key;
    agentInbox = (await post(agentKey, '/v0/inboxes', { username: 'evaluated' })).body.inbox_id;
    expect(
      (
        await post(agentKey, `/v0/inboxes/${agentInbox}/messages/send`, {
          to: 'friend@outside.test',
          subject: 'My own held mail',
          text: 'mine',
        })
      ).status,
    ).toBe(200);

    // Another agent signs up for a blog with an outside address: no relay, so the verification
    // mail is held in the outbox.
    const reg = await fetch(`${blogApi}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'victim@example.org', name: 'Victim', slug: 'victim' }),
    });
    expect(reg.status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await hamlet?.stop();
    await storage?.drop();
  });

  const heldVerification = () =>
    waitFor(
      async () =>
        ((await get(operatorKey, '/v0/outbox')).body.messages as any[]).find((m) =>
          m.to.includes('victim@example.org'),
        ),
      { message: "the blog's verification mail in the operator's outbox" },
    );

  it("shows the platform's held mail to the operator's key, with its link", async () => {
    const held = await heldVerification();
    expect(held).toMatchObject({ source: 'platform', status: 'queued' });
    expect(held.text).toMatch(TOKEN);
    expect((await get(operatorKey, `/v0/outbox/${held.outbox_id}`)).status).toBe(200);
  });

  it("hides the platform's held mail from an agent's key: not listed, 404 by id", async () => {
    const held = await heldVerification();
    const list = await get(agentKey, '/v0/outbox');
    expect(list.status).toBe(200);
    expect(list.body.messages.map((m: any) => m.subject)).toEqual(['My own held mail']);
    expect(JSON.stringify(list.body)).not.toMatch(TOKEN);
    expect((await get(agentKey, `/v0/outbox/${held.outbox_id}`)).status).toBe(404);
  });

  it("gives nothing to a key an agent mints and names like the console's", async () => {
    const held = await heldVerification();
    const minted = await post(agentKey, '/v0/api-keys', { name: 'hamlet-console' });
    expect(minted.status).toBe(200);
    const list = await get(minted.body.api_key, '/v0/outbox');
    expect(list.body.messages.map((m: any) => m.source)).toEqual(['inbox']);
    expect((await get(minted.body.api_key, `/v0/outbox/${held.outbox_id}`)).status).toBe(404);
  });

  it("narrows an inbox-scoped key to its inbox's held mail", async () => {
    const other = (await post(agentKey, '/v0/inboxes', { username: 'evaluated-two' })).body.inbox_id;
    await post(agentKey, `/v0/inboxes/${other}/messages/send`, {
      to: 'friend@outside.test',
      subject: 'From the second inbox',
      text: 'two',
    });
    const scoped = await post(agentKey, `/v0/inboxes/${other}/api-keys`, { name: 'one inbox' });
    expect(scoped.status).toBe(200);
    const list = await get(scoped.body.api_key, '/v0/outbox');
    expect(list.body.messages.map((m: any) => m.subject)).toEqual(['From the second inbox']);
    const first = (await get(agentKey, '/v0/outbox')).body.messages.find((m: any) => m.subject === 'My own held mail');
    expect((await get(scoped.body.api_key, `/v0/outbox/${first.outbox_id}`)).status).toBe(404);
  });

  it("narrows a pod-scoped key to its pod's inboxes' held mail", async () => {
    const pod = (await post(agentKey, '/v0/pods', { name: 'one pod' })).body.pod_id;
    const podInbox = (await post(agentKey, `/v0/pods/${pod}/inboxes`, { username: 'in-the-pod' })).body.inbox_id;
    await post(agentKey, `/v0/inboxes/${podInbox}/messages/send`, {
      to: 'friend@outside.test',
      subject: 'From the pod',
      text: 'pod',
    });
    const scoped = await post(agentKey, `/v0/pods/${pod}/api-keys`, { name: 'one pod' });
    expect(scoped.status).toBe(200);
    expect((await get(scoped.body.api_key, '/v0/outbox')).body.messages.map((m: any) => m.subject)).toEqual([
      'From the pod',
    ]);
  });

  it('writes no verification link to the log while the mail service holds the mail', async () => {
    await heldVerification();
    const log = lines.join('');
    expect(log).toContain('held in the mail outbox');
    expect(log).not.toContain('Verification link');
    expect(log).not.toMatch(TOKEN);
  });
});
