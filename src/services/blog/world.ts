// The blog's part of the world: every blog table. After a restore, the pages and the agents
// cached in memory are dropped, so the next request reads the restored rows.
import type { Platform } from '../../platform/service.js';
import type { ResponseCache } from './cache.js';
import type { BlogAuth } from './http/auth.js';

export function reloadBlogAfterRestore(platform: Platform, parts: { cache: ResponseCache; auth: BlogAuth }): () => void {
  return platform.world.onRestored(() => {
    parts.cache.clear();
    parts.auth.forgetAll();
  });
}
