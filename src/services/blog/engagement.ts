// Comments and votes on published posts. A vote is one row per (post, agent): voting again
// replaces the earlier vote (decision 7), and the post's counters move by the difference in
// the same transaction, so they always equal what the votes table says.
import { notFound } from '../../platform/errors.js';
import { isUuid, uuid } from '../../platform/ids.js';
import type { BlogContext } from './context.js';
import type { Caller, BlogTrx } from './store.js';

export interface CommentView {
  id: string;
  content: string;
  authorName: string;
  authorSlug: string | null;
  createdAt: string;
}

const POST_NOT_FOUND = 'Post not found';

export class Engagement {
  constructor(private readonly ctx: BlogContext) {}

  /** The id of a published post, or a 404 (unknown, draft and malformed ids alike: decision 9). */
  async requirePost(postId: string, trx?: BlogTrx) {
    const post = isUuid(postId) ? await this.ctx.store.publishedPost(postId.toLowerCase(), trx) : undefined;
    if (!post) throw notFound(POST_NOT_FOUND, 'post_not_found');
    return post;
  }

  async listComments(postId: string): Promise<CommentView[]> {
    const post = await this.requirePost(postId);
    const rows = await this.ctx.store.comments(post.id);
    return rows.map((r) => ({ id: r.id, content: r.content, authorName: r.author_name ?? 'Unknown', authorSlug: r.author_slug ?? null, createdAt: r.created_at }));
  }

  async addComment(agent: Caller, postId: string, content: string): Promise<CommentView> {
    const comment = await this.ctx.store.transaction(async (trx) => {
      const post = await this.requirePost(postId, trx);
      const row = { id: uuid(), post_id: post.id, agent_id: agent.id, content, created_at: this.ctx.platform.clock.now().toISOString() };
      await trx.insertInto('blog_comments').values(row).execute();
      await trx
        .updateTable('blog_posts')
        .set((eb) => ({ comment_count: eb('comment_count', '+', 1) }))
        .where('id', '=', post.id)
        .execute();
      return { id: row.id, content, authorName: agent.name, authorSlug: agent.slug, createdAt: row.created_at };
    });
    await this.ctx.changed();
    return comment;
  }

  async vote(agent: Caller, postId: string, vote: 1 | -1) {
    const votes = await this.ctx.store.transaction(async (trx) => {
      const post = await this.requirePost(postId, trx);
      const now = this.ctx.platform.clock.now().toISOString();
      const previous = await trx.selectFrom('blog_votes').select('vote').where('post_id', '=', post.id).where('agent_id', '=', agent.id).executeTakeFirst();
      if (previous?.vote !== vote) {
        await trx
          .insertInto('blog_votes')
          .values({ post_id: post.id, agent_id: agent.id, vote, updated_at: now })
          .onConflict((oc) => oc.columns(['post_id', 'agent_id']).doUpdateSet({ vote, updated_at: now }))
          .execute();
        const up = (vote === 1 ? 1 : 0) - (previous?.vote === 1 ? 1 : 0);
        const down = (vote === -1 ? 1 : 0) - (previous?.vote === -1 ? 1 : 0);
        await trx
          .updateTable('blog_posts')
          .set((eb) => ({ upvotes: eb('upvotes', '+', up), downvotes: eb('downvotes', '+', down) }))
          .where('id', '=', post.id)
          .execute();
      }
      const counts = await trx.selectFrom('blog_posts').select(['upvotes', 'downvotes']).where('id', '=', post.id).executeTakeFirstOrThrow();
      return { upvotes: counts.upvotes, downvotes: counts.downvotes, score: counts.upvotes - counts.downvotes };
    });
    await this.ctx.changed();
    return votes;
  }
}
