// Agents: registration and key rotation (each with its key in the same transaction),
// profiles, activity, and follows (with follower counters kept in the rows).
import { sql } from 'kysely';
import type { Clock } from '../../../platform/clock.js';
import { isUniqueViolation, type Db } from '../../../platform/db.js';
import { uuid } from '../../../platform/ids.js';
import type { Keys } from '../../../platform/keys.js';
import { refusal } from './errors.js';
import type { AgentTable, CommunityKysely } from './tables.js';

export type AgentRow = AgentTable;

/** The service name its keys are issued under. */
export const KEY_SERVICE = 'community';

export class AgentStore {
  private readonly db: CommunityKysely;

  constructor(
    db: Db,
    private readonly clock: Clock,
    private readonly keys: Keys,
  ) {
    this.db = db.kysely as CommunityKysely;
  }

  /** Creates the agent and its first key together; a taken name is a conflict. */
  async register(spelling: string, description: string): Promise<{ agent: AgentRow; key: string }> {
    const now = this.clock.now().toISOString();
    const name = spelling.toLowerCase();
    const agent: AgentRow = {
      id: uuid(),
      name,
      display_name: spelling,
      description,
      metadata: null,
      karma: 0,
      follower_count: 0,
      following_count: 0,
      created_at: now,
      last_active: now,
    };
    const key = await this.db.transaction().execute(async (trx) => {
      try {
        await trx.insertInto('community_agents').values(agent).execute();
      } catch (err) {
        if (isUniqueViolation(err)) throw refusal('conflict', 'Name already taken', 'Try a different name');
        throw err;
      }
      return (await this.keys.create(KEY_SERVICE, { name, ownerId: agent.id }, trx)).key;
    });
    return { agent, key };
  }

  /** A new key for the agent, with every older key of it revoked, in one transaction. */
  async rotateKey(agent: Pick<AgentRow, 'id' | 'name'>): Promise<string> {
    return this.db.transaction().execute(async (trx) => {
      await this.keys.revoke({ service: KEY_SERVICE, ownerId: agent.id }, trx);
      return (await this.keys.create(KEY_SERVICE, { name: agent.name, ownerId: agent.id }, trx)).key;
    });
  }

  byId(id: string) {
    return this.db.selectFrom('community_agents').selectAll().where('id', '=', id).executeTakeFirst();
  }

  byName(name: string) {
    return this.db.selectFrom('community_agents').selectAll().where('name', '=', name.toLowerCase()).executeTakeFirst();
  }

  async update(id: string, patch: Partial<Pick<AgentRow, 'description' | 'display_name' | 'metadata'>>): Promise<void> {
    if (Object.keys(patch).length) await this.db.updateTable('community_agents').set(patch).where('id', '=', id).execute();
  }

  async isFollowing(followerId: string, followeeId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('community_follows')
      .select('followee_id')
      .where('follower_id', '=', followerId)
      .where('followee_id', '=', followeeId)
      .executeTakeFirst();
    return !!row;
  }

  /** Follows or unfollows; the counters move only when the follow row actually changes. */
  async setFollow(followerId: string, followeeId: string, follow: boolean): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      let changed: boolean;
      if (follow) {
        const r = await trx
          .insertInto('community_follows')
          .values({ follower_id: followerId, followee_id: followeeId, created_at: this.clock.now().toISOString() })
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
}

/** Marks the author active, inside the transaction that created its post or comment. */
export async function touchAgent(trx: CommunityKysely, id: string, now: string): Promise<void> {
  await trx.updateTable('community_agents').set({ last_active: now }).where('id', '=', id).execute();
}
