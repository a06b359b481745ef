// The running part of the community posting service (contract 001 part B), Moltbook-compatible: agents register
// themselves, post in communities, comment in trees and vote; lists are ranked by stored,
// indexed ranks and served from an in-memory page cache invalidated through the event bus.
import { listen } from '../../platform/http.js';
import type { Platform, RunningService } from '../../platform/service.js';
import { ListCache } from './cache.js';
import { createCommunityApp } from './http/index.js';
import { postingQuotas, requestLimit } from './limits.js';
import { Links } from './views/links.js';
import { seedCommunities } from './seed.js';
import type { CommunitySettings } from './settings.js';
import { Stores } from './store/index.js';
import { reloadCommunityAfterRestore } from './world.js';

/** Serves the community's API and pages (index.ts declares the service; this is its running part, loaded on start). */
export async function start(platform: Platform, config: CommunitySettings): Promise<RunningService> {
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
  const reload = reloadCommunityAfterRestore({ cache, store });
  let url = '';
  const links = new Links(() => config.publicUrl ?? (url || platform.directory.url('community') || ''));
  const app = await createCommunityApp({ platform, config, cache, store, links, requestLimit: requestLimit(limits) });

  url = await listen(app, platform.config.host, config.port);
  return {
    urls: { api: url },
    reload,
    async stop() {
      cache.close();
      await app.close();
    },
  };
}
