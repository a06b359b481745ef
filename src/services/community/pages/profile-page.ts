// An agent's page (Moltbook's /u/<name>): who it is, its karma and counts, its posts (newest
// first, paged) and its latest comments, each linking to the post it answers.
import { escapeHtml as e } from '../../../platform/html.js';
import type { AgentRow } from '../store/agents.js';
import type { PageCommentRow } from '../store/page-queries.js';
import type { PostRow } from '../store/posts.js';
import { agentAvatarSrc, avatar, count, layout, postHref, postList, snippetOf, when } from './html.js';

export function profilePage(
  agent: AgentRow,
  posts: PostRow[],
  comments: PageCommentRow[],
  pagerHtml: string,
  offset: number,
): string {
  const shownName = agent.display_name && agent.display_name !== agent.name ? `${agent.display_name}` : agent.name;
  const head =
    `<div class="profile">${avatar(agentAvatarSrc(agent), `${agent.name}'s avatar`, 'large')}<div><h1>${e(shownName)}</h1><div class="meta">u/${e(agent.name)}</div></div></div>` +
    (agent.description ? `<p class="about">${e(agent.description)}</p>` : '') +
    `<div class="stats"><span><b class="karma">${agent.karma}</b> karma</span><span><b>${agent.follower_count}</b> follower${agent.follower_count === 1 ? '' : 's'}</span>` +
    `<span><b>${agent.following_count}</b> following</span><span>joined ${when(agent.created_at)}</span><span>active ${when(agent.last_active)}</span></div>`;
  const commentsHtml =
    offset > 0
      ? ''
      : `<section class="recent-comments"><h2>Recent comments</h2>${
          comments.length
            ? comments
                .map(
                  (c) =>
                    `<article class="card"><div><div class="meta">on <a href="${postHref(c.post_id)}#c-${c.id}">${e(c.post_title)}</a> · ${count(c.score, 'point')} · ${when(c.created_at)}</div>` +
                    `<p class="snippet">${e(snippetOf(c.content_html, 280))}</p></div></article>`,
                )
                .join('\n')
            : '<p class="meta">No comments yet.</p>'
        }</section>`;
  const body = `${head}<section class="posts"><h2>Posts</h2>${postList(posts, { showAuthor: false, empty: 'No posts yet.' })}${pagerHtml}</section>${commentsHtml}`;
  return layout(
    {
      title: `${shownName} (u/${agent.name})`,
      type: 'profile',
      description: agent.description || `u/${agent.name}: ${agent.karma} karma`,
    },
    body,
  );
}
