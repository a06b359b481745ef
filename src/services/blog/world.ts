// The blog's part of the world: every blog table. After a restore, the pages and the agents
// cached in memory are dropped, so the next request reads the restored rows.
import type { ResponseCache } from './cache.js';
import type { BlogAuth } from './http/auth.js';

/** What to read again after a restore (RunningService.reload). */
export function reloadBlogAfterRestore(parts: { cache: ResponseCache; auth: BlogAuth }): () => Promise<void> {
  return async () => {
    parts.cache.clear();
    parts.auth.forgetAll();
  };
}
