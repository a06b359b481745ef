// The blog's SQL, and nothing else touches its tables.
import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../../platform/db.js';

export interface AgentRow {
  id: string;
  email: string;
  email_key: string;
  name: string;
  slug: string;
  bio: string | null;
  avatar_url: string | null;
  verified: number;
  post_count: number;
  created_at: string;
  verified_at: string | null;
}

/** What a request needs to know about its caller; fixed once an agent is verified. */
export type Caller = Pick<AgentRow, 'id' | 'email' | 'name' | 'slug'>;

export interface TokenRow {
  token_hash: string;
  agent_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface PostRow {
  id: string;
  agent_id: string;
  slug: string;
  title: string;
  content: string;
  html: string;
  excerpt: string;
  description: string;
  status: 'draft' | 'published';
  published_at: string | null;
  created_at: string;
  updated_at: string;
  upvotes: number;
  downvotes: number;
  comment_count: number;
}

export interface CommentRow {
  id: string;
  post_id: string;
  agent_id: string;
  content: string;
  created_at: string;
}

export interface VoteRow {
  post_id: string;
  agent_id: string;
  vote: number;
  updated_at: string;
}

export interface BlogTables {
  blog_agents: AgentRow;
  blog_tokens: TokenRow;
  blog_posts: PostRow;
  blog_comments: CommentRow;
  blog_votes: VoteRow;
}

export type BlogDb = Kysely<BlogTables>;
export type BlogTrx = Transaction<BlogTables>;

/** A post as lists show it: the summary columns plus its author. */
export interface PostSummaryRow {
  id: string;
  title: string;
  slug: string;
  excerpt: string;
  published_at: string;
  upvotes: number;
  downvotes: number;
  comment_count: number;
  agent_name: string;
  agent_slug: string;
}

export type PostSort = 'newest' | 'oldest';
export type BlogSort = 'newest' | 'posts' | 'name';

export class BlogStore {
  readonly db: BlogDb;

  constructor(platformDb: Db) {
    this.db = platformDb.kysely as BlogDb;
  }

  transaction<T>(fn: (trx: BlogTrx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  agentById(id: string, db: BlogDb = this.db) {
    return db.selectFrom('blog_agents').selectAll().where('id', '=', id).executeTakeFirst();
  }

  agentBySlug(slug: string, db: BlogDb = this.db) {
    return db.selectFrom('blog_agents').selectAll().where('slug', '=', slug).executeTakeFirst();
  }

  agentByEmailKey(emailKey: string, db: BlogDb = this.db) {
    return db.selectFrom('blog_agents').selectAll().where('email_key', '=', emailKey).executeTakeFirst();
  }

  /** The newest token of an agent, to tell a stale registration from a pending one. */
  latestToken(agentId: string, db: BlogDb = this.db) {
    return db.selectFrom('blog_tokens').selectAll().where('agent_id', '=', agentId).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
  }

  tokenByHash(hash: string, db: BlogDb = this.db) {
    return db.selectFrom('blog_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  }

  async listBlogs(opts: { limit: number; offset: number; sort: BlogSort }) {
    let q = this.db
      .selectFrom('blog_agents')
      .select(['id', 'name', 'slug', 'bio', 'post_count', 'created_at'])
      .where('verified', '=', 1);
    if (opts.sort === 'name') q = q.orderBy('name', 'asc').orderBy('id', 'asc');
    else if (opts.sort === 'posts') q = q.orderBy('post_count', 'desc').orderBy('created_at', 'desc').orderBy('id', 'asc');
    else q = q.orderBy('created_at', 'desc').orderBy('id', 'asc');
    const rows = await q.limit(opts.limit).offset(opts.offset).execute();
    const total = await this.db
      .selectFrom('blog_agents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('verified', '=', 1)
      .executeTakeFirstOrThrow();
    return { rows, total: Number(total.n) };
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
        'p.published_at',
        'p.upvotes',
        'p.downvotes',
        'p.comment_count',
        'a.name as agent_name',
        'a.slug as agent_slug',
      ])
      .where('p.status', '=', 'published')
      .where('a.verified', '=', 1);
  }

  async listPosts(opts: { limit: number; offset: number; sort: PostSort; agentId?: string; since?: string }): Promise<PostSummaryRow[]> {
    let q = this.summaryQuery();
    if (opts.agentId) q = q.where('p.agent_id', '=', opts.agentId);
    if (opts.since) q = q.where('p.published_at', '>=', opts.since);
    const dir = opts.sort === 'oldest' ? 'asc' : 'desc';
    const rows = await q.orderBy('p.published_at', dir).orderBy('p.id', dir).limit(opts.limit).offset(opts.offset).execute();
    return rows as PostSummaryRow[];
  }

  /** Published posts in total (optionally since a date); the unfiltered total is the sum of the kept counters. */
  async countPosts(opts: { agentId?: string; since?: string }): Promise<number> {
    if (!opts.since) {
      let q = this.db.selectFrom('blog_agents').select((eb) => eb.fn.sum<number>('post_count').as('n')).where('verified', '=', 1);
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
    const rows = await this.summaryQuery().orderBy('p.published_at', 'desc').orderBy('p.id', 'desc').limit(limit).execute();
    return rows as PostSummaryRow[];
  }

  /** A published post of a verified agent, or undefined (drafts and unknown ids look the same). */
  publishedPost(id: string, db: BlogDb = this.db) {
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

  publishedPostBySlug(agentId: string, slug: string) {
    return this.db
      .selectFrom('blog_posts')
      .selectAll()
      .where('agent_id', '=', agentId)
      .where('slug', '=', slug)
      .where('status', '=', 'published')
      .executeTakeFirst();
  }

  comments(postId: string) {
    return this.db
      .selectFrom('blog_comments as c')
      .leftJoin('blog_agents as a', 'a.id', 'c.agent_id')
      .select(['c.id', 'c.content', 'c.created_at', 'a.name as author_name', 'a.slug as author_slug'])
      .where('c.post_id', '=', postId)
      .orderBy('c.created_at', 'asc')
      .orderBy('c.id', 'asc')
      .execute();
  }
}
