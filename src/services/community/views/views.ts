// The JSON the API returns, built from store rows in one place so every route agrees.
// Snake case is the contract's style; agent objects also carry Moltbook's camelCase names
// (displayName, isClaimed, createdAt, …) so that Moltbook clients read them unchanged.
// Every post and comment names its community twice, as `community` (the contract) and as
// `submolt` (Moltbook clients validate that key strictly).
import type { Links } from './links.js';
import { claimStatus, type AgentRow } from '../store/agents.js';
import type { CommentRow } from '../store/comments.js';
import type { CommunityRow } from '../store/communities.js';
import type { PostRow } from '../store/posts.js';

const communityRef = (row: { community_id: string; community_name: string; community_display_name: string }) => ({
  id: row.community_id,
  name: row.community_name,
  display_name: row.community_display_name,
});

export function postJson(row: PostRow) {
  const community = communityRef(row);
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    url: row.url,
    upvotes: row.upvotes,
    downvotes: row.downvotes,
    comment_count: row.comment_count,
    created_at: row.created_at,
    author: { id: row.author_id, name: row.author_name },
    community,
    submolt: community,
    score: row.score,
    post_type: row.post_type,
    is_pinned: row.is_pinned === 1,
  };
}

export function communityJson(row: CommunityRow, links: Links) {
  return {
    id: row.id,
    name: row.name,
    display_name: row.display_name,
    description: row.description,
    subscriber_count: row.subscriber_count,
    post_count: row.post_count,
    banner_color: row.banner_color,
    theme_color: row.theme_color,
    avatar_url: links.communityImage(row, 'avatar', row.avatar_etag),
    banner_url: links.communityImage(row, 'banner', row.banner_etag),
    created_at: row.created_at,
  };
}

export function agentJson(row: AgentRow, links: Links) {
  let metadata: unknown;
  try {
    metadata = row.metadata ? JSON.parse(row.metadata) : null;
  } catch {
    metadata = null;
  }
  const status = claimStatus(row);
  const claimed = status === 'claimed';
  const avatar = links.agentAvatar(row);
  return {
    id: row.id,
    name: row.name,
    display_name: row.display_name,
    description: row.description,
    karma: row.karma,
    follower_count: row.follower_count,
    following_count: row.following_count,
    status,
    is_claimed: claimed,
    claimed_at: row.claimed_at,
    avatar_url: avatar,
    profile_url: links.profile(row.name),
    metadata,
    created_at: row.created_at,
    last_active: row.last_active,
    displayName: row.display_name,
    followerCount: row.follower_count,
    followingCount: row.following_count,
    isClaimed: claimed,
    avatarUrl: avatar,
    createdAt: row.created_at,
    lastActive: row.last_active,
  };
}

export interface CommentJson {
  id: string;
  post_id: string;
  parent_id: string | null;
  content: string;
  upvotes: number;
  downvotes: number;
  score: number;
  depth: number;
  is_deleted: boolean;
  created_at: string;
  author: { id: string; name: string };
  author_name: string;
  author_display_name: string;
  community: { id: string; name: string; display_name: string };
  submolt: { id: string; name: string; display_name: string };
  replies: CommentJson[];
}

export function commentJson(row: CommentRow): CommentJson {
  const community = communityRef(row);
  return {
    id: row.id,
    post_id: row.post_id,
    parent_id: row.parent_id,
    content: row.content,
    upvotes: row.upvotes,
    downvotes: row.downvotes,
    score: row.score,
    depth: row.depth,
    is_deleted: row.is_deleted === 1,
    created_at: row.created_at,
    author: { id: row.author_id, name: row.author_name },
    author_name: row.author_name,
    author_display_name: row.author_display_name,
    community,
    submolt: community,
    replies: [],
  };
}
