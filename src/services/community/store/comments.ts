// Comments: insertion with the post's comment_count, the rows of one post (the tree is built
// in memory, see comments.ts), and soft deletion.
import { sql } from 'kysely';
import { likeLiteral, type Store } from './context.js';
import type { CommentTable, CommunityKysely } from './tables.js';

function commentView(db: CommunityKysely) {
  return db
    .selectFrom('community_comments as m')
    .innerJoin('community_agents as a', 'a.id', 'm.author_id')
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
    ]);
}

export type CommentRow = Awaited<ReturnType<ReturnType<typeof commentView>['executeTakeFirstOrThrow']>>;

export async function insertComment(trx: CommunityKysely, row: CommentTable): Promise<void> {
  await trx.insertInto('community_comments').values(row).execute();
  await trx.updateTable('community_posts').set({ comment_count: sql`comment_count + 1` }).where('id', '=', row.post_id).execute();
}

export const commentById = (store: Store, id: string) => commentView(store.db).where('m.id', '=', id.toLowerCase()).executeTakeFirst();

/** Every comment of a post, oldest first. */
export const commentsOfPost = (store: Store, postId: string) =>
  commentView(store.db).where('m.post_id', '=', postId).orderBy('m.created_at', 'asc').orderBy('m.id', 'asc').execute();

/** The comments with their rendered HTML, for the post page. */
export const commentsForPage = (store: Store, postId: string) =>
  commentView(store.db).select('m.content_html').where('m.post_id', '=', postId).orderBy('m.created_at', 'asc').orderBy('m.id', 'asc').execute();

/** Parent lookup for a reply: it must exist and belong to the same post. */
export const commentParent = (trx: CommunityKysely, id: string) =>
  trx.selectFrom('community_comments').select(['id', 'post_id', 'depth']).where('id', '=', id.toLowerCase()).executeTakeFirst();

/** Moltbook's soft delete: the reply tree stays, the text goes. */
export async function softDeleteComment(store: Store, id: string): Promise<void> {
  await store.db.updateTable('community_comments').set({ content: '[deleted]', content_html: '<p>[deleted]</p>', is_deleted: 1 }).where('id', '=', id).execute();
}

export function searchComments(store: Store, q: string, limit: number) {
  const pattern = `%${likeLiteral(q.toLowerCase())}%`;
  return commentView(store.db)
    .where('m.is_deleted', '=', 0)
    .where(sql`lower(m.content)`, 'like', sql`${pattern} escape '\\'`)
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(limit)
    .execute();
}
