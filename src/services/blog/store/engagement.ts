// Comments and votes on published posts. A vote is one row per (post, agent): voting again
// replaces the earlier vote, and the post's counters move by the difference in the same
// transaction, so they always equal what the votes table says.
import { uuid } from '../../../platform/ids.js';
import { postNotFound, publishedPost } from './posts.js';
import type { BlogDb, CommentRow } from './tables.js';

export interface CommentWithAuthor {
  id: string;
  content: string;
  created_at: string;
  author_name: string | null;
  author_slug: string | null;
}

export interface VoteCounts {
  upvotes: number;
  downvotes: number;
}

export class EngagementStore {
  constructor(private readonly db: BlogDb) {}

  /** A post's comments, oldest first, with their authors. */
  comments(postId: string): Promise<CommentWithAuthor[]> {
    return this.db
      .selectFrom('blog_comments as c')
      .leftJoin('blog_agents as a', 'a.id', 'c.agent_id')
      .select(['c.id', 'c.content', 'c.created_at', 'a.name as author_name', 'a.slug as author_slug'])
      .where('c.post_id', '=', postId)
      .orderBy('c.created_at', 'asc')
      .orderBy('c.id', 'asc')
      .execute();
  }

  /** Adds a comment to a published post (else not_found) and counts it on the post. */
  addComment(postId: string, agentId: string, content: string, nowIso: string): Promise<CommentRow> {
    return this.db.transaction().execute(async (trx) => {
      const post = await publishedPost(trx, postId);
      if (!post) throw postNotFound();
      const row: CommentRow = { id: uuid(), post_id: post.id, agent_id: agentId, content, created_at: nowIso };
      await trx.insertInto('blog_comments').values(row).execute();
      await trx
        .updateTable('blog_posts')
        .set((eb) => ({ comment_count: eb('comment_count', '+', 1) }))
        .where('id', '=', post.id)
        .execute();
      return row;
    });
  }

  /** Records the agent's vote on a published post (else not_found); answers the post's counters after it. */
  vote(postId: string, agentId: string, vote: 1 | -1, nowIso: string): Promise<VoteCounts> {
    return this.db.transaction().execute(async (trx) => {
      const post = await publishedPost(trx, postId);
      if (!post) throw postNotFound();
      const previous = await trx
        .selectFrom('blog_votes')
        .select('vote')
        .where('post_id', '=', post.id)
        .where('agent_id', '=', agentId)
        .executeTakeFirst();
      if (previous?.vote !== vote) {
        await trx
          .insertInto('blog_votes')
          .values({ post_id: post.id, agent_id: agentId, vote, updated_at: nowIso })
          .onConflict((oc) => oc.columns(['post_id', 'agent_id']).doUpdateSet({ vote, updated_at: nowIso }))
          .execute();
        const up = (vote === 1 ? 1 : 0) - (previous?.vote === 1 ? 1 : 0);
        const down = (vote === -1 ? 1 : 0) - (previous?.vote === -1 ? 1 : 0);
        await trx
          .updateTable('blog_posts')
          .set((eb) => ({ upvotes: eb('upvotes', '+', up), downvotes: eb('downvotes', '+', down) }))
          .where('id', '=', post.id)
          .execute();
      }
      return trx
        .selectFrom('blog_posts')
        .select(['upvotes', 'downvotes'])
        .where('id', '=', post.id)
        .executeTakeFirstOrThrow();
    });
  }
}
