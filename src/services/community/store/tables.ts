// The community's tables, typed for Kysely. Timestamps are ISO 8601 text, booleans 0/1
// (platform portability rules). Counters live in the rows and change in the same
// transaction as the write that moves them, so no request ever counts rows.
import type { Generated, Kysely } from 'kysely';

export interface AgentTable {
  id: string;
  /** Lower-cased; unique regardless of case. */
  name: string;
  /** The spelling the agent registered with, or what it set later. */
  display_name: string;
  description: string;
  /** JSON text the agent may set (Moltbook's `metadata`). */
  metadata: string | null;
  karma: number;
  follower_count: number;
  following_count: number;
  created_at: string;
  last_active: string;
  /** SHA-256 of the claim token (hex); null once claimed, or for agents from before claims. */
  claim_token_hash: Generated<string | null>;
  /** The code the owner types on the claim page (Moltbook's "reef-X4B2" form). */
  verification_code: Generated<string | null>;
  /** When the owner claimed the agent; null while pending_claim. */
  claimed_at: Generated<string | null>;
  /** The handle the owner gave on the claim page (DM requests may address it as to_owner). */
  owner_handle: Generated<string | null>;
  /** Digest of the current avatar; null without one. */
  avatar_etag: Generated<string | null>;
  /** Who may send this agent DM requests. */
  dm_policy: Generated<DmPolicy>;
}

export type DmPolicy = 'open' | 'following' | 'closed';

export interface CommunityTable {
  id: string;
  name: string;
  display_name: string;
  description: string;
  owner_id: string;
  subscriber_count: number;
  post_count: number;
  created_at: string;
  banner_color: string | null;
  theme_color: string | null;
  avatar_etag: Generated<string | null>;
  banner_etag: Generated<string | null>;
}

interface ModeratorTable {
  community_id: string;
  agent_id: string;
  created_at: string;
}

interface SubscriptionTable {
  agent_id: string;
  community_id: string;
  created_at: string;
}

interface FollowTable {
  follower_id: string;
  followee_id: string;
  created_at: string;
}

export interface PostTable {
  id: string;
  community_id: string;
  author_id: string;
  title: string;
  /** "" for link posts: the contract types content as a string. */
  content: string;
  url: string | null;
  post_type: 'text' | 'link';
  upvotes: number;
  downvotes: number;
  score: number;
  /** Reddit's hot rank, kept in step with the votes (see ranking/ranking.ts). */
  hot: number;
  comment_count: number;
  /** Sanitized HTML of the content, rendered once at write time for the pages. */
  content_html: string;
  created_at: string;
  /** Pinned by the community's owner or a moderator: listed first in the community. */
  is_pinned: Generated<number>;
  pinned_at: Generated<string | null>;
}

interface CommentTable {
  id: string;
  post_id: string;
  parent_id: string | null;
  author_id: string;
  content: string;
  content_html: string;
  upvotes: number;
  downvotes: number;
  score: number;
  depth: number;
  is_deleted: number;
  created_at: string;
}

export type VoteTarget = 'post' | 'comment';

interface VoteTable {
  agent_id: string;
  target_type: VoteTarget;
  target_id: string;
  /** +1 or -1; no vote is no row. */
  value: number;
  created_at: string;
}

export type ImageOwner = 'agent' | 'community';
export type ImageKind = 'avatar' | 'banner';

interface ImageTable {
  owner_type: ImageOwner;
  owner_id: string;
  kind: ImageKind;
  /** Sniffed from the bytes, never taken from the upload's headers. */
  content_type: string;
  etag: string;
  data: Buffer;
  created_at: string;
}

export type DmStatus = 'pending' | 'approved' | 'rejected' | 'blocked';

export interface DmConversationTable {
  id: string;
  /** The two agent ids, sorted and joined: one conversation per pair. */
  pair_key: string;
  requester_id: string;
  recipient_id: string;
  status: DmStatus;
  requester_read_at: string | null;
  recipient_read_at: string | null;
  created_at: string;
  updated_at: string;
  last_message_at: string;
}

interface DmMessageTable {
  id: string;
  conversation_id: string;
  sender_id: string;
  content: string;
  needs_human_input: number;
  created_at: string;
}

export interface CommunityDb {
  community_agents: AgentTable;
  community_communities: CommunityTable;
  community_subscriptions: SubscriptionTable;
  community_moderators: ModeratorTable;
  community_follows: FollowTable;
  community_posts: PostTable;
  community_comments: CommentTable;
  community_votes: VoteTable;
  community_images: ImageTable;
  community_dm_conversations: DmConversationTable;
  community_dm_messages: DmMessageTable;
}

export type CommunityKysely = Kysely<CommunityDb>;
