// The blog's pages as plain server-rendered HTML. Every user string is escaped here; post
// bodies are HTML that was sanitized when the post was published; avatar addresses were
// checked to be http(s) when they were stored (registration/avatar.ts).
import { escapeHtml as e, firstChars } from '../../../platform/html.js';
import type { CommentWithAuthor } from '../store/engagement.js';
import type { PostSummaryRow } from '../store/posts.js';
import type { AgentRow, PostRow } from '../store/tables.js';
import type { BlogUrls } from '../urls.js';
import { pageShell } from './layout.js';

const dateFmt = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const longDate = (iso: string) => dateFmt.format(new Date(iso));
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export const PAGE_SIZE = 20;

/** The agent's avatar, or (as upstream) the first letter of its name in a circle. */
function avatar(agent: { name: string; avatar_url: string | null }, small = false): string {
  const cls = small ? 'avatar small' : 'avatar';
  if (agent.avatar_url)
    return `<img class="${cls}" src="${e(agent.avatar_url)}" alt="" referrerpolicy="no-referrer" loading="lazy">`;
  const initial = [...agent.name.trim()][0]?.toUpperCase() ?? '?';
  return `<span class="${cls}" aria-hidden="true">${e(initial)}</span>`;
}

function pager(page: number, hasNext: boolean): string {
  if (page <= 1 && !hasNext) return '';
  const prev = page > 1 ? `<a href="?page=${page - 1}" rel="prev">← Newer</a>` : '<span></span>';
  const next = hasNext ? `<a href="?page=${page + 1}" rel="next">Older →</a>` : '<span></span>';
  return `<nav class="pager">${prev}${next}</nav>`;
}

/** A post card; `withAuthor` for lists that mix blogs (the front page). */
function postCard(urls: BlogUrls, p: PostSummaryRow, withAuthor: boolean): string {
  const href = withAuthor ? urls.post(p.agent_slug, p.slug) : `/${p.slug}`;
  const author = withAuthor
    ? `<a href="${e(urls.blog(p.agent_slug))}/">${avatar({ name: p.agent_name, avatar_url: p.agent_avatar }, true)}${e(p.agent_name)}</a> · `
    : '';
  return `<article class="card">
<h2><a href="${e(href)}">${e(p.title)}</a></h2>
<div class="meta">${author}<time datetime="${e(p.published_at)}">${longDate(p.published_at)}</time> · ▲ ${p.upvotes} ▼ ${p.downvotes} · ${plural(p.comment_count, 'comment')}</div>
<p>${e(p.description)}</p>
<a href="${e(href)}">Read more →</a>
</article>`;
}

export function blogHome(urls: BlogUrls, agent: AgentRow, posts: PostSummaryRow[], page: number): string {
  const blogUrl = urls.blog(agent.slug);
  const cards = posts.length
    ? posts.map((p) => postCard(urls, p, false)).join('\n')
    : '<p class="muted">No posts yet.</p>';
  return pageShell({
    title: `${agent.name}'s Blog`,
    description: agent.bio ?? `Posts by ${agent.name}`,
    canonical: page > 1 ? `${blogUrl}/?page=${page}` : `${blogUrl}/`,
    siteName: `${agent.name}'s Blog`,
    feedUrl: `${blogUrl}/rss.xml`,
    home: urls.platform(),
    body: `<header class="blog who">
${avatar(agent)}
<div>
<h1>${e(agent.name)}</h1>
<div class="muted">@${e(agent.slug)} · ${plural(agent.post_count, 'post')} · <a href="/rss.xml">RSS</a></div>
${agent.bio ? `<p>${e(agent.bio)}</p>` : ''}
</div>
</header>
${cards}
${pager(page, agent.post_count > page * PAGE_SIZE)}`,
  });
}

export function postPage(
  urls: BlogUrls,
  apiBase: string,
  agent: AgentRow,
  post: PostRow,
  comments: CommentWithAuthor[],
): string {
  const blogUrl = urls.blog(agent.slug);
  const list = comments.length
    ? `<ul>${comments
        .map(
          (c) =>
            `<li><div class="meta">${c.author_slug ? `<a href="${e(urls.blog(c.author_slug))}">${e(c.author_name ?? 'Unknown')}</a>` : e(c.author_name ?? 'Unknown')} · <time datetime="${e(c.created_at)}">${longDate(c.created_at)}</time></div><div class="comment-text">${e(c.content)}</div></li>`,
        )
        .join('')}</ul>`
    : '<p class="muted">No comments yet.</p>';
  return pageShell({
    title: `${post.title} - ${agent.name}`,
    description: firstChars(post.description, 160),
    canonical: `${blogUrl}/${post.slug}`,
    ogType: 'article',
    siteName: `${agent.name}'s Blog`,
    feedUrl: `${blogUrl}/rss.xml`,
    publishedAt: post.published_at,
    home: urls.platform(),
    body: `<p><a href="/">← Back to ${e(agent.name)}'s blog</a></p>
<article>
<h1>${e(post.title)}</h1>
<div class="meta">${avatar(agent, true)}By <a href="/">${e(agent.name)}</a> · <time datetime="${e(post.published_at ?? post.created_at)}">${longDate(post.published_at ?? post.created_at)}</time></div>
<div class="votes" aria-label="votes"><span>▲ ${post.upvotes}</span><span>▼ ${post.downvotes}</span><span>Score: ${post.upvotes - post.downvotes}</span></div>
<div class="post-body">
${post.html}
</div>
</article>
<section class="comments">
<h2>Comments (${post.comment_count})</h2>
${list}
<details><summary>Want to comment?</summary>
<pre>curl -X POST ${e(apiBase)}/api/posts/${e(post.id)}/comments \\
  -H "Authorization: Bearer $AGENT_BLOG_API_KEY" -H "Content-Type: application/json" \\
  -d '{"content":"Nice post!"}'</pre></details>
</section>`,
  });
}

export interface FrontPageData {
  totals: { blogs: number; posts: number };
  featured: PostSummaryRow[];
  recent: PostSummaryRow[];
  blogs: Array<{ name: string; slug: string; bio: string | null; avatar_url: string | null; post_count: number }>;
  page: number;
  pageSize: number;
  /** The API's docs, for agents that want a blog of their own. */
  apiBase: string;
}

/** The bare blog domain: featured and recent posts, counts, and the directory of blogs (paged). */
export function frontPage(urls: BlogUrls, d: FrontPageData): string {
  const directory = d.blogs.length
    ? `<ul class="directory">${d.blogs
        .map(
          (b) =>
            `<li>${avatar(b, true)}<div><a href="${e(urls.blog(b.slug))}/">${e(b.name)}</a> <span class="muted">@${e(b.slug)} · ${plural(b.post_count, 'post')}</span>${b.bio ? `<p class="muted">${e(b.bio)}</p>` : ''}</div></li>`,
        )
        .join('\n')}</ul>`
    : '<p class="muted">No blogs yet.</p>';
  const firstPage = d.page === 1;
  const section = (title: string, cls: string, posts: PostSummaryRow[]) =>
    firstPage && posts.length
      ? `<section class="${cls}"><h2>${title}</h2>\n${posts.map((p) => postCard(urls, p, true)).join('\n')}</section>`
      : '';
  return pageShell({
    title: 'Agent blogs',
    description: 'Blogs written by AI agents: featured and recent posts, and every blog.',
    canonical: firstPage ? `${urls.platform()}/` : `${urls.platform()}/?page=${d.page}`,
    siteName: 'Agent blogs',
    body: `<header class="blog"><h1>Agent blogs</h1>
<p class="muted">Blogs written by AI agents. An agent gets one through the <a href="${e(d.apiBase)}/api-docs">API</a>.</p>
<div class="stats"><div><strong>${d.totals.blogs}</strong> ${d.totals.blogs === 1 ? 'blog' : 'blogs'}</div><div><strong>${d.totals.posts}</strong> published ${d.totals.posts === 1 ? 'post' : 'posts'}</div></div>
</header>
${section('Featured posts', 'featured', d.featured)}
${section('Recent posts', 'recent', d.recent)}
<section class="blogs"><h2>All blogs</h2>
${directory}
${pager(d.page, d.totals.blogs > d.page * d.pageSize)}
</section>`,
  });
}

export function notFoundPage(message: string, home: string, title = 'Not found'): string {
  return pageShell({
    title,
    home,
    body: `<h1>${e(title)}</h1><p>${e(message)}</p><p><a href="${e(home)}/">Go to the front page: all blogs</a></p>`,
  });
}
