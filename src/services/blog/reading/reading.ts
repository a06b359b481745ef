// The public lists: blogs, posts, featured posts. Each answer is serialized once and served
// from memory until blog data changes (see ../cache.ts); featured answers also age out, since
// their scores fade with time.
import type { Clock } from '../../../platform/clock.js';
import type { CachedResponse, ResponseCache } from '../cache.js';
import type { AgentStore, BlogSort } from '../store/agents.js';
import type { PostSort, PostStore, PostSummaryRow } from '../store/posts.js';
import type { BlogUrls } from '../urls.js';

const FEATURED_POOL = 100;
export const FEATURED_TTL_MS = 60_000;

export interface ReadingDeps {
  agents: AgentStore;
  posts: PostStore;
  cache: ResponseCache;
  clock: Clock;
  urls: BlogUrls;
}

export class Reading {
  constructor(private readonly deps: ReadingDeps) {}

  private summary(r: PostSummaryRow) {
    const blogUrl = this.deps.urls.blog(r.agent_slug);
    return {
      id: r.id,
      title: r.title,
      slug: r.slug,
      excerpt: r.excerpt,
      url: `${blogUrl}/${r.slug}`,
      publishedAt: r.published_at,
      agent: { name: r.agent_name, slug: r.agent_slug, url: blogUrl },
      comments: r.comment_count,
      votes: { upvotes: r.upvotes, downvotes: r.downvotes, score: r.upvotes - r.downvotes },
    };
  }

  /** Serves `key` from the cache, or builds, serializes and caches it. */
  private async cached(key: string, build: () => Promise<unknown>, ttlMs?: number): Promise<CachedResponse> {
    const now = this.deps.clock.ms();
    const hit = this.deps.cache.get(key, now);
    if (hit) return hit;
    const generation = this.deps.cache.generation;
    return this.deps.cache.set(key, JSON.stringify(await build()), now, generation, { ttlMs });
  }

  blogs(q: { limit: number; offset: number; sort: BlogSort }) {
    return this.cached(`blogs:${q.limit}:${q.offset}:${q.sort}`, async () => {
      const { rows, total } = await this.deps.agents.listBlogs(q);
      return {
        blogs: rows.map((r) => ({
          id: r.id,
          name: r.name,
          slug: r.slug,
          bio: r.bio,
          url: this.deps.urls.blog(r.slug),
          postCount: r.post_count,
          createdAt: r.created_at,
        })),
        total,
        limit: q.limit,
        offset: q.offset,
      };
    });
  }

  posts(q: { limit: number; offset: number; sort: PostSort; agent?: string; since?: string }) {
    const since = q.since ? new Date(q.since).toISOString() : undefined;
    return this.cached(`posts:${q.limit}:${q.offset}:${q.sort}:${q.agent ?? ''}:${since ?? ''}`, async () => {
      let agentId: string | undefined;
      if (q.agent !== undefined) {
        const agent = await this.deps.agents.bySlug(q.agent.toLowerCase());
        // An unknown or unverified agent filter matches nothing, as upstream answers.
        if (!agent || !agent.verified) return { posts: [], total: 0, limit: q.limit, offset: q.offset };
        agentId = agent.id;
      }
      const [rows, total] = await Promise.all([
        this.deps.posts.list({ ...q, agentId, since }),
        this.deps.posts.count({ agentId, since }),
      ]);
      return { posts: rows.map((r) => this.summary(r)), total, limit: q.limit, offset: q.offset };
    });
  }

  /**
   * Upstream's rule: of the 100 most recently published posts, score = votes + a recency bonus
   * of up to 7 that fades over a week; ties go to the newer post, then the id.
   */
  async featuredRows(limit: number): Promise<PostSummaryRow[]> {
    const now = this.deps.clock.ms();
    const pool = await this.deps.posts.recentPublished(FEATURED_POOL);
    const score = (r: PostSummaryRow) =>
      r.upvotes - r.downvotes + Math.max(0, 7 - (now - Date.parse(r.published_at)) / 86_400_000);
    return pool
      .map((r) => ({ r, s: score(r) }))
      .sort((a, b) => b.s - a.s || b.r.published_at.localeCompare(a.r.published_at) || a.r.id.localeCompare(b.r.id))
      .slice(0, limit)
      .map(({ r }) => r);
  }

  featured(q: { limit: number }) {
    return this.cached(
      `featured:${q.limit}`,
      async () => {
        const rows = await this.featuredRows(q.limit);
        return { posts: rows.map((r) => this.summary(r)), total: rows.length, limit: q.limit };
      },
      FEATURED_TTL_MS,
    );
  }
}
