// Posts: the listings (each an index range scan), creation with its quota and counters,
// pins, and deletion with everything that hangs off a post.
import { sql, type ExpressionBuilder } from 'kysely';
import type { Clock } from '../../../platform/clock.js';
import type { Db, Dialect } from '../../../platform/db.js';
import { renderMarkdown } from '../../../platform/html.js';
import { uuid } from '../../../platform/ids.js';
import { hotRank, rising } from '../ranking/ranking.js';
import { touchAgent } from './agents.js';
import { refusal } from './errors.js';
import { enforceQuota, type Quota } from './quotas.js';
import { likeLiteral, locked } from './sql.js';
import type { CommunityDb, CommunityKysely, PostTable } from './tables.js';

export type PostSort = 'hot' | 'new' | 'top' | 'rising';

/** Which posts a listing shows. */
export interface PostFilter {
  communityId?: string;
  authorId?: string;
  /** Posts of the communities this agent subscribes to and of the agents it follows. */
  feedOf?: string;
  /** Leaves pinned posts out (they are listed separately, first). */
  unpinnedOnly?: boolean;
}

/** A community may pin this many posts (Moltbook's production limit). */
const MAX_PINNED = 3;

/** Rising is computed over the newest posts only: a bounded candidate set, never the table. */
const RISING_WINDOW_MS = 48 * 3_600_000;
const RISING_CANDIDATES = 1000;

/** The columns a Post response needs, and nothing else (content_html stays behind). */
function postView(db: CommunityKysely) {
  return db
    .selectFrom('community_posts as p')
    .innerJoin('community_agents as a', 'a.id', 'p.author_id')
    .innerJoin('community_communities as c', 'c.id', 'p.community_id')
    .select([
      'p.id',
      'p.title',
      'p.content',
      'p.url',
      'p.post_type',
      'p.upvotes',
      'p.downvotes',
      'p.score',
      'p.comment_count',
      'p.created_at',
      'p.is_pinned',
      'p.hot',
      'p.author_id',
      'a.name as author_name',
      'p.community_id',
      'c.name as community_name',
      'c.display_name as community_display_name',
    ]);
}

export type PostRow = Awaited<ReturnType<ReturnType<typeof postView>['executeTakeFirstOrThrow']>>;

function applyFilter(filter: PostFilter) {
  return (eb: ExpressionBuilder<CommunityDb & { p: PostTable }, 'p'>) => {
    const parts = [];
    if (filter.communityId) parts.push(eb('p.community_id', '=', filter.communityId));
    if (filter.authorId) parts.push(eb('p.author_id', '=', filter.authorId));
    if (filter.unpinnedOnly) parts.push(eb('p.is_pinned', '=', 0));
    if (filter.feedOf) {
      parts.push(
        eb.or([
          eb(
            'p.community_id',
            'in',
            eb.selectFrom('community_subscriptions').select('community_id').where('agent_id', '=', filter.feedOf),
          ),
          eb(
            'p.author_id',
            'in',
            eb.selectFrom('community_follows').select('followee_id').where('follower_id', '=', filter.feedOf),
          ),
        ]),
      );
    }
    return eb.and(parts);
  };
}

/** A new post: text (content) or link (url, content ""). */
interface NewPost {
  communityId: string;
  authorId: string;
  title: string;
  content: string;
  url: string | null;
}

export class PostStore {
  private readonly db: CommunityKysely;
  private readonly dialect: Dialect;

  constructor(
    db: Db,
    private readonly clock: Clock,
    private readonly quota: Quota,
  ) {
    this.db = db.kysely as CommunityKysely;
    this.dialect = db.dialect;
  }

  /** Whether an agent subscribes to or follows anything (an empty feed must not scan the ranking index). */
  async hasFeedSources(agentId: string): Promise<boolean> {
    const [sub, follow] = await Promise.all([
      this.db
        .selectFrom('community_subscriptions')
        .select('agent_id')
        .where('agent_id', '=', agentId)
        .limit(1)
        .executeTakeFirst(),
      this.db
        .selectFrom('community_follows')
        .select('follower_id')
        .where('follower_id', '=', agentId)
        .limit(1)
        .executeTakeFirst(),
    ]);
    return !!(sub || follow);
  }

  /**
   * One page of posts plus one extra row, so the caller knows whether more follow. A
   * community's listing is its pinned posts followed by the ranked rest, paged as one list.
   */
  async list(sort: PostSort, filter: PostFilter, limit: number, offset: number): Promise<PostRow[]> {
    const want = limit + 1;
    const pinned =
      filter.communityId && !filter.feedOf && !filter.authorId ? await this.pinned(filter.communityId) : [];
    if (!pinned.length) return this.ranked(sort, filter, want, offset);
    const head = pinned.slice(offset, offset + want);
    const rest = want - head.length;
    const tail =
      rest > 0
        ? await this.ranked(sort, { ...filter, unpinnedOnly: true }, rest, Math.max(0, offset - pinned.length))
        : [];
    return [...head, ...tail];
  }

  private pinned(communityId: string) {
    return postView(this.db)
      .where('p.community_id', '=', communityId)
      .where('p.is_pinned', '=', 1)
      .orderBy('p.pinned_at', 'asc')
      .orderBy('p.id', 'asc')
      .limit(MAX_PINNED)
      .execute();
  }

  /** Up to `count` posts in rank order from `offset`. */
  private async ranked(sort: PostSort, filter: PostFilter, count: number, offset: number): Promise<PostRow[]> {
    // Kysely's typing of aliased joins is strict; the filter only touches `p`.
    if (sort === 'rising') {
      const nowMs = this.clock.ms();
      const since = new Date(nowMs - RISING_WINDOW_MS).toISOString();
      const candidates = await postView(this.db)
        .where(applyFilter(filter) as never)
        .where('p.created_at', '>', since)
        .orderBy('p.created_at', 'desc')
        .orderBy('p.id', 'desc')
        .limit(RISING_CANDIDATES)
        .execute();
      const ranked = candidates
        .map((row) => ({ row, rank: rising(row.score, Date.parse(row.created_at), nowMs) }))
        .sort((x, y) => y.rank - x.rank || (x.row.id < y.row.id ? 1 : -1));
      return ranked.slice(offset, offset + count).map((r) => r.row);
    }
    // Two steps, so that deep offsets are cheap: the page's ids come from the ranking index
    // alone (a covering index scan, no joins, no text columns), then only those rows are read.
    const column = sort === 'hot' ? 'p.hot' : sort === 'top' ? 'p.score' : 'p.created_at';
    const page = await this.db
      .selectFrom('community_posts as p')
      .select('p.id')
      .where(applyFilter(filter) as never)
      .orderBy(column, 'desc')
      .orderBy('p.id', 'desc')
      .limit(count)
      .offset(offset)
      .execute();
    if (!page.length) return [];
    const rows = await postView(this.db)
      .where(
        'p.id',
        'in',
        page.map((r) => r.id),
      )
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    // A post deleted between the two reads is simply left out.
    return page.map((r) => byId.get(r.id)).filter((r): r is PostRow => r !== undefined);
  }

  byId(id: string) {
    return postView(this.db).where('p.id', '=', id.toLowerCase()).executeTakeFirst();
  }

  /** The post with its rendered HTML, for the post page. */
  pageRow(id: string) {
    return postView(this.db).select('p.content_html').where('p.id', '=', id.toLowerCase()).executeTakeFirst();
  }

  /** Who wrote a post and where, or not_found. */
  async owner(id: string): Promise<{ id: string; author_id: string; community_id: string }> {
    const row = await this.db
      .selectFrom('community_posts')
      .select(['id', 'author_id', 'community_id'])
      .where('id', '=', id.toLowerCase())
      .executeTakeFirst();
    if (!row) throw refusal('not_found', 'Post not found');
    return row;
  }

  /**
   * Creates a post within the author's quota, counting it in its community and marking the
   * author active, in one transaction. Returns the new post's id.
   */
  async create(post: NewPost): Promise<string> {
    const id = uuid();
    const nowMs = this.clock.ms();
    const now = new Date(nowMs).toISOString();
    const contentHtml = post.content ? renderMarkdown(post.content) : '';
    await this.db.transaction().execute(async (trx) => {
      // Serializes one agent's creates on PostgreSQL so two parallel posts cannot both pass the quota.
      await locked(
        this.dialect,
        trx.selectFrom('community_agents').select('id').where('id', '=', post.authorId),
      ).execute();
      await enforceQuota(trx, this.quota, post.authorId, nowMs);
      await trx
        .insertInto('community_posts')
        .values({
          id,
          community_id: post.communityId,
          author_id: post.authorId,
          title: post.title,
          content: post.content,
          url: post.url,
          post_type: post.url ? 'link' : 'text',
          upvotes: 0,
          downvotes: 0,
          score: 0,
          hot: hotRank(0, nowMs),
          comment_count: 0,
          content_html: contentHtml,
          created_at: now,
        })
        .execute();
      await trx
        .updateTable('community_communities')
        .set({ post_count: sql`post_count + 1` })
        .where('id', '=', post.communityId)
        .execute();
      await touchAgent(trx, post.authorId, now);
    });
    return id;
  }

  /** Hard delete (Moltbook's behaviour): the post, its comments and every vote on either. */
  async delete(id: string, communityId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const commentIds = trx.selectFrom('community_comments').select('id').where('post_id', '=', id);
      await trx
        .deleteFrom('community_votes')
        .where('target_type', '=', 'comment')
        .where('target_id', 'in', commentIds)
        .execute();
      await trx.deleteFrom('community_votes').where('target_type', '=', 'post').where('target_id', '=', id).execute();
      await trx.deleteFrom('community_comments').where('post_id', '=', id).execute();
      const r = await trx.deleteFrom('community_posts').where('id', '=', id).executeTakeFirst();
      if (Number(r.numDeletedRows) > 0) {
        await trx
          .updateTable('community_communities')
          .set({ post_count: sql`post_count - 1` })
          .where('id', '=', communityId)
          .execute();
      }
    });
  }

  /** Case-insensitive substring search over titles and content, newest first. */
  search(q: string, limit: number) {
    const pattern = `%${likeLiteral(q.toLowerCase())}%`;
    return postView(this.db)
      .where((eb) =>
        eb.or([
          eb(sql`lower(p.title)`, 'like', sql`${pattern} escape '\\'`),
          eb(sql`lower(p.content)`, 'like', sql`${pattern} escape '\\'`),
        ]),
      )
      .orderBy('p.created_at', 'desc')
      .orderBy('p.id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Pins or unpins a post; at most MAX_PINNED per community. Returns whether anything changed. */
  async setPinned(post: { id: string; community_id: string }, pin: boolean): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      // Serializes pins of one community on PostgreSQL, so parallel pins cannot pass the limit.
      await locked(
        this.dialect,
        trx.selectFrom('community_communities').select('id').where('id', '=', post.community_id),
      ).execute();
      const current = await trx
        .selectFrom('community_posts')
        .select('is_pinned')
        .where('id', '=', post.id)
        .executeTakeFirst();
      if (!current || (current.is_pinned === 1) === pin) return false;
      if (pin) {
        const pinned = await trx
          .selectFrom('community_posts')
          .select('id')
          .where('community_id', '=', post.community_id)
          .where('is_pinned', '=', 1)
          .execute();
        if (pinned.length >= MAX_PINNED)
          throw refusal('invalid', `A community can pin at most ${MAX_PINNED} posts`, 'Unpin one first');
      }
      await trx
        .updateTable('community_posts')
        .set({ is_pinned: pin ? 1 : 0, pinned_at: pin ? this.clock.now().toISOString() : null })
        .where('id', '=', post.id)
        .execute();
      return true;
    });
  }
}
