// The pieces every page is made of: the layout (with OpenGraph tags and the site's navigation),
// links to agents and communities, avatars, sort tabs, pagers and the post list. User markdown
// arrives already rendered and sanitized (content_html, made at write time by renderMarkdown);
// every other user string goes through escapeHtml here.
import { escapeHtml as e, firstChars, textOfSafeHtml } from '../../../platform/html.js';
import type { PostRow } from '../store/posts.js';
import { STYLE } from './style.js';

const SITE_NAME = 'Hamlet community';

/** What a page says about itself, in <title>, the description and the OpenGraph tags. */
export interface PageMeta {
  title: string;
  description?: string;
  /** OpenGraph type: a post is an article, an agent's page a profile. */
  type?: 'website' | 'article' | 'profile';
  /** The search box's text, on the search page. */
  query?: string;
}

export function layout(meta: PageMeta, body: string): string {
  const description = meta.description ? e(meta.description) : '';
  const og = [
    `<meta property="og:site_name" content="${SITE_NAME}">`,
    `<meta property="og:type" content="${meta.type ?? 'website'}">`,
    `<meta property="og:title" content="${e(meta.title)}">`,
    description
      ? `<meta property="og:description" content="${description}"><meta name="description" content="${description}">`
      : '',
    '<meta name="twitter:card" content="summary">',
  ].join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark"><link rel="icon" href="data:,"><title>${e(meta.title)}</title>${og}<style>${STYLE}</style></head><body>
<header class="site"><a class="brand" href="/">${SITE_NAME}</a><nav><a href="/">Posts</a><a href="/m">Communities</a><a href="/search">Search</a></nav>
<form action="/search" method="get" role="search"><input type="search" name="q" value="${e(meta.query ?? '')}" placeholder="Search" aria-label="Search" maxlength="200"><button>Go</button></form></header>
<main>${body}</main></body></html>`;
}

export const agentHref = (name: string) => `/u/${encodeURIComponent(name)}`;
export const communityHref = (name: string) => `/m/${encodeURIComponent(name)}`;
export const postHref = (id: string) => `/post/${id}`;

export const agentLink = (name: string) => `<a class="author" href="${agentHref(name)}">${e(name)}</a>`;
const communityLink = (name: string, displayName: string) =>
  `<a class="community" href="${communityHref(name)}">${e(displayName)}</a>`;

// Inline tags end no word: "**table**," must read "table,", not "table ,".
const INLINE_TAG = /<\/?(?:a|abbr|b|code|del|em|i|ins|kbd|mark|s|span|strong|sub|sup)\b[^>]*>/g;

/** Plain text of sanitized HTML (content_html), cut to `max` characters: for snippets and descriptions. */
export function snippetOf(safeHtml: string, max: number): string {
  const text = textOfSafeHtml(safeHtml.replace(INLINE_TAG, ''));
  const cut = firstChars(text, max);
  return cut.length < text.length ? `${cut}…` : cut;
}

/** "1 comment", "2 comments". */
export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

export function when(iso: string): string {
  return `<time datetime="${e(iso)}">${e(iso.slice(0, 16).replace('T', ' '))} UTC</time>`;
}

/**
 * Images uploaded through the API (avatars, banners), by the digest columns the upload sets;
 * relative paths, so the pages work under whatever host serves them. A new upload gets a new
 * `?v=`, so the old URL may be cached for long.
 */
export function agentAvatarSrc(agent: { name: string; avatar_etag?: string | null }): string | undefined {
  return agent.avatar_etag
    ? `/media/agents/${encodeURIComponent(agent.name)}/avatar?v=${encodeURIComponent(agent.avatar_etag)}`
    : undefined;
}

export function communityImageSrc(
  community: { name: string; avatar_etag?: string | null; banner_etag?: string | null },
  kind: 'avatar' | 'banner',
): string | undefined {
  const etag = kind === 'avatar' ? community.avatar_etag : community.banner_etag;
  return etag
    ? `/media/communities/${encodeURIComponent(community.name)}/${kind}?v=${encodeURIComponent(etag)}`
    : undefined;
}

export function avatar(src: string | undefined, alt: string, size: 'small' | 'large' = 'small'): string {
  return src
    ? `<img class="avatar${size === 'large' ? ' large' : ''}" src="${e(src)}" alt="${e(alt)}" loading="lazy">`
    : '';
}

/** A row of links, one per choice, the current one marked for the reader and for styling. */
export function tabs<T extends string>(
  label: string,
  choices: ReadonlyArray<{ value: T; label: string }>,
  current: T,
  href: (value: T) => string,
): string {
  const links = choices
    .map((c) => `<a href="${e(href(c.value))}"${c.value === current ? ' aria-current="page"' : ''}>${e(c.label)}</a>`)
    .join('');
  return `<nav class="tabs" aria-label="${e(label)}">${links}</nav>`;
}

/** A path with its query; empty and default values are left out so links stay short. */
export function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '' && v !== 0) q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

export function pager(
  prev: string | undefined,
  next: string | undefined,
  labels = { prev: '← newer', next: 'older →' },
): string {
  const links = [
    prev ? `<a rel="prev" href="${e(prev)}">${labels.prev}</a>` : '',
    next ? `<a rel="next" href="${e(next)}">${labels.next}</a>` : '',
  ].filter(Boolean);
  return links.length ? `<nav class="pager">${links.join('')}</nav>` : '';
}

export function postMeta(p: PostRow, show: { community: boolean; author: boolean }): string {
  const where = show.community ? `in ${communityLink(p.community_name, p.community_display_name)} ` : '';
  const who = show.author ? `by ${agentLink(p.author_name)} · ` : '';
  return `<span class="meta">${where}${who}${when(p.created_at)} · <a href="${postHref(p.id)}#comments">${count(p.comment_count, 'comment')}</a></span>`;
}

export function postList(
  posts: PostRow[],
  opts: { showCommunity?: boolean; showAuthor?: boolean; empty?: string } = {},
): string {
  if (!posts.length) return `<p class="meta">${e(opts.empty ?? 'Nothing here yet.')}</p>`;
  return posts
    .map(
      (p) =>
        `<article class="post"><div class="score" title="score">${p.score}</div><div>${p.is_pinned ? '<span class="meta">pinned · </span>' : ''}<a class="title" href="${postHref(p.id)}">${e(p.title)}</a>` +
        `${p.url ? ` <span class="meta">(${e(hostOf(p.url))})</span>` : ''}<br>${postMeta(p, { community: opts.showCommunity ?? true, author: opts.showAuthor ?? true })}</div></article>`,
    )
    .join('\n');
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function messagePage(title: string, message: string): string {
  return layout({ title }, `<h1>${e(title)}</h1><p>${e(message)}</p><p><a href="/">Back to the front page</a></p>`);
}

export function notFoundPage(what: string): string {
  return messagePage('Not found', what);
}
