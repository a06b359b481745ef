// The community's part of the world: every community table. After a restore, cached list
// pages, comment trees and community name lookups are dropped.
import type { Platform } from '../../platform/service.js';
import type { ListCache } from './cache.js';
import type { Stores } from './store/index.js';

export function reloadCommunityAfterRestore(platform: Platform, parts: { cache: ListCache; store: Stores }): () => void {
  return platform.world.onRestored(() => {
    parts.cache.clearAll();
    parts.store.communities.forgetKnownIds();
  });
}
