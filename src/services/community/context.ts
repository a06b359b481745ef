// Everything a route needs, built once at start.
import type { Platform } from '../../platform/service.js';
import type { ListCache } from './cache.js';
import type { CommunitySettings } from './settings.js';
import type { Quota } from './quotas.js';
import type { Store } from './store/context.js';
import { findCommunity } from './store/communities.js';
import { fail, invalid } from './http/envelope.js';

export interface Ctx {
  platform: Platform;
  store: Store;
  cache: ListCache;
  config: CommunitySettings;
  quotas: { posts: Quota; comments: Quota };
  /** Route config of the per-key request limit every authenticated route shares. */
  requestLimit: ReturnType<Platform['limits']['route']>;
  /** Name → id of communities; communities are never renamed or deleted, so this never goes stale. */
  communityIds: Map<string, string>;
}

/** The id of a community named (or identified) by `ref`, or a 404. */
export async function communityIdOf(ctx: Ctx, ref: string): Promise<string> {
  const key = ref.toLowerCase();
  const known = ctx.communityIds.get(key);
  if (known) return known;
  const row = await findCommunity(ctx.store, key);
  if (!row) throw fail(404, 'Community not found', `No community named "${ref}". List them with GET /api/v1/communities`);
  if (ctx.communityIds.size < 100_000) {
    ctx.communityIds.set(row.name, row.id);
    ctx.communityIds.set(row.id, row.id);
  }
  return row.id;
}

/**
 * The one community several references name (community_id, community, submolt, submolt_name
 * may all be given), undefined when none is given; a 400 naming `field` when they disagree.
 */
export async function communityOfRefs(ctx: Ctx, refs: Array<string | undefined>, field: string): Promise<string | undefined> {
  const given = refs.filter((r): r is string => r !== undefined);
  const ids = new Set(await Promise.all(given.map((r) => communityIdOf(ctx, r))));
  if (ids.size > 1) throw invalid(field, `${field} and its aliases name different communities`);
  return [...ids][0];
}
