// A world restored on one instance of a cluster reaches the other: its clock (the snapshot's
// frozen time, over the event bus) and what the other keeps in memory (the house). Runs when
// TEST_DATABASE_URL and TEST_REDIS_URL are set (two instances need a shared database and bus).
import { describe, expect, it } from 'vitest';
import { World } from '../../src/console/world/state.js';
import { PLATFORM_WORLD } from '../../src/platform/world.js';
import { call, clusterEnabled, startCluster } from '../cluster/state-cluster.js';
import { waitFor } from '../helpers/wait.js';

describe.skipIf(!clusterEnabled)('a world restored in a cluster', () => {
  it('sets the other instance’s clock to the snapshot’s and its house to the restored states', async () => {
    const cluster = await startCluster(['home']);
    try {
      const a = cluster.a.hamlet;
      const auth = { authorization: `Bearer ${(await a.platform.keys.create('home')).key}` };
      const light = (state: string) =>
        call(cluster.url('a', 'home'), 'POST', '/api/states/light.hall', { body: { state }, headers: auth });
      const stateOnB = async () =>
        (await call(cluster.url('b', 'home'), 'GET', '/api/states/light.hall', { headers: auth })).body.state;
      const world = new World(a.platform, [{ name: 'platform', world: PLATFORM_WORLD }, { name: 'home' }]);

      expect((await light('on')).status).toBeLessThan(300);
      const saved = { ...(await world.read()), clock: { frozen: true, now: '2031-05-06T07:08:09.000Z' } };
      await light('off');
      await waitFor(async () => (await stateOnB()) === 'off', { message: 'the change to reach the other instance' });

      await world.restore(saved);
      await waitFor(
        () =>
          cluster.b.platform.clock.frozen === true &&
          cluster.b.platform.clock.now().toISOString() === '2031-05-06T07:08:09.000Z',
        { message: "the snapshot's clock on the other instance" },
      );
      await waitFor(async () => (await stateOnB()) === 'on', { message: 'the restored house on the other instance' });
    } finally {
      await cluster.stop();
    }
  }, 120_000);
});
