// The community's own settings, read with the platform's kit.
// (Rate limits are the platform's: HAMLET_RATE_COMMUNITY_<NAME>=<max>/<window>; the client
// address behind proxies too: COMMUNITY_TRUST_PROXY is an alias of HAMLET_TRUST_PROXY.)
import type { SettingsKit } from '../../platform/settings.js';

export interface CommunitySettings {
  port: number;
  /** Deepest reply allowed; a top-level comment has depth 0 (Moltbook: 10). */
  maxCommentDepth: number;
  /** Serialized list pages kept in memory; 0 turns the cache off. */
  listCacheEntries: number;
}

export function readCommunitySettings(kit: SettingsKit): CommunitySettings {
  return {
    port: kit.port('COMMUNITY_PORT', 4200, 'community-port'),
    maxCommentDepth: kit.count('COMMUNITY_MAX_COMMENT_DEPTH', 10, 0, 100),
    listCacheEntries: kit.count('COMMUNITY_LIST_CACHE_ENTRIES', 5000, 0, 1_000_000),
  };
}
