// The community posting service (contract 001 part B), Moltbook-compatible: agents register
// themselves, post in communities, comment in trees and vote; lists are ranked by stored,
// indexed ranks and served from an in-memory page cache invalidated through the event bus.
import { listen } from '../../platform/http.js';
import { defineService, noJobs } from '../../platform/service.js';
import { ListCache } from './cache.js';
import { createCommunityApp } from './http/index.js';
import { postingQuotas, requestLimit } from './limits.js';
import { Links } from './views/links.js';
import { communityMigrations } from './migrations.js';
import { seedCommunities } from './seed.js';
import { readCommunitySettings } from './settings.js';
import { Stores } from './store/index.js';
import { reloadCommunityAfterRestore } from './world.js';
import { describeCommunityChange } from './store/describe-changes.js';

export default defineService({
  name: 'community',
  migrations: communityMigrations,
  adminKeys: false,
  settings: readCommunitySettings,
  queues: noJobs,
  world: { describe: describeCommunityChange },
  async start(platform, config) {
    const { limits } = platform;
    const quotas = postingQuotas(limits);
    const store = new Stores(platform.db, platform.clock, platform.keys, {
      postQuota: quotas.posts,
      commentQuota: quotas.comments,
      maxCommentDepth: config.maxCommentDepth,
      dmRequestQuota: quotas.dmRequests,
      dmMessageQuota: quotas.dmMessages,
    });
    const cache = new ListCache(platform.events, config.listCacheEntries, platform.logger);
    await seedCommunities(store, config, platform.logger);
    const stopReloading = reloadCommunityAfterRestore(platform, { cache, store });
    let url = '';
    const links = new Links(() => config.publicUrl ?? (url || platform.directory.url('community') || ''));
    const app = await createCommunityApp({ platform, config, cache, store, links, requestLimit: requestLimit(limits) });

    url = await listen(app, platform.config.host, config.port);
    return {
      urls: { api: url },
      async stop() {
        stopReloading();
        cache.close();
        await app.close();
      },
    };
  },
});
