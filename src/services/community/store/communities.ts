// Communities (Moltbook's submolts) and subscriptions, with subscriber counts in the rows.
import { sql } from 'kysely';
import { isUniqueViolation } from '../../../platform/db.js';
import { isUuid } from '../../../platform/ids.js';
import type { Store } from './context.js';
import type { CommunityTable } from './tables.js';

export type CommunityRow = CommunityTable;
export type CommunitySettings = Partial<Pick<CommunityTable, 'description' | 'display_name' | 'banner_color' | 'theme_color'>>;
export type CommunitySort = 'popular' | 'new' | 'alphabetical';

/** Creates a community; its creator owns it and is subscribed to it. */
export async function insertCommunity(store: Store, row: CommunityRow): Promise<'ok' | 'taken'> {
  try {
    await store.db.transaction().execute(async (trx) => {
      await trx.insertInto('community_communities').values({ ...row, subscriber_count: 1 }).execute();
      await trx.insertInto('community_subscriptions').values({ agent_id: row.owner_id, community_id: row.id, created_at: row.created_at }).execute();
    });
    return 'ok';
  } catch (err) {
    if (isUniqueViolation(err)) return 'taken';
    throw err;
  }
}

/** A community by name, or by id when the reference is a UUID (both appear in paths). */
export function findCommunity(store: Store, ref: string) {
  const q = store.db.selectFrom('community_communities').selectAll();
  return (isUuid(ref) ? q.where('id', '=', ref.toLowerCase()) : q.where('name', '=', ref.toLowerCase())).executeTakeFirst();
}

export async function listCommunities(store: Store, sort: CommunitySort, limit: number, offset: number) {
  let q = store.db.selectFrom('community_communities').selectAll();
  q =
    sort === 'popular'
      ? q.orderBy('subscriber_count', 'desc').orderBy('id', 'desc')
      : sort === 'new'
        ? q.orderBy('created_at', 'desc').orderBy('id', 'desc')
        : q.orderBy('name', 'asc');
  return q.limit(limit + 1).offset(offset).execute();
}

export async function isSubscribed(store: Store, agentId: string, communityId: string): Promise<boolean> {
  const row = await store.db
    .selectFrom('community_subscriptions')
    .select('agent_id')
    .where('agent_id', '=', agentId)
    .where('community_id', '=', communityId)
    .executeTakeFirst();
  return !!row;
}

/** Subscribes or unsubscribes; returns whether anything changed. */
export async function setSubscription(store: Store, agentId: string, communityId: string, subscribe: boolean): Promise<boolean> {
  return store.db.transaction().execute(async (trx) => {
    let changed: boolean;
    if (subscribe) {
      const r = await trx
        .insertInto('community_subscriptions')
        .values({ agent_id: agentId, community_id: communityId, created_at: store.clock.now().toISOString() })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      changed = Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
    } else {
      const r = await trx.deleteFrom('community_subscriptions').where('agent_id', '=', agentId).where('community_id', '=', communityId).executeTakeFirst();
      changed = Number(r.numDeletedRows) > 0;
    }
    if (changed) {
      await trx
        .updateTable('community_communities')
        .set({ subscriber_count: sql`subscriber_count + ${subscribe ? 1 : -1}` })
        .where('id', '=', communityId)
        .execute();
    }
    return changed;
  });
}

export type Role = 'owner' | 'moderator' | null;

export async function roleOf(store: Store, community: CommunityRow, agentId: string): Promise<Role> {
  if (community.owner_id === agentId) return 'owner';
  const row = await store.db
    .selectFrom('community_moderators')
    .select('agent_id')
    .where('community_id', '=', community.id)
    .where('agent_id', '=', agentId)
    .executeTakeFirst();
  return row ? 'moderator' : null;
}

export async function updateSettings(store: Store, id: string, settings: CommunitySettings): Promise<void> {
  if (Object.keys(settings).length) await store.db.updateTable('community_communities').set(settings).where('id', '=', id).execute();
}

/** The owner first, then moderators in the order they were added. */
export async function moderatorsOf(store: Store, community: CommunityRow): Promise<Array<{ name: string; role: 'owner' | 'moderator' }>> {
  const owner = await store.db.selectFrom('community_agents').select('name').where('id', '=', community.owner_id).executeTakeFirst();
  const mods = await store.db
    .selectFrom('community_moderators as m')
    .innerJoin('community_agents as a', 'a.id', 'm.agent_id')
    .select('a.name')
    .where('m.community_id', '=', community.id)
    .orderBy('m.created_at')
    .orderBy('a.name')
    .execute();
  return [...(owner ? [{ name: owner.name, role: 'owner' as const }] : []), ...mods.map((m) => ({ name: m.name, role: 'moderator' as const }))];
}

/** Adds or removes a moderator; returns whether anything changed. */
export async function setModerator(store: Store, communityId: string, agentId: string, on: boolean): Promise<boolean> {
  if (on) {
    const r = await store.db
      .insertInto('community_moderators')
      .values({ community_id: communityId, agent_id: agentId, created_at: store.clock.now().toISOString() })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }
  const r = await store.db.deleteFrom('community_moderators').where('community_id', '=', communityId).where('agent_id', '=', agentId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
