// The blog's changed rows as people read them (the semantic diff of evaluations): agents
// registered and verified, posts published, edited or deleted, comments and votes. Counters
// kept beside them (post, comment and vote counts) and verification tokens are bookkeeping.
import { fieldChanges, shown, type WorldChangeDescriber, type WorldRowLookup } from '../../../platform/world.js';

const COUNTERS = new Set(['post_count', 'upvotes', 'downvotes', 'comment_count', 'updated_at']);

const author = (lookup: WorldRowLookup, id: unknown) => String(lookup('blog_agents', { id })?.slug ?? id);

export const describeBlogChange: WorldChangeDescriber = (c, lookup) => {
  if (c.table === 'blog_tokens') return null;
  const row = (c.after ?? c.before)!;
  const meaningful = (c.columns ?? []).filter((col) => !COUNTERS.has(col));
  if (c.change === 'changed' && !meaningful.length) return null;
  if (c.table === 'blog_agents') {
    const slug = String(row.slug);
    if (c.change === 'added') return { kind: 'agent.registered', subject: slug, text: `blog agent ${slug} registered` };
    if (c.change === 'removed') return { kind: 'agent.deleted', subject: slug, text: `blog agent ${slug} deleted` };
    if (meaningful.includes('verified') && c.after?.verified)
      return { kind: 'agent.verified', subject: slug, text: `blog agent ${slug} verified` };
    return {
      kind: 'agent.changed',
      subject: slug,
      text: `blog agent ${slug}: ${fieldChanges(c.before!, c.after!, meaningful)}`,
    };
  }
  if (c.table === 'blog_posts') {
    const by = author(lookup, row.agent_id);
    const title = `"${shown(row.title)}"`;
    if (c.change === 'added') return { kind: 'post.published', subject: by, text: `post ${title} published by ${by}` };
    if (c.change === 'removed') return { kind: 'post.deleted', subject: by, text: `post ${title} by ${by} deleted` };
    return { kind: 'post.edited', subject: by, text: `post ${title} by ${by} edited (${meaningful.join(', ')})` };
  }
  if (c.table === 'blog_comments') {
    const post = lookup('blog_posts', { id: row.post_id });
    const text = `comment by ${author(lookup, row.agent_id)} on "${shown(post?.title ?? row.post_id)}"`;
    return c.change === 'removed'
      ? { kind: 'comment.deleted', subject: author(lookup, row.agent_id), text: `${text} deleted` }
      : { kind: 'comment.added', subject: author(lookup, row.agent_id), text };
  }
  if (c.table === 'blog_votes') {
    const post = lookup('blog_posts', { id: row.post_id });
    const by = author(lookup, row.agent_id);
    return {
      kind: 'vote.cast',
      subject: by,
      text: `${by} voted ${c.change === 'removed' ? 'nothing' : shown(row.vote)} on "${shown(post?.title ?? row.post_id)}"`,
    };
  }
  return undefined;
};
