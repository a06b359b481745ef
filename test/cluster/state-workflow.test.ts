// The workflow service as two instances of a cluster (one PostgreSQL schema, one Redis, queue
// mode): a schedule both instances arm runs once per tick, an event trigger both instances
// hear (a home state change) runs once, and a write through one instance is in the other's
// cached workflow list at once. Skips without TEST_DATABASE_URL and TEST_REDIS_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import type { TestHamlet } from '../helpers/hamlet.js';
import { settle, waitFor } from '../helpers/wait.js';
import { call, clusterEnabled, startCluster, type Cluster } from './state-cluster.js';

const clock = new ManualClock('2026-03-02T10:00:30.000Z');
let cluster: Cluster;
let workflowKey: string;
let homeKey: string;
let scheduled: string;
let onDoor: string;

const wf = (instance: 'a' | 'b', method: string, route: string, body?: unknown) =>
  call(cluster.url(instance, 'workflow'), method, '/api/v1' + route, {
    body,
    headers: { 'x-n8n-api-key': workflowKey },
  });

const set = {
  name: 'Mark',
  type: 'n8n-nodes-base.set',
  typeVersion: 3.4,
  position: [200, 0],
  parameters: { assignments: { assignments: [{ id: '1', name: 'ran', type: 'boolean', value: true }] }, options: {} },
};
const everyMinute = {
  name: 'Every minute',
  nodes: [
    {
      name: 'Tick',
      type: 'n8n-nodes-base.scheduleTrigger',
      typeVersion: 1.2,
      position: [0, 0],
      parameters: { rule: { interval: [{ field: 'minutes', minutesInterval: 1 }] } },
    },
    set,
  ],
  connections: { Tick: { main: [[{ node: 'Mark', type: 'main', index: 0 }]] } },
  settings: { executionOrder: 'v1' },
};
const doorOpened = {
  name: 'Door opened',
  nodes: [
    {
      name: 'Door',
      type: 'hamlet.homeTrigger',
      typeVersion: 1,
      position: [0, 0],
      parameters: { entityId: 'sensor.front_door', to: 'open' },
    },
    set,
  ],
  connections: { Door: { main: [[{ node: 'Mark', type: 'main', index: 0 }]] } },
  settings: { executionOrder: 'v1' },
};

/** Every run of a workflow, wherever it ran (both instances run queued executions). */
async function runs(id: string): Promise<number> {
  await Promise.all([cluster.a.hamlet.platform.jobs.idle(), cluster.b.platform.jobs.idle()]);
  const list = await wf('a', 'GET', `/executions?workflowId=${id}`);
  return list.body.data.length as number;
}

beforeAll(async () => {
  if (!clusterEnabled) return;
  // The workflows are active before the second instance starts, so both arm them at start.
  const prepare = async (a: TestHamlet) => {
    workflowKey = (await a.hamlet.platform.keys.create('workflow')).key;
    homeKey = (await a.hamlet.platform.keys.create('home')).key;
    const api = (method: string, route: string, body?: unknown) =>
      call(a.url('workflow'), method, '/api/v1' + route, { body, headers: { 'x-n8n-api-key': workflowKey } });
    scheduled = (await api('POST', '/workflows', everyMinute)).body.id;
    onDoor = (await api('POST', '/workflows', doorOpened)).body.id;
    for (const id of [scheduled, onDoor]) expect((await api('POST', `/workflows/${id}/activate`)).status).toBe(200);
  };
  cluster = await startCluster(['home', 'workflow'], { clock, beforeSecond: prepare });
}, 90_000);

afterAll(() => cluster?.stop());

describe.skipIf(!clusterEnabled)('workflow across two instances', () => {
  it('a schedule armed on both instances runs once per tick', async () => {
    await cluster.leaderOf('workflow');
    expect(await runs(scheduled)).toBe(0);
    clock.set('2026-03-02T10:01:00.000Z');
    await waitFor(async () => (await runs(scheduled)) >= 1, { message: 'the first tick to run' });
    clock.set('2026-03-02T10:02:00.000Z');
    await waitFor(async () => (await runs(scheduled)) >= 2, { message: 'the second tick to run' });
    // A second run of either tick would have been enqueued with the first; the queues are idle in runs().
    expect(await runs(scheduled)).toBe(2);
  });

  it('a home state change, heard by both instances, starts one run', async () => {
    await cluster.leaderOf('workflow');
    const res = await call(cluster.url('b', 'home'), 'POST', '/api/states/sensor.front_door', {
      body: { state: 'open' },
      headers: { authorization: `Bearer ${homeKey}` },
    });
    expect(res.status).toBe(201);
    await waitFor(async () => (await runs(onDoor)) >= 1, { message: 'the event-triggered run' });
    await settle(500); // both instances heard the event; a second run would be enqueued by now
    expect(await runs(onDoor)).toBe(1);
  });

  it("a workflow created through A is in B's cached list at once", async () => {
    const names = async (instance: 'a' | 'b') =>
      ((await wf(instance, 'GET', '/workflows')).body.data as Array<{ name: string }>).map((w) => w.name).sort();
    expect(await names('b')).toEqual(['Door opened', 'Every minute']); // B caches this page
    await wf('a', 'POST', '/workflows', { ...everyMinute, name: 'Later' });
    await waitFor(async () => (await names('b')).includes('Later'), { message: "the new workflow in B's list" });
    const renamed = await wf('b', 'PUT', `/workflows/${scheduled}`, { ...everyMinute, name: 'Every minute, renamed' });
    expect(renamed.status).toBe(200);
    await waitFor(async () => (await names('a')).includes('Every minute, renamed'), {
      message: "the rename in A's list",
    });
  });
});
