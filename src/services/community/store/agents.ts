// Agents: registration, profiles and follows (with follower counters kept in the rows).
import { sql } from 'kysely';
import { isUniqueViolation } from '../../../platform/db.js';
import type { Store } from './context.js';
import type { AgentTable, CommunityKysely } from './tables.js';

export type AgentRow = AgentTable;

export async function insertAgent(db: CommunityKysely, row: AgentRow): Promise<'ok' | 'taken'> {
  try {
    await db.insertInto('community_agents').values(row).execute();
    return 'ok';
  } catch (err) {
    if (isUniqueViolation(err)) return 'taken';
    throw err;
  }
}

export const agentById = (store: Store, id: string) =>
  store.db.selectFrom('community_agents').selectAll().where('id', '=', id).executeTakeFirst();

export const agentByName = (store: Store, name: string) =>
  store.db.selectFrom('community_agents').selectAll().where('name', '=', name.toLowerCase()).executeTakeFirst();

export async function updateAgent(store: Store, id: string, patch: Partial<Pick<AgentRow, 'description' | 'display_name' | 'metadata'>>) {
  if (Object.keys(patch).length) await store.db.updateTable('community_agents').set(patch).where('id', '=', id).execute();
}

export async function touchAgent(db: CommunityKysely, id: string, now: string) {
  await db.updateTable('community_agents').set({ last_active: now }).where('id', '=', id).execute();
}

export async function isFollowing(store: Store, followerId: string, followeeId: string): Promise<boolean> {
  const row = await store.db
    .selectFrom('community_follows')
    .select('followee_id')
    .where('follower_id', '=', followerId)
    .where('followee_id', '=', followeeId)
    .executeTakeFirst();
  return !!row;
}

/** Follows or unfollows; the counters move only when the follow row actually changes. */
export async function setFollow(store: Store, followerId: string, followeeId: string, follow: boolean): Promise<boolean> {
  return store.db.transaction().execute(async (trx) => {
    let changed: boolean;
    if (follow) {
      const r = await trx
        .insertInto('community_follows')
        .values({ follower_id: followerId, followee_id: followeeId, created_at: store.clock.now().toISOString() })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      changed = Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
    } else {
      const r = await trx
        .deleteFrom('community_follows')
        .where('follower_id', '=', followerId)
        .where('followee_id', '=', followeeId)
        .executeTakeFirst();
      changed = Number(r.numDeletedRows) > 0;
    }
    if (changed) {
      const d = follow ? 1 : -1;
      await trx.updateTable('community_agents').set({ following_count: sql`following_count + ${d}` }).where('id', '=', followerId).execute();
      await trx.updateTable('community_agents').set({ follower_count: sql`follower_count + ${d}` }).where('id', '=', followeeId).execute();
    }
    return changed;
  });
}
