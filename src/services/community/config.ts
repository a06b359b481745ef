// The community's own settings, read from the environment and validated at start.
// (Rate limits are the platform's: HAMLET_RATE_COMMUNITY_<NAME>=<max>/<window>; the client
// address behind proxies too: COMMUNITY_TRUST_PROXY is an alias of HAMLET_TRUST_PROXY.)
import { ConfigError } from '../../config.js';

export interface CommunityConfig {
  /** Deepest reply allowed; a top-level comment has depth 0 (Moltbook: 10). */
  maxCommentDepth: number;
  /** Serialized list pages kept in memory; 0 turns the cache off. */
  listCacheEntries: number;
}

export function loadCommunityConfig(env: Record<string, string | undefined>): CommunityConfig {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) {
      problems.push(`${name}=${raw}: must be a whole number from ${min} to ${max}`);
      return fallback;
    }
    return n;
  };
  const config: CommunityConfig = {
    maxCommentDepth: int('COMMUNITY_MAX_COMMENT_DEPTH', 10, 0, 100),
    listCacheEntries: int('COMMUNITY_LIST_CACHE_ENTRIES', 5000, 0, 1_000_000),
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}
