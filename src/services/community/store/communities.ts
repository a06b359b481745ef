// Communities (Moltbook's submolts), subscriptions with subscriber counts in the rows, and
// moderators.
import { sql, type Selectable } from 'kysely';
import type { Clock } from '../../../platform/clock.js';
import { isUniqueViolation, type Db } from '../../../platform/db.js';
import { isUuid, uuid } from '../../../platform/ids.js';
import { invalidField, refusal } from './errors.js';
import { likeLiteral } from './sql.js';
import type { CommunityKysely, CommunityTable } from './tables.js';

export type CommunityRow = Selectable<CommunityTable>;
export type CommunityChanges = Partial<
  Pick<CommunityTable, 'description' | 'display_name' | 'banner_color' | 'theme_color'>
>;
type CommunitySort = 'popular' | 'new' | 'alphabetical';
export type Role = 'owner' | 'moderator' | null;

/** Name → id entries kept; communities are never renamed or deleted, so none goes stale. */
const MAX_KNOWN_IDS = 100_000;

export class CommunityStore {
  private readonly db: CommunityKysely;
  private readonly knownIds = new Map<string, string>();

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    this.db = db.kysely as CommunityKysely;
  }

  /** After a world restore: names may now belong to other ids. */
  forgetKnownIds(): void {
    this.knownIds.clear();
  }

  /** Creates a community; its creator owns it and is subscribed to it. A taken name is a conflict. */
  async create(fields: {
    name: string;
    display_name: string;
    description: string;
    owner_id: string;
  }): Promise<CommunityRow> {
    const row: CommunityRow = {
      id: uuid(),
      ...fields,
      subscriber_count: 1,
      post_count: 0,
      created_at: this.clock.now().toISOString(),
      banner_color: null,
      theme_color: null,
      avatar_etag: null,
      banner_etag: null,
    };
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx.insertInto('community_communities').values(row).execute();
        await trx
          .insertInto('community_subscriptions')
          .values({ agent_id: row.owner_id, community_id: row.id, created_at: row.created_at })
          .execute();
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw refusal('conflict', 'Community name already taken', 'Try a different name');
      throw err;
    }
    return row;
  }

  /** A community by name, or by id when the reference is a UUID (both appear in paths). */
  find(ref: string) {
    const q = this.db.selectFrom('community_communities').selectAll();
    return (
      isUuid(ref) ? q.where('id', '=', ref.toLowerCase()) : q.where('name', '=', ref.toLowerCase())
    ).executeTakeFirst();
  }

  /** The community named (or identified) by `ref`, or not_found. */
  async get(ref: string): Promise<CommunityRow> {
    const row = await this.find(ref);
    if (!row) throw refusal('not_found', 'Community not found', `No community named "${ref}"`);
    return row;
  }

  /** The id of the community named (or identified) by `ref`, remembered; not_found when there is none. */
  async idOf(ref: string): Promise<string> {
    const key = ref.toLowerCase();
    const known = this.knownIds.get(key);
    if (known) return known;
    const row = await this.find(key);
    if (!row)
      throw refusal(
        'not_found',
        'Community not found',
        `No community named "${ref}". List them with GET /api/v1/communities`,
      );
    if (this.knownIds.size < MAX_KNOWN_IDS) {
      this.knownIds.set(row.name, row.id);
      this.knownIds.set(row.id, row.id);
    }
    return row.id;
  }

  /**
   * The one community several references name (community_id, community, submolt, submolt_name
   * may all be given), undefined when none is given; invalid (naming `field`) when they disagree.
   */
  async idOfRefs(refs: Array<string | undefined>, field: string): Promise<string | undefined> {
    const given = refs.filter((r): r is string => r !== undefined);
    const ids = new Set(await Promise.all(given.map((r) => this.idOf(r))));
    if (ids.size > 1) throw invalidField(field, `${field} and its aliases name different communities`);
    return [...ids][0];
  }

  /**
   * Creates each missing community of `defaults`, owned by `ownerId`; existing ones (seeded
   * earlier or made by agents) are left as they are. Returns the names created.
   */
  async seed(
    defaults: Array<{ name: string; display_name: string; description: string }>,
    ownerId: string,
  ): Promise<string[]> {
    const created: string[] = [];
    for (const d of defaults) {
      const now = this.clock.now().toISOString();
      const r = await this.db
        .insertInto('community_communities')
        .values({
          id: uuid(),
          ...d,
          owner_id: ownerId,
          subscriber_count: 0,
          post_count: 0,
          created_at: now,
          banner_color: null,
          theme_color: null,
        })
        .onConflict((oc) => oc.column('name').doNothing())
        .executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows ?? 0) > 0) created.push(d.name);
    }
    return created;
  }

  /** Communities whose name, display name or description contains `q`, most subscribed first. */
  search(q: string, limit: number) {
    const pattern = `%${likeLiteral(q.toLowerCase())}%`;
    return this.db
      .selectFrom('community_communities')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('name', 'like', sql<string>`${pattern} escape '\\'`),
          eb(sql`lower(display_name)`, 'like', sql`${pattern} escape '\\'`),
          eb(sql`lower(description)`, 'like', sql`${pattern} escape '\\'`),
        ]),
      )
      .orderBy('subscriber_count', 'desc')
      .orderBy('name', 'asc')
      .limit(limit)
      .execute();
  }

  list(sort: CommunitySort, limit: number, offset: number) {
    let q = this.db.selectFrom('community_communities').selectAll();
    q =
      sort === 'popular'
        ? q.orderBy('subscriber_count', 'desc').orderBy('id', 'desc')
        : sort === 'new'
          ? q.orderBy('created_at', 'desc').orderBy('id', 'desc')
          : q.orderBy('name', 'asc');
    return q
      .limit(limit + 1)
      .offset(offset)
      .execute();
  }

  async isSubscribed(agentId: string, communityId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('community_subscriptions')
      .select('agent_id')
      .where('agent_id', '=', agentId)
      .where('community_id', '=', communityId)
      .executeTakeFirst();
    return !!row;
  }

  /** Subscribes or unsubscribes; returns whether anything changed. */
  async setSubscription(agentId: string, communityId: string, subscribe: boolean): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      let changed: boolean;
      if (subscribe) {
        const r = await trx
          .insertInto('community_subscriptions')
          .values({ agent_id: agentId, community_id: communityId, created_at: this.clock.now().toISOString() })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst();
        changed = Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
      } else {
        const r = await trx
          .deleteFrom('community_subscriptions')
          .where('agent_id', '=', agentId)
          .where('community_id', '=', communityId)
          .executeTakeFirst();
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

  async roleOf(community: CommunityRow, agentId: string): Promise<Role> {
    if (community.owner_id === agentId) return 'owner';
    const row = await this.db
      .selectFrom('community_moderators')
      .select('agent_id')
      .where('community_id', '=', community.id)
      .where('agent_id', '=', agentId)
      .executeTakeFirst();
    return row ? 'moderator' : null;
  }

  async update(id: string, changes: CommunityChanges): Promise<void> {
    if (Object.keys(changes).length)
      await this.db.updateTable('community_communities').set(changes).where('id', '=', id).execute();
  }

  /** The owner first, then moderators in the order they were added. */
  async moderatorsOf(community: CommunityRow): Promise<Array<{ name: string; role: 'owner' | 'moderator' }>> {
    const owner = await this.db
      .selectFrom('community_agents')
      .select('name')
      .where('id', '=', community.owner_id)
      .executeTakeFirst();
    const mods = await this.db
      .selectFrom('community_moderators as m')
      .innerJoin('community_agents as a', 'a.id', 'm.agent_id')
      .select('a.name')
      .where('m.community_id', '=', community.id)
      .orderBy('m.created_at')
      .orderBy('a.name')
      .execute();
    return [
      ...(owner ? [{ name: owner.name, role: 'owner' as const }] : []),
      ...mods.map((m) => ({ name: m.name, role: 'moderator' as const })),
    ];
  }

  /** Adds or removes a moderator; returns whether anything changed. */
  async setModerator(communityId: string, agentId: string, on: boolean): Promise<boolean> {
    if (on) {
      const r = await this.db
        .insertInto('community_moderators')
        .values({ community_id: communityId, agent_id: agentId, created_at: this.clock.now().toISOString() })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
    }
    const r = await this.db
      .deleteFrom('community_moderators')
      .where('community_id', '=', communityId)
      .where('agent_id', '=', agentId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
