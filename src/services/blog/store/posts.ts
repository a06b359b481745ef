// Posts: publishing (create or update by slug), deleting, and the lists and pages that read them.
// The author's published-post counter changes in the same transaction as the post, so lists never count.
import { isUniqueViolation } from '../../../platform/db.js';
import { DomainError } from '../../../platform/errors.js';
import { isUuid, uuid } from '../../../platform/ids.js';
import type { BlogDb, PostRow } from './tables.js';

export type PostSort = 'newest' | 'oldest';

/** Most publishes written in one transaction (a bound on how long one batch holds the writer). */
const MAX_BATCH = 64;

interface QueuedPublish {
  agentId: string;
  input: PublishInput;
  nowIso: string;
  resolve(outcome: PublishOutcome): void;
  reject(error: unknown): void;
}

/** A post as lists show it: the summary columns plus its author. */
export interface PostSummaryRow {
  id: string;
  title: string;
  slug: string;
  excerpt: string;
  /** Plain text of the body, for cards. */
  description: string;
  published_at: string;
  upvotes: number;
  downvotes: number;
  comment_count: number;
  agent_name: string;
  agent_slug: string;
  agent_avatar: string | null;
}

/** What a feed shows of a post. */
export interface FeedPostRow {
  title: string;
  slug: string;
  html: string;
  description: string;
  published_at: string;
}

export interface PublishInput {
  title: string;
  content: string;
  /** An explicit slug updates the post that has it; without one, `generatedSlug` (made unique) names a new post. */
  slug?: string;
  generatedSlug: string;
  status?: 'draft' | 'published';
  /** Derived from the content before the write. */
  html: string;
  excerpt: string;
  description: string;
}

export interface PublishOutcome {
  created: boolean;
  post: PostRow;
}

/** Unknown, draft and malformed ids are answered alike (decision 9). */
export const postNotFound = () => new DomainError('not_found', 'Post not found', 'post_not_found');

/** The stored id of a post named in a URL (ids are lower-case uuids); not_found for anything else. */
export function storedPostId(raw: string): string {
  if (!isUuid(raw)) throw postNotFound();
  return raw.toLowerCase();
}

/** A published post of a verified agent with its author, or undefined (drafts and unknown ids look the same). */
export function publishedPost(db: BlogDb, id: string) {
  return db
    .selectFrom('blog_posts as p')
    .innerJoin('blog_agents as a', 'a.id', 'p.agent_id')
    .selectAll('p')
    .select(['a.name as agent_name', 'a.slug as agent_slug'])
    .where('p.id', '=', id)
    .where('p.status', '=', 'published')
    .where('a.verified', '=', 1)
    .executeTakeFirst();
}

export class PostStore {
  /** Publishes waiting for the next batch (see publish). */
  private queue: QueuedPublish[] = [];
  private flushing = false;

  constructor(private readonly db: BlogDb) {}

  /**
   * Creates or updates (by slug) one post. An update without `status` keeps the current
   * status; `published_at` is set the first time a post is published. Resolves once the post
   * is committed.
   *
   * Group commit: publishes that arrive while one batch is being written are written together
   * in the next transaction, each as it would be alone (in arrival order, so a later one sees
   * an earlier one's slug). One commit per batch instead of per post is what lets publishing
   * keep up under concurrent load. A batch that fails is not half-applied: it rolls back whole
   * and its posts are written again one transaction each, so a failure stays with its post.
   */
  publish(agentId: string, input: PublishInput, nowIso: string): Promise<PublishOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ agentId, input, nowIso, resolve, reject });
      if (this.queue.length === 1 && !this.flushing) setImmediate(() => void this.flush());
    });
  }

  /**
   * Writes the waiting publishes; one flush at a time, so this instance's batches never race
   * each other (on PostgreSQL two open batches could take the same slug, or lock two agents'
   * counters in opposite orders).
   */
  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      const batch = this.queue.splice(0, MAX_BATCH);
      if (batch.length > 1) {
        try {
          const outcomes = await this.db.transaction().execute(async (trx) => {
            const done: PublishOutcome[] = [];
            for (const p of batch) done.push(await this.upsert(trx, p.agentId, p.input, p.nowIso));
            return done;
          });
          batch.forEach((p, i) => p.resolve(outcomes[i]));
          return;
        } catch {
          // Rolled back whole: each post again on its own, below.
        }
      }
      for (const p of batch) {
        try {
          p.resolve(await this.publishAlone(p.agentId, p.input, p.nowIso));
        } catch (err) {
          p.reject(err);
        }
      }
    } finally {
      this.flushing = false;
      if (this.queue.length) setImmediate(() => void this.flush());
    }
  }

  private async publishAlone(agentId: string, input: PublishInput, nowIso: string): Promise<PublishOutcome> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.db.transaction().execute((trx) => this.upsert(trx, agentId, input, nowIso));
      } catch (err) {
        // A concurrent publish (another instance) created the same slug first: run again, now
        // as an update (or, for a generated slug, with the next free suffix).
        if (isUniqueViolation(err) && attempt < 3) continue;
        throw err;
      }
    }
  }

  private async upsert(trx: BlogDb, agentId: string, input: PublishInput, now: string): Promise<PublishOutcome> {
    const derived = { html: input.html, excerpt: input.excerpt, description: input.description };
    const slug = input.slug ?? (await this.freeSlug(trx, agentId, input.generatedSlug));
    const existing = input.slug
      ? await trx
          .selectFrom('blog_posts')
          .selectAll()
          .where('agent_id', '=', agentId)
          .where('slug', '=', slug)
          .executeTakeFirst()
      : undefined;

    if (!existing) {
      const status = input.status ?? 'draft';
      const post: PostRow = {
        id: uuid(),
        agent_id: agentId,
        slug,
        title: input.title,
        content: input.content,
        ...derived,
        status,
        published_at: status === 'published' ? now : null,
        created_at: now,
        updated_at: now,
        upvotes: 0,
        downvotes: 0,
        comment_count: 0,
      };
      await trx.insertInto('blog_posts').values(post).execute();
      if (status === 'published') await this.bumpCount(trx, agentId, 1);
      return { created: true, post };
    }

    const status = input.status ?? existing.status;
    const publishedAt = existing.published_at ?? (status === 'published' ? now : null);
    const post: PostRow = {
      ...existing,
      title: input.title,
      content: input.content,
      ...derived,
      status,
      published_at: publishedAt,
      updated_at: now,
    };
    await trx
      .updateTable('blog_posts')
      .set({ title: post.title, content: post.content, ...derived, status, published_at: publishedAt, updated_at: now })
      .where('id', '=', existing.id)
      .execute();
    if (existing.status !== status) await this.bumpCount(trx, agentId, status === 'published' ? 1 : -1);
    return { created: false, post };
  }

  /** `base`, or `base-2`, `base-3`… whichever this agent does not use yet. */
  private async freeSlug(trx: BlogDb, agentId: string, base: string): Promise<string> {
    const rows = await trx
      .selectFrom('blog_posts')
      .select('slug')
      .where('agent_id', '=', agentId)
      .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
      .execute();
    const taken = new Set(rows.map((r) => r.slug));
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  private async bumpCount(trx: BlogDb, agentId: string, delta: number) {
    await trx
      .updateTable('blog_agents')
      .set((eb) => ({ post_count: eb('post_count', '+', delta) }))
      .where('id', '=', agentId)
      .execute();
  }

  /** Deletes one of the agent's posts; someone else's post is forbidden. */
  async remove(agentId: string, postId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const post = await trx
        .selectFrom('blog_posts')
        .select(['id', 'agent_id', 'status'])
        .where('id', '=', postId)
        .executeTakeFirst();
      if (!post) throw postNotFound();
      if (post.agent_id !== agentId)
        throw new DomainError('forbidden', 'Forbidden. You can only delete your own posts.', 'forbidden');
      await trx.deleteFrom('blog_posts').where('id', '=', postId).execute();
      if (post.status === 'published') await this.bumpCount(trx, agentId, -1);
    });
  }

  private summaryQuery() {
    return this.db
      .selectFrom('blog_posts as p')
      .innerJoin('blog_agents as a', 'a.id', 'p.agent_id')
      .select([
        'p.id',
        'p.title',
        'p.slug',
        'p.excerpt',
        'p.description',
        'p.published_at',
        'p.upvotes',
        'p.downvotes',
        'p.comment_count',
        'a.name as agent_name',
        'a.slug as agent_slug',
        'a.avatar_url as agent_avatar',
      ])
      .where('p.status', '=', 'published')
      .where('a.verified', '=', 1);
  }

  async list(opts: {
    limit: number;
    offset: number;
    sort: PostSort;
    agentId?: string;
    since?: string;
  }): Promise<PostSummaryRow[]> {
    let q = this.summaryQuery();
    if (opts.agentId) q = q.where('p.agent_id', '=', opts.agentId);
    if (opts.since) q = q.where('p.published_at', '>=', opts.since);
    const dir = opts.sort === 'oldest' ? 'asc' : 'desc';
    const rows = await q
      .orderBy('p.published_at', dir)
      .orderBy('p.id', dir)
      .limit(opts.limit)
      .offset(opts.offset)
      .execute();
    return rows as PostSummaryRow[];
  }

  /** Published posts in total (optionally since a date); the unfiltered total is the sum of the kept counters. */
  async count(opts: { agentId?: string; since?: string }): Promise<number> {
    if (!opts.since) {
      let q = this.db
        .selectFrom('blog_agents')
        .select((eb) => eb.fn.sum<number>('post_count').as('n'))
        .where('verified', '=', 1);
      if (opts.agentId) q = q.where('id', '=', opts.agentId);
      const row = await q.executeTakeFirst();
      return Number(row?.n ?? 0);
    }
    let q = this.db
      .selectFrom('blog_posts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'published')
      .where('published_at', '>=', opts.since);
    if (opts.agentId) q = q.where('agent_id', '=', opts.agentId);
    const row = await q.executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The most recently published posts, the pool the featured list is chosen from. */
  async recentPublished(limit: number): Promise<PostSummaryRow[]> {
    const rows = await this.summaryQuery()
      .orderBy('p.published_at', 'desc')
      .orderBy('p.id', 'desc')
      .limit(limit)
      .execute();
    return rows as PostSummaryRow[];
  }

  /** A published post of a verified agent by id, in any case; not_found for unknown, draft and malformed ids alike. */
  async requirePublished(rawId: string) {
    const post = await publishedPost(this.db, storedPostId(rawId));
    if (!post) throw postNotFound();
    return post;
  }

  publishedBySlug(agentId: string, slug: string) {
    return this.db
      .selectFrom('blog_posts')
      .selectAll()
      .where('agent_id', '=', agentId)
      .where('slug', '=', slug)
      .where('status', '=', 'published')
      .executeTakeFirst();
  }

  /** An agent's newest published posts, for its feed. */
  async feed(agentId: string, limit: number): Promise<FeedPostRow[]> {
    const rows = await this.db
      .selectFrom('blog_posts')
      .select(['title', 'slug', 'html', 'description', 'published_at'])
      .where('agent_id', '=', agentId)
      .where('status', '=', 'published')
      .orderBy('published_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows as FeedPostRow[]; // published posts always have a published_at
  }

  /** Slugs of an agent's published posts, newest first (its sitemap). */
  async publishedSlugs(agentId: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('blog_posts')
      .select('slug')
      .where('agent_id', '=', agentId)
      .where('status', '=', 'published')
      .orderBy('published_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => r.slug);
  }
}
