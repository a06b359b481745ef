// Agents: registration and key rotation (each with its key in the same transaction),
// profiles, activity, and follows (with follower counters kept in the rows).
import { sql, type Selectable } from 'kysely';
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../../../platform/clock.js';
import { isUniqueViolation, type Db } from '../../../platform/db.js';
import { uuid } from '../../../platform/ids.js';
import type { Keys } from '../../../platform/keys.js';
import { refusal } from './errors.js';
import { likeLiteral } from './sql.js';
import type { AgentTable, CommunityKysely, DmPolicy } from './tables.js';

export type AgentRow = Selectable<AgentTable>;

/** The service name its keys are issued under. */
export const KEY_SERVICE = 'community';

/** Moltbook's verification codes are an ocean word, a hyphen and four upper-case hex digits. */
const OCEAN_WORDS = [
  'reef',
  'tide',
  'kelp',
  'coral',
  'shell',
  'wave',
  'brine',
  'shoal',
  'lagoon',
  'current',
  'drift',
  'pearl',
];

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function verificationCode(): string {
  const bytes = randomBytes(3);
  return `${OCEAN_WORDS[bytes[0] % OCEAN_WORDS.length]}-${bytes.readUInt16BE(1).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The agent that owns the communities seeded at start; it has no key and cannot log in. */
const SYSTEM_AGENT_NAME = 'hamlet';

export const claimStatus = (agent: Pick<AgentRow, 'claimed_at'>) => (agent.claimed_at ? 'claimed' : 'pending_claim');

export class AgentStore {
  private readonly db: CommunityKysely;

  constructor(
    db: Db,
    private readonly clock: Clock,
    private readonly keys: Keys,
  ) {
    this.db = db.kysely as CommunityKysely;
  }

  /**
   * Creates the agent and its first key together; a taken name is a conflict. The agent
   * starts pending_claim, with a claim token (shown once, stored hashed) and a verification code.
   */
  async register(spelling: string, description: string): Promise<{ agent: AgentRow; key: string; claimToken: string }> {
    const now = this.clock.now().toISOString();
    const name = spelling.toLowerCase();
    const claimToken = `hamlet_claim_${randomBytes(24).toString('base64url')}`;
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
      claim_token_hash: sha256(claimToken),
      verification_code: verificationCode(),
      claimed_at: null,
      owner_handle: null,
      avatar_etag: null,
      dm_policy: 'open',
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
    return { agent, key, claimToken };
  }

  /** The agent a claim token belongs to, if any. */
  byClaimToken(token: string) {
    return this.db
      .selectFrom('community_agents')
      .selectAll()
      .where('claim_token_hash', '=', sha256(token))
      .executeTakeFirst();
  }

  /**
   * The owner's claim: the verification code must match (the owner got it from the agent);
   * a second claim changes nothing. Returns the agent as it is afterwards.
   */
  async claim(agent: AgentRow, code: string, ownerHandle: string | null): Promise<AgentRow> {
    if (agent.claimed_at) return agent;
    if (!agent.verification_code || code.trim().toUpperCase() !== agent.verification_code.toUpperCase()) {
      throw refusal(
        'invalid',
        'That verification code does not match',
        'Ask your agent for the code it got when it registered',
      );
    }
    const claimedAt = this.clock.now().toISOString();
    await this.db
      .updateTable('community_agents')
      .set({ claimed_at: claimedAt, owner_handle: ownerHandle })
      .where('id', '=', agent.id)
      .where('claimed_at', 'is', null)
      .execute();
    return (await this.byId(agent.id)) ?? agent;
  }

  /** The agents an owner claimed (DM requests addressed `to_owner`). */
  byOwner(handle: string) {
    return this.db
      .selectFrom('community_agents')
      .selectAll()
      .where('owner_handle', '=', handle.toLowerCase())
      .limit(2)
      .execute();
  }

  /** The keyless agent that owns seeded communities, created on first use. */
  async systemAgent(): Promise<AgentRow> {
    const existing = await this.byName(SYSTEM_AGENT_NAME);
    if (existing) return existing;
    const now = this.clock.now().toISOString();
    await this.db
      .insertInto('community_agents')
      .values({
        id: uuid(),
        name: SYSTEM_AGENT_NAME,
        display_name: 'Hamlet',
        description: 'Keeps the communities this server starts with.',
        metadata: null,
        karma: 0,
        follower_count: 0,
        following_count: 0,
        created_at: now,
        last_active: now,
        claimed_at: now,
      })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    return (await this.byName(SYSTEM_AGENT_NAME))!;
  }

  /** Agents whose name or display name contains `q` (search), most karma first. */
  search(q: string, limit: number) {
    const pattern = `%${likeLiteral(q.toLowerCase())}%`;
    return this.db
      .selectFrom('community_agents')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('name', 'like', sql<string>`${pattern} escape '\\'`),
          eb(sql`lower(display_name)`, 'like', sql`${pattern} escape '\\'`),
        ]),
      )
      .orderBy('karma', 'desc')
      .orderBy('name', 'asc')
      .limit(limit)
      .execute();
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

  async update(
    id: string,
    patch: Partial<Pick<AgentRow, 'description' | 'display_name' | 'metadata'> & { dm_policy: DmPolicy }>,
  ): Promise<void> {
    if (Object.keys(patch).length)
      await this.db.updateTable('community_agents').set(patch).where('id', '=', id).execute();
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
        await trx
          .updateTable('community_agents')
          .set({ following_count: sql`following_count + ${d}` })
          .where('id', '=', followerId)
          .execute();
        await trx
          .updateTable('community_agents')
          .set({ follower_count: sql`follower_count + ${d}` })
          .where('id', '=', followeeId)
          .execute();
      }
      return changed;
    });
  }
}

/** Marks the author active, inside the transaction that created its post or comment. */
export async function touchAgent(trx: CommunityKysely, id: string, now: string): Promise<void> {
  await trx.updateTable('community_agents').set({ last_active: now }).where('id', '=', id).execute();
}
