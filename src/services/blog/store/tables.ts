// The rows of the blog's tables, as Kysely sees them. Other parts of the blog may use these
// types; only store/ runs queries on them.
import type { Kysely, Transaction } from 'kysely';

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

/**
 * Writes outside the blog's tables that must commit or roll back with a blog write (the
 * platform's mail outbox, its keys); they get the open transaction and run only SQL in it.
 */
export type AlongsideWrites<A extends unknown[] = []> = (trx: Kysely<any>, ...args: A) => Promise<void>;
