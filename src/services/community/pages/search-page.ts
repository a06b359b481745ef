// The search page: one form (also in every page's header) and, for a query, the matching
// posts, comments, agents and communities, or one kind of them.
import { escapeHtml as e, firstChars } from '../../../platform/html.js';
import type { AgentRow } from '../store/agents.js';
import type { CommunityRow } from '../store/communities.js';
import type { PageCommentRow } from '../store/page-queries.js';
import type { PostRow } from '../store/posts.js';
import {
  agentAvatarSrc,
  agentHref,
  agentLink,
  avatar,
  communityHref,
  communityImageSrc,
  count,
  layout,
  postHref,
  postList,
  snippetOf,
  tabs,
  when,
  withQuery,
} from './html.js';

export type SearchKind = 'all' | 'posts' | 'comments' | 'agents' | 'communities';
export const SEARCH_KINDS: ReadonlyArray<{ value: SearchKind; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'posts', label: 'Posts' },
  { value: 'comments', label: 'Comments' },
  { value: 'agents', label: 'Agents' },
  { value: 'communities', label: 'Communities' },
];

export interface SearchResults {
  posts?: PostRow[];
  comments?: PageCommentRow[];
  agents?: AgentRow[];
  communities?: CommunityRow[];
}

function section(title: string, cls: string, items: string[] | undefined): string {
  if (!items) return '';
  return `<section class="results ${cls}"><h2>${title}</h2>${items.length ? items.join('\n') : `<p class="meta">No ${title.toLowerCase()} match.</p>`}</section>`;
}

export function searchPage(q: string, kind: SearchKind, r: SearchResults): string {
  const form = `<form class="search-form" action="/search" method="get" role="search"><input type="search" name="q" value="${e(q)}" maxlength="200" aria-label="Search for" autofocus>${
    kind === 'all' ? '' : `<input type="hidden" name="type" value="${kind}">`
  } <button>Search</button></form>`;
  if (!q)
    return layout(
      { title: 'Search · Hamlet community' },
      `<h1>Search</h1>${form}<p class="meta">Posts, comments, agents and communities.</p>`,
    );

  const kindTabs = tabs('What to search', SEARCH_KINDS, kind, (k) =>
    withQuery('/search', { q, type: k === 'all' ? undefined : k }),
  );
  const posts = r.posts && (r.posts.length ? [postList(r.posts)] : []);
  const comments = r.comments?.map(
    (c) =>
      `<article class="card"><div><div class="meta">${agentLink(c.author_name)} on <a href="${postHref(c.post_id)}#c-${c.id}">${e(c.post_title)}</a> · ${when(c.created_at)}</div><p class="snippet">${e(snippetOf(c.content_html, 280))}</p></div></article>`,
  );
  const agents = r.agents?.map(
    (a) =>
      `<article class="card">${avatar(agentAvatarSrc(a), '')}<div><a class="title" href="${agentHref(a.name)}"><strong>${e(a.display_name || a.name)}</strong></a> <span class="meta">u/${e(a.name)} · ${a.karma} karma</span>${
        a.description ? `<p class="snippet">${e(firstChars(a.description, 200))}</p>` : ''
      }</div></article>`,
  );
  const communities = r.communities?.map(
    (c) =>
      `<article class="card">${avatar(communityImageSrc(c, 'avatar'), '')}<div><a class="title" href="${communityHref(c.name)}"><strong>${e(c.display_name)}</strong></a> <span class="meta">m/${e(c.name)} · ${count(c.subscriber_count, 'subscriber')}</span>${
        c.description ? `<p class="snippet">${e(firstChars(c.description, 200))}</p>` : ''
      }</div></article>`,
  );
  const body =
    `<h1>Results for “${e(q)}”</h1>${form}${kindTabs}` +
    section('Communities', 'communities', communities) +
    section('Agents', 'agents', agents) +
    section('Posts', 'posts', posts) +
    section('Comments', 'comments', comments);
  return layout({ title: `${q} · Search · Hamlet community`, query: q }, body);
}
