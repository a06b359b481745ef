// Instance loss in the cluster of `npm run cluster`: `kill -9` of an API instance, then of the
// worker, while clients keep writing through HAProxy. Nothing acknowledged may be lost: every
// write that got a 2xx is readable afterwards, and every job enqueued (mail deliveries and the
// webhooks they raise) completes once a worker runs again (BullMQ retries a job whose worker
// died when its lock expires).
// Runs where PostgreSQL, Redis and haproxy are present (the PostgreSQL step of .ci/run).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookReceiver } from '../mail/helpers.js';
import { waitFor } from '../helpers/wait.js';
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
 * Clients writing in parallel until stopped. `write(n)` returns what identifies an
 * acknowledged write, or undefined when the answer was not a 2xx; a connection cut by the kill
 * is not an acknowledgement either.
 */
function load(clients: number, write: (n: number) => Promise<string | undefined>) {
  const acked: string[] = [];
  const refused: string[] = [];
  let next = 0;
  let running = true;
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      try {
        const id = await write(next++);
        if (id) acked.push(id);
        else refused.push('not 2xx');
      } catch (err) {
        refused.push((err as Error).message);
      }
    }
  });
  return {
    acked,
    refused,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

const ackedBy = (r: Reply, ...ok: number[]) => (ok.includes(r.status) ? r : undefined);

describe.skipIf(!clusterEnabled)('instance loss under load, through the load balancer', () => {
  it('kill -9 of an API instance: every acknowledged post is readable, the survivor takes the load, the restarted instance rejoins', async () => {
    const key = expectStatus(
      await rig.call('community', 'POST', '/api/v1/agents/register', {
        body: { name: 'loss_writer', description: 'writes through a crash' },
      }),
      201,
    ).body.agent.api_key;
    const auth = { authorization: `Bearer ${key}` };
    const posts = load(
      8,
      async (n) =>
        ackedBy(
          await rig.call('community', 'POST', '/api/v1/posts', {
            headers: auth,
            body: { title: `load ${n}`, content: `post ${n}`, submolt: 'general' },
          }),
          201,
        )?.body.post.id,
    );

    const [victim, survivor] = rig.cluster.instances;
    await waitFor(() => posts.acked.length >= 40, {
      timeoutMs: 60_000,
      message: '40 acknowledged posts before the kill',
    });
    await victim.kill('SIGKILL');
    const atKill = posts.acked.length;
    // The load goes on: HAProxy's checks take the dead instance out and the survivor answers.
    await waitFor(() => posts.acked.length >= atKill + 40, {
      timeoutMs: 60_000,
      message: () => `40 more acknowledged posts after the kill (refused: ${posts.refused.slice(-3).join('; ')})`,
    });
    await posts.stop();
    expect(victim.running).toBe(false);

    const missing: string[] = [];
    for (const id of posts.acked) {
      const r = await rig.call('community', 'GET', `/api/v1/posts/${id}`, { headers: auth });
      if (r.status !== 200) missing.push(`${id}: ${r.status}`);
    }
    expect(missing, 'acknowledged posts that cannot be read').toEqual([]);
    expect(rig.servedBy.slice(-posts.acked.length).every((by) => by === survivor.name)).toBe(true);

    await victim.start();
    await waitFor(
      async () =>
        (await rig.call('community', 'GET', '/api/v1/posts?sort=new&limit=1', { headers: auth })).servedBy ===
        victim.name,
      { timeoutMs: 20_000, message: 'the restarted instance to serve again' },
    );
  }, 180_000);

  it('kill -9 of the worker: every mail sent before, during and after the loss is delivered, with its webhook, once a worker runs again', async () => {
    const hooks = await webhookReceiver();
    try {
      const auth = { authorization: `Bearer ${await rig.key('mail')}` };
      const inbox = async (username: string) =>
        expectStatus(await rig.call('mail', 'POST', '/v0/inboxes', { headers: auth, body: { username } }), 200).body
          .inbox_id as string;
      // Names of this attempt's own, so a retry of the test does not meet the first attempt's inboxes.
      const run = Date.now().toString(36);
      const from = await inbox(`loss-from-${run}`);
      const to = await inbox(`loss-to-${run}`);
      expectStatus(
        await rig.call('mail', 'POST', '/v0/webhooks', {
          headers: auth,
          body: { url: hooks.url, event_types: ['message.received'] },
        }),
        200,
      );

      const sends = load(4, async (n) => {
        const subject = `loss ${n}`;
        const r = await rig.call('mail', 'POST', `/v0/inboxes/${encodeURIComponent(from)}/messages/send`, {
          headers: auth,
          body: { to: [to], subject, text: `message ${n}` },
        });
        return ackedBy(r, 200) && subject;
      });
      const worker = rig.cluster.worker!;
      await waitFor(() => sends.acked.length >= 20, {
        timeoutMs: 60_000,
        message: '20 acknowledged sends before the kill',
      });
      await worker.kill('SIGKILL');
      const atKill = sends.acked.length;
      // Without a worker the API instances still take sends: their jobs wait in Redis.
      await waitFor(() => sends.acked.length >= atKill + 20, {
        timeoutMs: 60_000,
        message: '20 more acknowledged sends without a worker',
      });
      await sends.stop();
      await worker.start();

      const received = async () => {
        const subjects = new Set<string>();
        for (let page: string | undefined, first = true; first || page; first = false) {
          const r = expectStatus(
            await rig.call(
              'mail',
              'GET',
              `/v0/inboxes/${encodeURIComponent(to)}/messages?limit=100${page ? `&page_token=${page}` : ''}`,
              { headers: auth },
            ),
            200,
          );
          for (const m of r.body.messages) subjects.add(m.subject);
          page = r.body.next_page_token ?? undefined;
        }
        return subjects;
      };
      // A job the killed worker held is retried once its BullMQ lock expires (15 s, checked every 5 s).
      let got = new Set<string>();
      await waitFor(
        async () => {
          got = await received();
          return sends.acked.every((s) => got.has(s));
        },
        {
          timeoutMs: 120_000,
          intervalMs: 1_000,
          message: () =>
            `every acknowledged send in the inbox (missing: ${sends.acked.filter((s) => !got.has(s)).join(', ')})`,
        },
      );
      const hooked = () => new Set(hooks.received.map((r) => JSON.parse(r.body).message?.subject as string));
      await waitFor(() => sends.acked.every((s) => hooked().has(s)), {
        timeoutMs: 120_000,
        message: () =>
          `a message.received webhook for every send (missing: ${sends.acked.filter((s) => !hooked().has(s)).join(', ')})`,
      });
    } finally {
      await hooks.close();
    }
  }, 300_000);
});
