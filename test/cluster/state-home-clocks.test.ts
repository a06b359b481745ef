// Two home instances whose machines' clocks disagree (A runs 10 s ahead of B): a change made
// through B after it saw A's change must win on both, although B's clock calls it older.
// Skips without TEST_DATABASE_URL and TEST_REDIS_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { waitFor } from '../helpers/wait.js';
import { call, clusterEnabled, startCluster, type Cluster } from './state-cluster.js';

let cluster: Cluster;
let token: string;

const api = (instance: 'a' | 'b', method: string, route: string, body?: unknown) =>
  call(cluster.url(instance, 'home'), method, route, { body, headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  if (!clusterEnabled) return;
  cluster = await startCluster(['home'], {
    clock: new ManualClock('2026-03-02T08:00:10.000Z'),
    clockOfSecond: new ManualClock('2026-03-02T08:00:00.000Z'),
  });
  token = (await cluster.a.hamlet.platform.keys.create('home')).key;
}, 60_000);

afterAll(() => cluster?.stop());

describe.skipIf(!clusterEnabled)('home instances with clocks apart', () => {
  it('a later change through the instance whose clock is behind wins everywhere', async () => {
    await api('a', 'POST', '/api/states/input_text.note', { state: 'from A' });
    await waitFor(async () => (await api('b', 'GET', '/api/states/input_text.note')).body.state === 'from A', {
      message: "A's change on B",
    });
    const fromB = await api('b', 'POST', '/api/states/input_text.note', { state: 'from B' });
    expect(fromB.status).toBe(200);
    await waitFor(async () => (await api('a', 'GET', '/api/states/input_text.note')).body.state === 'from B', {
      message: "B's later change on A",
    });
    expect((await api('a', 'GET', '/api/states/input_text.note')).body).toEqual(fromB.body);
  });
});
