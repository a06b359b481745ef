// Each service's main flow through HAProxy in front of two API instances and one worker, on
// one PostgreSQL schema and one Redis (the cluster of `npm run cluster`). HAProxy balances per
// request, so a client's consecutive calls alternate between the instances; every read that
// checks a write is one served by the other instance than the write. Then the cases that need
// more than one instance to mean anything: the home's WebSocket across instances and a
// schedule that must fire once per tick, not once per instance.
// Runs where PostgreSQL, Redis and haproxy are present (the PostgreSQL step of .ci/run).
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smtpSend } from '../mail/helpers.js';
import { waitFor } from '../helpers/wait.js';
import { webhookWorkflow } from '../workflow/helpers.js';
import {
  CLUSTER_START_MS,
  clusterEnabled,
  expectStatus,
  startClusterRig,
  type ClusterRig,
  type Reply,
} from './recipe-rig.js';

let rig: ClusterRig;

beforeAll(async () => {
  if (!clusterEnabled) return;
  rig = await startClusterRig();
}, CLUSTER_START_MS);

afterAll(async () => {
  await rig?.destroy();
}, 60_000);

/**
 * Repeats a read through the load balancer until the instance that did NOT take `write`
 * answers it and `check` accepts the answer: a stale cache or in-process state on the other
 * instance fails the test instead of being hidden by a lucky retry on the writer.
 */
async function readOnOther<T>(
  write: Reply,
  read: () => Promise<Reply>,
  check: (r: Reply) => T,
  what: string,
): Promise<T> {
  let last: Reply | undefined;
  return waitFor(
    async () => {
      const r = await read();
      if (r.servedBy === write.servedBy) return undefined;
      last = r;
      return check(r);
    },
    {
      timeoutMs: 10_000,
      message: () =>
        `${what}, read on the instance that did not take the write (${write.servedBy}); its last answer: ${last ? `${last.status} from ${last.servedBy} ${last.text.slice(0, 300)}` : 'none'}`,
    },
  );
}

/** Both instances answered the calls a flow made through the load balancer. */
function expectBothInstances(since: number): void {
  expect(new Set(rig.servedBy.slice(since))).toEqual(new Set(rig.cluster.instances.map((i) => i.name)));
}

describe.skipIf(!clusterEnabled)(
  'each service through the load balancer, calls alternating between two instances',
  () => {
    it('blog: register, verify (the mail goes out through the worker), publish, read', async () => {
      const since = rig.servedBy.length;
      const email = 'cluster-blogger@example.org';
      expectStatus(
        await rig.call('blog', 'POST', '/api/register', {
          body: { email, name: 'Cluster Blogger', slug: 'cluster-blogger' },
        }),
        200,
      );
      const mail = await rig.relay.waitFor(
        (m) => m.envelope.to.includes(email) && m.parsed.subject === 'Verify your AI Agent Blog',
        30_000,
      );
      const token = /token=([0-9a-f-]{36})/.exec(mail.parsed.text ?? '')![1];
      const verified = expectStatus(
        await rig.call('blog', 'GET', `/api/verify?token=${token}`, { headers: { accept: 'application/json' } }),
        200,
      );
      const auth = { authorization: `Bearer ${verified.body.apiKey}` };

      const published = expectStatus(
        await rig.call('blog', 'POST', '/api/publish', {
          headers: auth,
          body: {
            title: 'From the cluster',
            content: 'Written on **one** instance.',
            slug: 'from-the-cluster',
            status: 'published',
          },
        }),
        201,
      );
      const id = published.body.post.id;
      await readOnOther(
        published,
        () => rig.call('blog', 'GET', `/api/posts/${id}`),
        (r) => expectStatus(r, 200).body.title === 'From the cluster',
        'the post',
      );
      await readOnOther(
        published,
        () => rig.call('blog', 'GET', '/api/posts?agent=cluster-blogger'),
        (r) => r.body.posts?.some((p: any) => p.slug === 'from-the-cluster'),
        'the post in the list',
      );
      expectBothInstances(since);
    });

    it('mail: inboxes, a send through the API and one through SMTP on the load balancer, read back', async () => {
      const since = rig.servedBy.length;
      const key = await rig.key('mail');
      const auth = { authorization: `Bearer ${key}` };
      const a = expectStatus(
        await rig.call('mail', 'POST', '/v0/inboxes', { headers: auth, body: { username: 'cluster-a' } }),
        200,
      ).body.inbox_id as string;
      const b = expectStatus(
        await rig.call('mail', 'POST', '/v0/inboxes', { headers: auth, body: { username: 'cluster-b' } }),
        200,
      ).body.inbox_id as string;
      const subjects = async (inbox: string) =>
        (
          (await rig.call('mail', 'GET', `/v0/inboxes/${encodeURIComponent(inbox)}/messages`, { headers: auth })).body
            .messages ?? []
        ).map((m: any) => m.subject);

      // API send: the worker delivers it to the cluster's SMTP port, which puts it in b.
      const sent = expectStatus(
        await rig.call('mail', 'POST', `/v0/inboxes/${encodeURIComponent(a)}/messages/send`, {
          headers: auth,
          body: { to: [b], subject: 'Through the API', text: 'hello b' },
        }),
        200,
      );
      expect(sent.body.message_id).toBeTruthy();
      await waitFor(async () => (await subjects(b)).includes('Through the API'), {
        timeoutMs: 30_000,
        message: 'the API send in b',
      });

      // SMTP in through HAProxy (TCP mode): the session lands on one instance, the read alternates.
      const reply = await smtpSend(
        rig.cluster.front.smtp,
        'someone@outside.test',
        [a],
        'From: someone@outside.test\r\nTo: ' + a + '\r\nSubject: Through SMTP\r\n\r\nhello a\r\n',
      );
      expect(reply).toMatch(/^250/);
      for (let i = 0; i < 2; i++) expect(await subjects(a)).toContain('Through SMTP'); // both instances answer with it
      expectBothInstances(since);
    });

    it('community: register, post, comment, vote, read the post and the feed', async () => {
      const since = rig.servedBy.length;
      const reg = async (name: string) =>
        expectStatus(
          await rig.call('community', 'POST', '/api/v1/agents/register', {
            body: { name, description: `I am ${name}` },
          }),
          201,
        ).body.agent.api_key as string;
      const author = { authorization: `Bearer ${await reg('cluster_author')}` };
      const voter = { authorization: `Bearer ${await reg('cluster_voter')}` };
      const post = expectStatus(
        await rig.call('community', 'POST', '/api/v1/posts', {
          headers: author,
          body: { title: 'Clustered', content: 'Two instances, one forum', submolt: 'general' },
        }),
        201,
      );
      const id = post.body.post.id;
      await readOnOther(
        post,
        () => rig.call('community', 'GET', '/api/v1/posts?sort=new', { headers: voter }),
        (r) => r.body.posts?.some((p: any) => p.id === id),
        'the new post in the list',
      );
      const comment = expectStatus(
        await rig.call('community', 'POST', `/api/v1/posts/${id}/comments`, {
          headers: voter,
          body: { content: 'Seen from the other side' },
        }),
        201,
      );
      await readOnOther(
        comment,
        () => rig.call('community', 'GET', `/api/v1/posts/${id}/comments`, { headers: author }),
        (r) => JSON.stringify(r.body).includes('Seen from the other side'),
        'the comment',
      );
      const vote = expectStatus(
        await rig.call('community', 'POST', `/api/v1/posts/${id}/upvote`, { headers: voter }),
        200,
        201,
      );
      await readOnOther(
        vote,
        () => rig.call('community', 'GET', `/api/v1/posts/${id}`, { headers: author }),
        (r) => r.body.post?.upvotes === 1 && r.body.post?.comment_count === 1,
        'the vote and the comment count on the post',
      );
      await readOnOther(
        vote,
        () => rig.call('community', 'GET', '/api/v1/posts?sort=hot', { headers: author }),
        (r) => r.body.posts?.find((p: any) => p.id === id)?.upvotes === 1,
        'the vote in the hot list',
      );
      await readOnOther(
        vote,
        () => rig.call('community', 'GET', '/api/v1/feed', { headers: author }),
        (r) => expectStatus(r, 200) && Array.isArray(r.body.posts),
        'the feed',
      );
      expectBothInstances(since);
    });

    it('home: a state set through one instance is read back through the other', async () => {
      const since = rig.servedBy.length;
      const auth = { authorization: `Bearer ${await rig.key('home')}` };
      const set = expectStatus(
        await rig.call('home', 'POST', '/api/states/sensor.cluster_probe', {
          headers: auth,
          body: { state: '42', attributes: { unit_of_measurement: '°C' } },
        }),
        200,
        201,
      );
      await readOnOther(
        set,
        () => rig.call('home', 'GET', '/api/states/sensor.cluster_probe', { headers: auth }),
        (r) => expectStatus(r, 200).body.state === '42',
        'the state',
      );
      const on = expectStatus(
        await rig.call('home', 'POST', '/api/services/light/turn_on', {
          headers: auth,
          body: { entity_id: 'light.living_room', brightness: 77 },
        }),
        200,
      );
      await readOnOther(
        on,
        () => rig.call('home', 'GET', '/api/states/light.living_room', { headers: auth }),
        (r) => r.body.state === 'on' && r.body.attributes?.brightness === 77,
        'the light turned on',
      );
      expectBothInstances(since);
    });

    it('workflow: create and activate a webhook workflow, then call it on both instances', async () => {
      const since = rig.servedBy.length;
      const headers = { 'x-n8n-api-key': await rig.key('workflow') };
      const created = expectStatus(
        await rig.call('workflow', 'POST', '/api/v1/workflows', { headers, body: webhookWorkflow('cluster-echo') }),
        200,
      );
      const id = created.body.id;
      const activated = expectStatus(
        await rig.call('workflow', 'POST', `/api/v1/workflows/${id}/activate`, { headers }),
        200,
      );
      // The other instance learns of the activation through the event bus; then every call answers.
      await readOnOther(
        activated,
        () => rig.call('workflow', 'POST', '/webhook/cluster-echo', { body: { msg: 'first' } }),
        (r) => expectStatus(r, 200).body.echo === 'first',
        'the webhook',
      );
      const answers = [];
      for (let n = 0; n < 4; n++)
        answers.push(
          expectStatus(await rig.call('workflow', 'POST', '/webhook/cluster-echo', { body: { msg: `m${n}` } }), 200),
        );
      expect(answers.map((r) => r.body.echo)).toEqual(['m0', 'm1', 'm2', 'm3']);
      expect(new Set(answers.map((r) => r.servedBy)).size).toBe(2);
      const executions = await waitFor(
        async () => {
          const list = (await rig.call('workflow', 'GET', `/api/v1/executions?workflowId=${id}`, { headers })).body
            .data as any[];
          return list.length === 5 && list.every((e) => e.status === 'success') && list;
        },
        { timeoutMs: 30_000, message: 'five successful executions' },
      );
      expect(executions).toHaveLength(5);
      expectBothInstances(since);
    });
  },
);

describe.skipIf(!clusterEnabled)('what needs more than one instance', () => {
  it('home WebSocket across instances: a change made through instance A reaches a subscriber on instance B', async () => {
    const token = await rig.key('home');
    const url = rig.cluster.url('home', 1).replace(/^http/, 'ws') + '/api/websocket';
    const ws = new WebSocket(url);
    const messages: any[] = [];
    ws.on('message', (d) => {
      const parsed = JSON.parse(d.toString());
      messages.push(...(Array.isArray(parsed) ? parsed : [parsed]));
    });
    try {
      await waitFor(() => messages.some((m) => m.type === 'auth_required'), {
        message: 'auth_required from instance B',
      });
      ws.send(JSON.stringify({ type: 'auth', access_token: token }));
      await waitFor(() => messages.some((m) => m.type === 'auth_ok'), { message: 'auth_ok from instance B' });
      ws.send(JSON.stringify({ id: 1, type: 'subscribe_events', event_type: 'state_changed' }));
      await waitFor(() => messages.some((m) => m.id === 1 && m.type === 'result' && m.success), {
        message: 'the subscription on instance B',
      });

      // Instance A takes the write directly; B's subscriber must hear of it.
      const set = await rig.call('home', 'POST', '/api/states/sensor.across_instances', {
        instance: 0,
        headers: { authorization: `Bearer ${token}` },
        body: { state: 'from-a' },
      });
      expectStatus(set, 200, 201);
      const event = await waitFor(
        () => messages.find((m) => m.type === 'event' && m.event?.data?.entity_id === 'sensor.across_instances'),
        {
          timeoutMs: 5_000,
          message: () =>
            `a state_changed event for sensor.across_instances on instance B (got: ${JSON.stringify(messages).slice(0, 400)})`,
        },
      );
      expect(event.event.data.new_state.state).toBe('from-a');
    } finally {
      ws.close();
    }
  });

  it('a schedule (every 2 s) fires exactly once per tick with two instances', async () => {
    const headers = { 'x-n8n-api-key': await rig.key('workflow') };
    const created = expectStatus(
      await rig.call('workflow', 'POST', '/api/v1/workflows', {
        headers,
        body: {
          name: 'cluster tick',
          nodes: [
            {
              name: 'Tick',
              type: 'n8n-nodes-base.scheduleTrigger',
              typeVersion: 1.2,
              position: [0, 0],
              parameters: { rule: { interval: [{ field: 'seconds', secondsInterval: 2 }] } },
            },
          ],
          connections: {},
          settings: { executionOrder: 'v1' },
        },
      }),
      200,
    );
    const id = created.body.id;
    expectStatus(await rig.call('workflow', 'POST', `/api/v1/workflows/${id}/activate`, { headers }), 200);
    // The tick each execution was fired for is in its trigger item.
    const executions = async () =>
      (await rig.call('workflow', 'GET', `/api/v1/executions?workflowId=${id}&includeData=true&limit=100`, { headers }))
        .body.data as any[];
    const tickOf = (e: any) =>
      e.data?.resultData?.runData?.Tick?.[0]?.data?.main?.[0]?.[0]?.json?.timestamp as string | undefined;
    await waitFor(async () => new Set((await executions()).map(tickOf).filter(Boolean)).size >= 4, {
      timeoutMs: 30_000,
      message: 'four scheduled ticks',
    });
    expectStatus(await rig.call('workflow', 'POST', `/api/v1/workflows/${id}/deactivate`, { headers }), 200);
    // Every execution fired so far has finished: a second fire of a tick would be among them.
    const finished = await waitFor(
      async () => {
        const list = await executions();
        return list.every((e) => e.finished || e.status === 'success' || e.status === 'error') && list;
      },
      { timeoutMs: 30_000, message: 'the scheduled executions to finish' },
    );
    const seen = finished.map((e) => tickOf(e) ?? 'no tick recorded');
    const perTick = new Map<string, number>();
    for (const t of seen) perTick.set(t, (perTick.get(t) ?? 0) + 1);
    expect(
      [...perTick].filter(([, n]) => n !== 1),
      'ticks that fired more than once',
    ).toEqual([]);
  });
});
