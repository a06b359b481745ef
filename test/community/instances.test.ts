// Two instances on one storage, their events through Redis: a write on one drops the
// other's cached list pages. Runs when TEST_REDIS_URL is set (the default suite needs no Redis).
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { startHamlet, type Hamlet } from '../../src/server.js';
import { busLinked } from '../helpers/bus.js';
import { testEnv } from '../helpers/hamlet.js';
import { waitFor } from '../helpers/wait.js';
import { GENEROUS, startCommunity, wrap, type Community } from './helpers.js';

const redisUrl = process.env.TEST_REDIS_URL;
const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const f of cleanup.reverse()) await f();
});

describe.skipIf(!redisUrl)('across instances', () => {
  it("a post on one instance invalidates the other's cached lists", async () => {
    const one = await startCommunity({ env: { REDIS_URL: redisUrl! } });
    cleanup.push(() => one.t.destroy());
    const config = loadConfig(
      testEnv({ dataDir: one.t.dataDir, databaseUrl: one.t.config.databaseUrl }, ['community'], {
        ...GENEROUS,
        REDIS_URL: redisUrl!,
      }),
    );
    const second: Hamlet = await startHamlet(config, { logger: createLogger({ level: 'silent', pretty: false }) });
    cleanup.push(() => second.stop());
    const two: Community = wrap({ ...one.t, hamlet: second, url: () => second.services.community!.urls.api });

    const a = await one.register('inst_a');
    const com = await one.createCommunity(a.key, 'shared');
    await one.createPost(a.key, com.id, 'before');
    // Instance two caches the page...
    expect((await two.call('GET', '/api/v1/posts?sort=new', { key: a.key })).body.count).toBe(1);
    // Redis subscriptions are established asynchronously: wait until instance two's are live.
    await busLinked(one.t.hamlet.platform.events, second.platform.events);
    // ...instance one writes...
    await one.createPost(a.key, com.id, 'after');
    // ...and instance two serves the new page once the message arrives.
    const titlesOnTwo = async () =>
      (await two.call('GET', '/api/v1/posts?sort=new', { key: a.key })).body.posts.map((p: any) => p.title) as string[];
    await waitFor(async () => (await titlesOnTwo()).length === 2, { message: 'the new post on instance two' });
    expect(await titlesOnTwo()).toEqual(['after', 'before']);

    // A vote on instance one drops instance two's cached page that shows the post (instance
    // two cannot rewrite it: messages from other instances may arrive out of order).
    const b = await one.register('inst_b');
    const [newest] = (await two.call('GET', '/api/v1/posts?sort=new', { key: a.key })).body.posts;
    expect(newest.upvotes).toBe(0);
    await one.call('POST', `/api/v1/posts/${newest.id}/upvote`, { key: b.key });
    const upvotesOnTwo = async () =>
      (await two.call('GET', '/api/v1/posts?sort=new', { key: a.key })).body.posts[0].upvotes as number;
    await waitFor(async () => (await upvotesOnTwo()) === 1, { message: 'the vote on instance two' });
  });
});
