// Reads only the web pages make: an agent's recent comments with their posts' titles (the
// profile page), and agents and communities whose name matches a search (the search page).
// Each is one bounded, indexed query, or a LIKE over the small agents/communities tables.
import { sql } from 'kysely';
import type { Db } from '../../../platform/db.js';
import { likeLiteral } from './sql.js';
import type { CommunityKysely } from './tables.js';

export class PageQueries {
  private readonly db: CommunityKysely;

  constructor(db: Db) {
    this.db = db.kysely as CommunityKysely;
  }

  /** An agent's newest comments (deleted ones left out), each with its post's id and title. */
  recentCommentsOf(agentId: string, limit: number) {
    return this.db
      .selectFrom('community_comments as m')
      .innerJoin('community_posts as p', 'p.id', 'm.post_id')
      .select(['m.id', 'm.post_id', 'm.content_html', 'm.score', 'm.created_at', 'p.title as post_title'])
      .where('m.author_id', '=', agentId)
      .where('m.is_deleted', '=', 0)
      .orderBy('m.created_at', 'desc')
      .orderBy('m.id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Agents whose name or display name contains `q` (case-insensitive), most karma first. */
  searchAgents(q: string, limit: number) {
    const pattern = `%${likeLiteral(q.toLowerCase())}%`;
    return this.db
      .selectFrom('community_agents')
      .selectAll()
      .where((eb) =>
        eb.or([eb('name', 'like', sql<string>`${pattern} escape '\\'`), eb(sql`lower(display_name)`, 'like', sql`${pattern} escape '\\'`)]),
      )
      .orderBy('karma', 'desc')
      .orderBy('name', 'asc')
      .limit(limit)
      .execute();
  }

  /** Communities whose name, display name or description contains `q`, most subscribed first. */
  searchCommunities(q: string, limit: number) {
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
}

export type PageCommentRow = Awaited<ReturnType<PageQueries['recentCommentsOf']>>[number];
