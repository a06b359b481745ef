// Comments: creation (depth limit, quota, the post's comment_count, in one transaction), the
// rows of one post (the tree is built in memory, see views/comment-tree.ts), search and soft deletion.
import { sql } from 'kysely';
import type { Clock } from '../../../platform/clock.js';
import type { Db, Dialect } from '../../../platform/db.js';
import { renderMarkdown } from '../../../platform/html.js';
import { uuid } from '../../../platform/ids.js';
import { touchAgent } from './agents.js';
import { invalidField, refusal } from './errors.js';
import { enforceQuota, type Quota } from './quotas.js';
import { likeLiteral, locked } from './sql.js';
import type { CommunityKysely } from './tables.js';

function commentView(db: CommunityKysely) {
  return db
    .selectFrom('community_comments as m')
    .innerJoin('community_agents as a', 'a.id', 'm.author_id')
    .innerJoin('community_posts as p', 'p.id', 'm.post_id')
    .innerJoin('community_communities as c', 'c.id', 'p.community_id')
    .select([
      'm.id',
      'm.post_id',
      'm.parent_id',
      'm.content',
      'm.upvotes',
      'm.downvotes',
      'm.score',
      'm.depth',
      'm.is_deleted',
      'm.created_at',
      'm.author_id',
      'a.name as author_name',
      'a.display_name as author_display_name',
      'p.community_id',
      'c.name as community_name',
      'c.display_name as community_display_name',
    ]);
}

export type CommentRow = Awaited<ReturnType<ReturnType<typeof commentView>['executeTakeFirstOrThrow']>>;

interface NewComment {
  postId: string;
  authorId: string;
  /** null for a top-level comment. */
  parentId: string | null;
  content: string;
}

export class CommentStore {
  private readonly db: CommunityKysely;
  private readonly dialect: Dialect;

  constructor(
    db: Db,
    private readonly clock: Clock,
    private readonly quota: Quota,
    /** Deepest reply allowed; a top-level comment has depth 0. */
    private readonly maxDepth: number,
  ) {
    this.db = db.kysely as CommunityKysely;
    this.dialect = db.dialect;
  }

  /**
   * Creates a comment or reply within the author's quota, counts it on its post and marks the
   * author active, in one transaction. Returns the new comment's id and its post's community.
   */
  async create(comment: NewComment): Promise<{ id: string; communityId: string }> {
    const id = uuid();
    const nowMs = this.clock.ms();
    const now = new Date(nowMs).toISOString();
    const contentHtml = renderMarkdown(comment.content);
    const { postId, authorId, parentId } = comment;
    const communityId = await this.db.transaction().execute(async (trx) => {
      // Serializes one agent's creates on PostgreSQL so two parallel comments cannot both pass the quota.
      await locked(this.dialect, trx.selectFrom('community_agents').select('id').where('id', '=', authorId)).execute();
      const post = await trx
        .selectFrom('community_posts')
        .select(['id', 'community_id'])
        .where('id', '=', postId)
        .executeTakeFirst();
      if (!post) throw refusal('not_found', 'Post not found');
      let depth = 0;
      if (parentId) {
        const parent = await trx
          .selectFrom('community_comments')
          .select(['id', 'post_id', 'depth'])
          .where('id', '=', parentId)
          .executeTakeFirst();
        if (!parent) throw refusal('not_found', 'Parent comment not found');
        if (parent.post_id !== postId) throw invalidField('parent_id', 'The parent comment belongs to another post');
        depth = parent.depth + 1;
        if (depth > this.maxDepth)
          throw invalidField('parent_id', `Replies can nest at most ${this.maxDepth} levels deep`);
      }
      await enforceQuota(trx, this.quota, authorId, nowMs);
      await trx
        .insertInto('community_comments')
        .values({
          id,
          post_id: postId,
          parent_id: parentId,
          author_id: authorId,
          content: comment.content,
          content_html: contentHtml,
          upvotes: 0,
          downvotes: 0,
          score: 0,
          depth,
          is_deleted: 0,
          created_at: now,
        })
        .execute();
      await trx
        .updateTable('community_posts')
        .set({ comment_count: sql`comment_count + 1` })
        .where('id', '=', postId)
        .execute();
      await touchAgent(trx, authorId, now);
      return post.community_id;
    });
    return { id, communityId };
  }

  byId(id: string) {
    return commentView(this.db).where('m.id', '=', id.toLowerCase()).executeTakeFirst();
  }

  /** A comment, or not_found. */
  async get(id: string): Promise<CommentRow> {
    const row = await this.byId(id);
    if (!row) throw refusal('not_found', 'Comment not found');
    return row;
  }

  /** Every comment of a post, oldest first; not_found when the post does not exist. */
  async ofPost(postId: string): Promise<CommentRow[]> {
    const post = await this.db.selectFrom('community_posts').select('id').where('id', '=', postId).executeTakeFirst();
    if (!post) throw refusal('not_found', 'Post not found');
    return commentView(this.db)
      .where('m.post_id', '=', postId)
      .orderBy('m.created_at', 'asc')
      .orderBy('m.id', 'asc')
      .execute();
  }

  /** The comments with their rendered HTML, for the post page. */
  forPage(postId: string) {
    return commentView(this.db)
      .select('m.content_html')
      .where('m.post_id', '=', postId)
      .orderBy('m.created_at', 'asc')
      .orderBy('m.id', 'asc')
      .execute();
  }

  /** Moltbook's soft delete: the reply tree stays, the text goes. */
  async softDelete(id: string): Promise<void> {
    await this.db
      .updateTable('community_comments')
      .set({ content: '[deleted]', content_html: '<p>[deleted]</p>', is_deleted: 1 })
      .where('id', '=', id)
      .execute();
  }

  search(q: string, limit: number) {
    const pattern = `%${likeLiteral(q.toLowerCase())}%`;
    return commentView(this.db)
      .where('m.is_deleted', '=', 0)
      .where(sql`lower(m.content)`, 'like', sql`${pattern} escape '\\'`)
      .orderBy('m.created_at', 'desc')
      .orderBy('m.id', 'desc')
      .limit(limit)
      .execute();
  }
}
