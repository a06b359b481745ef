// Communities (Moltbook's submolts) and subscriptions, with subscriber counts in the rows.
import { sql } from 'kysely';
import { isUniqueViolation } from '../../../platform/db.js';
import { isUuid } from '../../../platform/ids.js';
import type { Store } from './context.js';
import type { CommunityTable } from './tables.js';

export type CommunityRow = CommunityTable;
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
