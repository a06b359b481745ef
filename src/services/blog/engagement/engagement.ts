// Comments and votes on published posts (decision 7: voting again replaces the earlier vote).
import type { Clock } from '../../../platform/clock.js';
import type { BlogChanges } from '../changes.js';
import type { EngagementStore } from '../store/engagement.js';
import { storedPostId, type PostStore } from '../store/posts.js';
import type { Caller } from '../store/tables.js';

export interface CommentView {
  id: string;
  content: string;
  authorName: string;
  authorSlug: string | null;
  createdAt: string;
}

export interface EngagementDeps {
  posts: PostStore;
  engagement: EngagementStore;
  clock: Clock;
  changes: BlogChanges;
}

export class Engagement {
  constructor(private readonly deps: EngagementDeps) {}

  async listComments(rawPostId: string): Promise<CommentView[]> {
    const post = await this.deps.posts.requirePublished(rawPostId);
    const rows = await this.deps.engagement.comments(post.id);
    return rows.map((r) => ({
      id: r.id,
      content: r.content,
      authorName: r.author_name ?? 'Unknown',
      authorSlug: r.author_slug ?? null,
      createdAt: r.created_at,
    }));
  }

  async addComment(agent: Caller, rawPostId: string, content: string): Promise<CommentView> {
    const row = await this.deps.engagement.addComment(
      storedPostId(rawPostId),
      agent.id,
      content,
      this.deps.clock.now().toISOString(),
    );
    await this.deps.changes.announce();
    return { id: row.id, content, authorName: agent.name, authorSlug: agent.slug, createdAt: row.created_at };
  }

  async vote(agent: Caller, rawPostId: string, vote: 1 | -1) {
    const counts = await this.deps.engagement.vote(
      storedPostId(rawPostId),
      agent.id,
      vote,
      this.deps.clock.now().toISOString(),
    );
    await this.deps.changes.announce();
    return { upvotes: counts.upvotes, downvotes: counts.downvotes, score: counts.upvotes - counts.downvotes };
  }
}
