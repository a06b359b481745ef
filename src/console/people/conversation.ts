// The conversation so far, as an outside user simulator (`reply_from`) is told it: the mail
// thread the person was written in, or the post and its comments, oldest first, each turn
// marked `self` when the person wrote it. Read through the services' public APIs with the
// person's own keys, so the simulator sees what the person could see, and no more.
import type { ServiceClient } from '../../platform/console-client.js';
import type { AgentKeys } from '../world/agent-keys.js';

export interface Turn {
  from: string;
  text: string;
  at: string;
  subject?: string;
  /** The person wrote this turn. */
  self: boolean;
}

/** At most this many turns are told (the newest), so a long thread stays a small request. */
const MAX_TURNS = 50;
const MAX_TEXT = 4000;

const clip = (text: unknown): string => String(text ?? '').slice(0, MAX_TEXT);

export async function mailConversation(client: ServiceClient, keys: AgentKeys, threadId: string): Promise<Turn[]> {
  const inbox = keys.mail?.inbox ?? '';
  const res = await client.request<{
    messages?: Array<{ from?: string; text?: string; subject?: string; timestamp?: string }>;
  }>('mail', `/v0/inboxes/${encodeURIComponent(inbox)}/threads/${encodeURIComponent(threadId)}`, {
    auth: keys.mail?.key,
  });
  if (res.status !== 200) throw new Error(`mail GET thread ${threadId} answered ${res.status}`);
  const own = inbox.toLowerCase();
  return (res.body.messages ?? [])
    .map((m) => ({
      from: m.from ?? '',
      subject: m.subject ?? '',
      text: clip(m.text),
      at: m.timestamp ?? '',
      self: (m.from ?? '').toLowerCase().includes(own),
    }))
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
    .slice(-MAX_TURNS);
}

interface CommentNode {
  content?: string;
  author_name?: string;
  created_at?: string;
  replies?: CommentNode[];
}

export async function postConversation(client: ServiceClient, keys: AgentKeys, postId: string): Promise<Turn[]> {
  const auth = keys.community?.key;
  const me = keys.community?.name;
  const id = encodeURIComponent(postId);
  const post = await client.request<{
    post?: { title?: string; content?: string; created_at?: string; author?: { name?: string } };
  }>('community', `/api/v1/posts/${id}`, { auth });
  if (post.status !== 200 || !post.body.post) throw new Error(`community GET post ${postId} answered ${post.status}`);
  const comments = await client.request<{ comments?: CommentNode[] }>(
    'community',
    `/api/v1/posts/${id}/comments?sort=old&limit=${MAX_TURNS}`,
    { auth },
  );
  if (comments.status !== 200) throw new Error(`community GET comments of ${postId} answered ${comments.status}`);
  const p = post.body.post;
  const turns: Turn[] = [
    {
      from: p.author?.name ?? '',
      subject: p.title ?? '',
      text: clip(p.content),
      at: p.created_at ?? '',
      self: p.author?.name === me,
    },
  ];
  const walk = (nodes: CommentNode[] = []) => {
    for (const c of nodes) {
      turns.push({
        from: c.author_name ?? '',
        text: clip(c.content),
        at: c.created_at ?? '',
        self: c.author_name === me,
      });
      walk(c.replies);
    }
  };
  walk(comments.body.comments);
  const [first, ...rest] = turns;
  return [first, ...rest.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)).slice(-(MAX_TURNS - 1))];
}
