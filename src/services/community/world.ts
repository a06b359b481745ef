// The community's part of the world: every community table. After a restore, cached list
// pages, comment trees and community name lookups are dropped.
import type { ListCache } from './cache.js';
import type { Stores } from './store/index.js';

/** What to read again after a restore (RunningService.reload). */
export function reloadCommunityAfterRestore(parts: { cache: ListCache; store: Stores }): () => Promise<void> {
  return async () => {
    parts.cache.clearAll();
    parts.store.communities.forgetKnownIds();
  };
}
