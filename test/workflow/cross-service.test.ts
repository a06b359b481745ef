// The cross-service case: a workflow triggered by a new mail in a Hamlet inbox
// publishes a blog post with the mail's subject and turns on a home light. Every hop is the
// real service over HTTP: mail's AgentMail webhook → the workflow's Mail Trigger → the blog's
// publish API and the home's service-call API. Also: a community post and a home state
// change start workflows through the platform event bus.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { wrap, type WorkflowTestServer } from './helpers.js';
import { waitFor } from '../helpers/wait.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

let t: TestHamlet;
let s: WorkflowTestServer;
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  t = await startTestHamlet({
    services: ['mail', 'blog', 'home', 'community', 'workflow'],
    env: { HAMLET_ALLOW_INTERNAL_REQUESTS: '1', HAMLET_RATE_LIMITS: 'off' },
  });
  s = await wrap(t);
}, 60_000);
afterAll(() => t?.destroy());

async function mailApi(key: string, method: string, path: string, body?: unknown) {
  const r = await fetch(t.url('mail') + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...json },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: await r.json().catch<any>(() => undefined) };
}

/** A blog key, obtained the way an agent does: register with a Hamlet inbox and follow the mailed link. */
async function blogKey(mailKey: string): Promise<string> {
  const inbox = (await mailApi(mailKey, 'POST', '/v0/inboxes', { username: 'blogger' })).body.inbox_id as string;
  const reg = await fetch(`${t.url('blog')}/api/register`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email: inbox, name: 'Workflow Agent', slug: 'workflow-agent' }),
  });
  expect(reg.status).toBeLessThan(300);
  const token = await waitFor(
    async () => {
      const list = (await mailApi(mailKey, 'GET', `/v0/inboxes/${encodeURIComponent(inbox)}/messages`)).body
        .messages as any[];
      for (const m of list) {
        const full = (
          await mailApi(
            mailKey,
            'GET',
            `/v0/inboxes/${encodeURIComponent(inbox)}/messages/${encodeURIComponent(m.message_id)}`,
          )
        ).body;
        const found = /\/api\/verify\?token=([0-9a-f-]{36})/.exec(`${full.text ?? ''} ${full.html ?? ''}`)?.[1];
        if (found) return found;
      }
      return undefined;
    },
    { timeoutMs: 15_000, message: 'the verification mail in the inbox' },
  );
  const verified = await fetch(`${t.url('blog')}/api/verify?token=${token}`, {
    headers: { accept: 'application/json' },
  });
  return ((await verified.json()) as { apiKey: string }).apiKey;
}

test('a new mail publishes a blog post with its subject and turns on a light', async () => {
  const mailKey = (await t.hamlet.platform.keys.create('mail')).key;
  const homeKey = (await t.hamlet.platform.keys.create('home')).key;
  const blog = await blogKey(mailKey);
  const states = (await (
    await fetch(`${t.url('home')}/api/states`, { headers: { authorization: `Bearer ${homeKey}` } })
  ).json()) as any[];
  const light = states.find((e) => e.entity_id.startsWith('light.'))!;
  expect(light).toBeTruthy();
  await fetch(`${t.url('home')}/api/services/light/turn_off`, {
    method: 'POST',
    headers: { authorization: `Bearer ${homeKey}`, ...json },
    body: JSON.stringify({ entity_id: light.entity_id }),
  });

  const wf = await s.api('POST', '/workflows', {
    name: 'mail to blog and light',
    nodes: [
      {
        name: 'New mail',
        type: 'hamlet.mailTrigger',
        typeVersion: 1,
        position: [0, 0],
        parameters: { path: 'new-mail' },
      },
      {
        name: 'Publish',
        type: 'hamlet.blog',
        typeVersion: 1,
        position: [200, 0],
        parameters: {
          baseUrl: t.url('blog'),
          apiKey: blog,
          title: '={{ $json.subject }}',
          content: '=Mail from {{ $json.from }}',
        },
      },
      {
        name: 'Light on',
        type: 'hamlet.home',
        typeVersion: 1,
        position: [400, 0],
        parameters: {
          baseUrl: t.url('home'),
          apiKey: homeKey,
          domain: 'light',
          service: 'turn_on',
          entityId: light.entity_id,
        },
      },
    ],
    connections: {
      'New mail': { main: [[{ node: 'Publish', type: 'main', index: 0 }]] },
      Publish: { main: [[{ node: 'Light on', type: 'main', index: 0 }]] },
    },
    settings: { executionOrder: 'v1' },
  });
  expect((await s.api('POST', `/workflows/${wf.body.id}/activate`)).status).toBe(200);

  const inbox = (await mailApi(mailKey, 'POST', '/v0/inboxes', { username: 'watched' })).body.inbox_id as string;
  const sender = (await mailApi(mailKey, 'POST', '/v0/inboxes', { username: 'sender' })).body.inbox_id as string;
  const hook = await mailApi(mailKey, 'POST', '/v0/webhooks', {
    url: `${s.url}/webhook/new-mail`,
    event_types: ['message.received'],
    inbox_ids: [inbox],
  });
  expect(hook.status).toBeLessThan(300);
  const sent = await mailApi(mailKey, 'POST', `/v0/inboxes/${encodeURIComponent(sender)}/messages/send`, {
    to: [inbox],
    subject: 'Quarterly garden report',
    text: 'Tomatoes are up.',
  });
  expect(sent.status).toBeLessThan(300);

  const exec = await waitFor(
    async () => {
      await t.hamlet.platform.jobs.idle();
      const [e] = (await s.api('GET', `/executions?workflowId=${wf.body.id}&includeData=true`)).body.data;
      expect(e?.status).toBe('success');
      return e;
    },
    { timeoutMs: 20_000, message: 'the webhook run to succeed' },
  );
  expect(exec.mode).toBe('webhook');
  const post = exec.data.resultData.runData.Publish[0].data.main[0][0].json.post;
  expect(post).toMatchObject({ title: 'Quarterly garden report', status: 'published' });
  const stored = await (await fetch(`${t.url('blog')}/api/posts/${post.id}`)).json();
  expect(JSON.stringify(stored)).toContain('Quarterly garden report');
  const after = await (
    await fetch(`${t.url('home')}/api/states/${light.entity_id}`, { headers: { authorization: `Bearer ${homeKey}` } })
  ).json();
  expect(after.state).toBe('on');
}, 60_000);

test('a home state change starts a workflow through the event bus', async () => {
  const homeKey = (await t.hamlet.platform.keys.create('home')).key;
  const wf = await s.api('POST', '/workflows', {
    name: 'on light change',
    nodes: [
      {
        name: 'Light changed',
        type: 'hamlet.homeTrigger',
        typeVersion: 1,
        position: [0, 0],
        parameters: { entityId: 'sensor.workflow_test', to: 'hot' },
      },
    ],
    connections: {},
    settings: { executionOrder: 'v1' },
  });
  expect((await s.api('POST', `/workflows/${wf.body.id}/activate`)).status).toBe(200);
  const set = (state: string) =>
    fetch(`${t.url('home')}/api/states/sensor.workflow_test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${homeKey}`, ...json },
      body: JSON.stringify({ state }),
    });
  await set('cold');
  await set('hot');
  const e = await waitFor(
    async () => {
      await t.hamlet.platform.jobs.idle();
      const list = (await s.api('GET', `/executions?workflowId=${wf.body.id}&includeData=true`)).body.data;
      expect(list.length).toBe(1);
      expect(list[0].status).toBe('success');
      return list[0];
    },
    { message: 'one successful trigger run' },
  );
  expect(e.mode).toBe('trigger');
  expect(e.data.resultData.runData['Light changed'][0].data.main[0][0].json).toMatchObject({
    entity_id: 'sensor.workflow_test',
    new_state: { state: 'hot' },
    old_state: { state: 'cold' },
  });
}, 30_000);

test('a new community post starts a workflow that comments on it', async () => {
  const c = t.url('community');
  const reg = await (
    await fetch(`${c}/api/v1/agents/register`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'flow_agent', description: 'runs workflows' }),
    })
  ).json();
  const key = reg.agent.api_key as string;
  const auth = { authorization: `Bearer ${key}`, ...json };
  expect(
    (
      await fetch(`${c}/api/v1/submolts`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name: 'gardens', description: 'green things' }),
      })
    ).status,
  ).toBeLessThan(300);
  const wf = await s.api('POST', '/workflows', {
    name: 'welcome posts',
    nodes: [
      {
        name: 'New post',
        type: 'hamlet.communityTrigger',
        typeVersion: 1,
        position: [0, 0],
        parameters: { community: 'gardens' },
      },
      {
        name: 'Comment',
        type: 'hamlet.community',
        typeVersion: 1,
        position: [200, 0],
        parameters: {
          operation: 'comment',
          baseUrl: c,
          apiKey: key,
          postId: '={{ $json.id }}',
          content: '=Welcome, {{ $json.title }}!',
        },
      },
    ],
    connections: { 'New post': { main: [[{ node: 'Comment', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
  });
  expect((await s.api('POST', `/workflows/${wf.body.id}/activate`)).status).toBe(200);
  const post = await (
    await fetch(`${c}/api/v1/posts`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ submolt: 'gardens', title: 'First sprouts', content: 'Look!' }),
    })
  ).json();
  await waitFor(
    async () => {
      await t.hamlet.platform.jobs.idle();
      const [e] = (await s.api('GET', `/executions?workflowId=${wf.body.id}`)).body.data;
      return e?.status === 'success';
    },
    { message: 'the comment run to succeed' },
  );
  const comments = await (await fetch(`${c}/api/v1/posts/${post.post.id}/comments`, { headers: auth })).json();
  expect(JSON.stringify(comments)).toContain('Welcome, First sprouts!');
}, 30_000);
