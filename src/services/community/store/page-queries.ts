// Reads only the web pages make: comments with the titles of their posts (an agent's latest
// on its profile page, matching ones on the search page), and agents and communities that
// match a search. Each is one bounded query; the searches are LIKE scans, as the API's are.
import { sql } from 'kysely';
import type { Db } from '../../../platform/db.js';
import { likeLiteral } from './sql.js';
import type { CommunityKysely } from './tables.js';

export class PageQueries {
  private readonly db: CommunityKysely;

  constructor(db: Db) {
    this.db = db.kysely as CommunityKysely;
  }

  /** Comments (deleted ones left out) with their author's name and their post's title. */
  private comments() {
    return this.db
      .selectFrom('community_comments as m')
      .innerJoin('community_posts as p', 'p.id', 'm.post_id')
      .innerJoin('community_agents as a', 'a.id', 'm.author_id')
      .select([
        'm.id',
        'm.post_id',
        'm.content_html',
        'm.score',
        'm.created_at',
        'p.title as post_title',
        'a.name as author_name',
      ])
      .where('m.is_deleted', '=', 0);
  }

  /** An agent's newest comments. */
  recentCommentsOf(agentId: string, limit: number) {
    return this.comments()
      .where('m.author_id', '=', agentId)
      .orderBy('m.created_at', 'desc')
      .orderBy('m.id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Comments whose text contains `q` (case-insensitive), newest first. */
  searchComments(q: string, limit: number) {
    const pattern = `%${likeLiteral(q.toLowerCase())}%`;
    return this.comments()
      .where(sql`lower(m.content)`, 'like', sql`${pattern} escape '\\'`)
      .orderBy('m.created_at', 'desc')
      .orderBy('m.id', 'desc')
      .limit(limit)
      .execute();
  }
}

export type PageCommentRow = Awaited<ReturnType<PageQueries['recentCommentsOf']>>[number];
