// The console's WebSocket link to the home (src/console/home-live.ts) outlives a home restart:
// while a browser listens, it reconnects on its own, reads the states again (so a change made
// while it was away is there) and passes on the changes that follow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HomeLink, type HassState } from '../../src/services/home/console/home-live.js';
import { createLogger } from '../../src/platform/logger.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import { waitFor } from '../helpers/wait.js';

describe("the console's link to the home", () => {
  let t: TestHamlet;
  let port: string;
  let key: string;
  beforeAll(async () => {
    t = await startTestHamlet({ services: ['home'] });
    port = new URL(t.url('home')).port;
    key = (await t.hamlet.platform.keys.create('home')).key;
  }, 60_000);
  afterAll(async () => t?.destroy());

  const setState = (entityId: string, state: string) =>
    fetch(`${t.url('home')}/api/states/${entityId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ state }),
    });

  it('reconnects after the home restarts, with the states changed meanwhile, and passes on later changes', async () => {
    const link = new HomeLink(
      () => `http://127.0.0.1:${port}`,
      () => key,
      createLogger({ level: 'silent', pretty: false }),
    );
    const heard: Array<[string, HassState | null]> = [];
    link.onChange((id, s) => heard.push([id, s]));
    try {
      await link.ready();
      await setState('sensor.link', 'one');
      await waitFor(() => heard.some(([id, s]) => id === 'sensor.link' && s?.state === 'one'), {
        message: 'the first change',
      });

      // The home goes away; a change is made while the console is not connected.
      t = await t.restart({ HOME_PORT: port });
      await setState('sensor.link', 'two');
      await waitFor(() => link.states.get('sensor.link')?.state === 'two', {
        message: 'the console reconnected and read the states again',
        timeoutMs: 15_000,
      });
      // …and told its listeners (the SSE streams), or the pages would go on showing 'one'.
      expect(heard.filter(([id]) => id === 'sensor.link').map(([, s]) => s?.state)).toEqual(['one', 'two']);

      await setState('sensor.link', 'three');
      await waitFor(() => heard.some(([id, s]) => id === 'sensor.link' && s?.state === 'three'), {
        message: 'a change after the reconnect',
      });
      expect(await link.command<HassState[]>({ type: 'get_states' })).toContainEqual(
        expect.objectContaining({ entity_id: 'sensor.link', state: 'three' }),
      );
    } finally {
      link.close();
    }
  }, 60_000);
});
