// Rate limits as a load balancer spreads a client over two instances: the count lives in
// Redis, so requests alternating between the instances share one limit. Skips without
// TEST_DATABASE_URL and TEST_REDIS_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, clusterEnabled, startCluster, type Cluster } from './state-cluster.js';

let cluster: Cluster;

beforeAll(async () => {
  if (!clusterEnabled) return;
  cluster = await startCluster(['community'], {
    env: { HAMLET_RATE_LIMITS: 'on', HAMLET_RATE_COMMUNITY_PAGES: '4/1h' },
  });
}, 60_000);

afterAll(() => cluster?.stop());

describe.skipIf(!clusterEnabled)('rate limits across two instances', () => {
  it('four page views allowed per address, counted over both instances together', async () => {
    const statuses: number[] = [];
    for (const instance of ['a', 'b', 'a', 'b', 'a', 'b'] as const)
      statuses.push((await call(cluster.url(instance, 'community'), 'GET', '/')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });
});
