// The community's changed rows as people read them (the semantic diff of evaluations): posts
// created in a community by an agent, comments, votes, communities, subscriptions and follows.
// Counters kept beside them (karma, scores, hot ranks, counts, last activity) are bookkeeping.
import { fieldChanges, shown, type WorldChangeDescriber, type WorldRowLookup } from '../../../platform/world.js';

const COUNTERS = new Set([
  'karma',
  'follower_count',
  'following_count',
  'last_active',
  'subscriber_count',
  'post_count',
  'upvotes',
  'downvotes',
  'score',
  'hot',
  'comment_count',
  'updated_at',
]);

const agent = (lookup: WorldRowLookup, id: unknown) => String(lookup('community_agents', { id })?.name ?? id);
const community = (lookup: WorldRowLookup, id: unknown) => String(lookup('community_communities', { id })?.name ?? id);
const verb = (change: string) => (change === 'added' ? 'created' : change === 'removed' ? 'deleted' : 'edited');

export const describeCommunityChange: WorldChangeDescriber = (c, lookup) => {
  const row = (c.after ?? c.before)!;
  const meaningful = (c.columns ?? []).filter((col) => !COUNTERS.has(col));
  if (c.change === 'changed' && !meaningful.length) return null;
  switch (c.table) {
    case 'community_posts': {
      const where = community(lookup, row.community_id);
      const text = `post "${shown(row.title)}" ${verb(c.change)} in ${where} by ${agent(lookup, row.author_id)}`;
      return {
        kind: `post.${verb(c.change)}`,
        subject: where,
        text: c.change === 'changed' ? `${text}: ${fieldChanges(c.before!, c.after!, meaningful)}` : text,
      };
    }
    case 'community_comments': {
      const post = lookup('community_posts', { id: row.post_id });
      const where = post ? community(lookup, post.community_id) : String(row.post_id);
      return {
        kind: `comment.${verb(c.change)}`,
        subject: where,
        text: `comment by ${agent(lookup, row.author_id)} on "${shown(post?.title ?? row.post_id)}" ${verb(c.change)}`,
      };
    }
    case 'community_votes': {
      const by = agent(lookup, row.agent_id);
      const target =
        row.target_type === 'post'
          ? `post "${shown(lookup('community_posts', { id: row.target_id })?.title ?? row.target_id)}"`
          : `${shown(row.target_type)} ${shown(row.target_id)}`;
      return {
        kind: 'vote.cast',
        subject: by,
        text: `${by} ${c.change === 'removed' ? 'withdrew a vote on' : `voted ${shown(row.value)} on`} ${target}`,
      };
    }
    case 'community_communities': {
      const name = String(row.name);
      return {
        kind: `community.${verb(c.change)}`,
        subject: name,
        text: `community ${name} ${verb(c.change)}${c.change === 'changed' ? `: ${fieldChanges(c.before!, c.after!, meaningful)}` : ''}`,
      };
    }
    case 'community_agents': {
      const name = String(row.name);
      if (c.change === 'added')
        return { kind: 'agent.registered', subject: name, text: `community agent ${name} registered` };
      return {
        kind: `agent.${verb(c.change)}`,
        subject: name,
        text: `community agent ${name} ${verb(c.change)}${c.change === 'changed' ? `: ${fieldChanges(c.before!, c.after!, meaningful)}` : ''}`,
      };
    }
    case 'community_subscriptions': {
      const by = agent(lookup, row.agent_id);
      const to = community(lookup, row.community_id);
      return {
        kind: c.change === 'removed' ? 'community.unsubscribed' : 'community.subscribed',
        subject: to,
        text: `${by} ${c.change === 'removed' ? 'unsubscribed from' : 'subscribed to'} ${to}`,
      };
    }
    case 'community_follows': {
      const by = agent(lookup, row.follower_id);
      const whom = agent(lookup, row.followee_id);
      return {
        kind: c.change === 'removed' ? 'agent.unfollowed' : 'agent.followed',
        subject: whom,
        text: `${by} ${c.change === 'removed' ? 'unfollowed' : 'followed'} ${whom}`,
      };
    }
  }
  return undefined;
};
