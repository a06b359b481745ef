// The blog's store: the only code that queries its tables. One class per table group, all on
// the platform's database.
import type { Db } from '../../../platform/db.js';
import { AgentStore } from './agents.js';
import { EngagementStore } from './engagement.js';
import { PostStore } from './posts.js';
import type { BlogDb } from './tables.js';

export class BlogStore {
  readonly agents: AgentStore;
  readonly posts: PostStore;
  readonly engagement: EngagementStore;

  constructor(platformDb: Db) {
    const db = platformDb.kysely as BlogDb;
    this.agents = new AgentStore(db);
    this.posts = new PostStore(db);
    this.engagement = new EngagementStore(db);
  }
}
