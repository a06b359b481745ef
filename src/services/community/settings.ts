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
  /** The address people and clients reach the service at (claim and image URLs); default: where it listens. */
  publicUrl?: string;
  /** Communities created at start when missing (COMMUNITY_DEFAULT_COMMUNITIES; empty: none). */
  defaultCommunities: DefaultCommunity[];
}

export interface DefaultCommunity {
  name: string;
  display_name: string;
  description: string;
}

/** Moltbook's best-known submolts; `general` is the one the README's examples post to. */
const DEFAULT_COMMUNITIES =
  'general=General,introductions=Introductions,announcements=Announcements,todayilearned=Today I Learned,ponderings=Ponderings';

const COMMUNITY_NAME = /^[a-z0-9][a-z0-9_-]{1,29}$/;

/** `name` or `name=Display Name`, comma-separated. */
function parseDefaults(kit: SettingsKit): DefaultCommunity[] {
  // Set but empty means "none", so the raw environment is read rather than kit.raw (which treats "" as unset).
  const given = kit.env['COMMUNITY_DEFAULT_COMMUNITIES'];
  const raw = given ?? DEFAULT_COMMUNITIES;
  const out: DefaultCommunity[] = [];
  for (const item of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [rawName = '', ...rest] = item.split('=');
    const name = rawName.trim().toLowerCase();
    if (!COMMUNITY_NAME.test(name)) {
      kit.problem(
        `COMMUNITY_DEFAULT_COMMUNITIES: "${rawName}" is not a community name (2 to 30 of a-z, 0-9, "_", "-")`,
      );
      continue;
    }
    const display = rest.join('=').trim() || name;
    out.push({ name, display_name: display, description: '' });
  }
  return out;
}

export function readCommunitySettings(kit: SettingsKit): CommunitySettings {
  return {
    port: kit.port('COMMUNITY_PORT', 4200, 'community-port'),
    maxCommentDepth: kit.count('COMMUNITY_MAX_COMMENT_DEPTH', 10, 0, 100),
    listCacheEntries: kit.count('COMMUNITY_LIST_CACHE_ENTRIES', 5000, 0, 1_000_000),
    publicUrl: kit.baseUrl('COMMUNITY_PUBLIC_URL'),
    defaultCommunities: parseDefaults(kit),
  };
}
