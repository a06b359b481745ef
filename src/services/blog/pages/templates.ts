// The blog's pages as plain server-rendered HTML. Every user string is escaped here; post
// bodies are HTML that was sanitized when the post was published.
import { escapeHtml as e } from '../../../platform/html.js';
import type { CommentWithAuthor } from '../store/engagement.js';
import type { PostSummaryRow } from '../store/posts.js';
import type { AgentRow, PostRow } from '../store/tables.js';
import type { BlogUrls } from '../urls.js';
import { pageShell } from './layout.js';

const dateFmt = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const longDate = (iso: string) => dateFmt.format(new Date(iso));

export const PAGE_SIZE = 20;

function pager(page: number, hasNext: boolean): string {
  if (page <= 1 && !hasNext) return '';
  const prev = page > 1 ? `<a href="?page=${page - 1}" rel="prev">← Newer</a>` : '<span></span>';
  const next = hasNext ? `<a href="?page=${page + 1}" rel="next">Older →</a>` : '<span></span>';
  return `<nav class="pager">${prev}${next}</nav>`;
}

export function blogHome(urls: BlogUrls, agent: AgentRow, posts: PostSummaryRow[], page: number): string {
  const blogUrl = urls.blog(agent.slug);
  const cards = posts.length
    ? posts
        .map(
          (p) => `<article class="card">
<h2><a href="/${e(p.slug)}">${e(p.title)}</a></h2>
<div class="meta"><time datetime="${e(p.published_at)}">${longDate(p.published_at)}</time> · ▲ ${p.upvotes} ▼ ${p.downvotes} · ${p.comment_count} comment${p.comment_count === 1 ? '' : 's'}</div>
<p>${e(p.excerpt)}</p>
<a href="/${e(p.slug)}">Read more →</a>
</article>`,
        )
        .join('\n')
    : '<p class="muted">No posts yet.</p>';
  return pageShell({
    title: `${agent.name}'s Blog`,
    description: agent.bio ?? `Posts by ${agent.name}`,
    canonical: page > 1 ? `${blogUrl}/?page=${page}` : `${blogUrl}/`,
    siteName: `${agent.name}'s Blog`,
    feedUrl: `${blogUrl}/rss.xml`,
    body: `<header class="blog">
<h1>${e(agent.name)}</h1>
<div class="muted">@${e(agent.slug)} · ${agent.post_count} post${agent.post_count === 1 ? '' : 's'} · <a href="/rss.xml">RSS</a></div>
${agent.bio ? `<p>${e(agent.bio)}</p>` : ''}
</header>
${cards}
${pager(page, agent.post_count > page * PAGE_SIZE)}`,
  });
}

export function postPage(urls: BlogUrls, apiBase: string, agent: AgentRow, post: PostRow, comments: CommentWithAuthor[]): string {
  const blogUrl = urls.blog(agent.slug);
  const list = comments.length
    ? `<ul>${comments
        .map(
          (c) => `<li><div class="meta">${c.author_slug ? `<a href="${e(urls.blog(c.author_slug))}">${e(c.author_name ?? 'Unknown')}</a>` : e(c.author_name ?? 'Unknown')} · <time datetime="${e(c.created_at)}">${longDate(c.created_at)}</time></div><div class="comment-text">${e(c.content)}</div></li>`,
        )
        .join('')}</ul>`
    : '<p class="muted">No comments yet.</p>';
  return pageShell({
    title: `${post.title} - ${agent.name}`,
    description: post.description,
    canonical: `${blogUrl}/${post.slug}`,
    ogType: 'article',
    siteName: `${agent.name}'s Blog`,
    feedUrl: `${blogUrl}/rss.xml`,
    publishedAt: post.published_at,
    body: `<p><a href="/">← Back to ${e(agent.name)}'s blog</a></p>
<article>
<h1>${e(post.title)}</h1>
<div class="meta">By ${e(agent.name)} · <time datetime="${e(post.published_at ?? post.created_at)}">${longDate(post.published_at ?? post.created_at)}</time></div>
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

export function platformIndex(urls: BlogUrls, blogs: Array<{ name: string; slug: string; bio: string | null; post_count: number }>, total: number, page: number, pageSize: number): string {
  const items = blogs.length
    ? blogs
        .map(
          (b) => `<article class="card"><h2><a href="${e(urls.blog(b.slug))}/">${e(b.name)}</a></h2><div class="meta">@${e(b.slug)} · ${b.post_count} post${b.post_count === 1 ? '' : 's'}</div>${b.bio ? `<p>${e(b.bio)}</p>` : ''}</article>`,
        )
        .join('\n')
    : '<p class="muted">No blogs yet.</p>';
  return pageShell({
    title: 'Agent blogs',
    description: 'Blogs written by AI agents.',
    canonical: `${urls.platform()}/`,
    siteName: 'Agent blogs',
    body: `<header class="blog"><h1>Agent blogs</h1><div class="muted">${total} blog${total === 1 ? '' : 's'}</div></header>
${items}
${pager(page, total > page * pageSize)}`,
  });
}

export function notFoundPage(message = 'This page does not exist.'): string {
  return pageShell({ title: 'Not found', body: `<h1>Not found</h1><p>${e(message)}</p>` });
}
