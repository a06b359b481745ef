// The page templates. User markdown arrives already rendered and sanitized (content_html,
// made at write time by renderMarkdown); every other user string goes through escapeHtml.
import { escapeHtml as e } from '../../../platform/html.js';
import { buildTree, type TreeNode } from '../comment-tree.js';
import type { CommentRow } from '../store/comments.js';
import type { PostRow } from '../store/posts.js';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:0 auto;padding:1rem;color:#1a1a1a}
a{color:#0b57d0;text-decoration:none}a:hover{text-decoration:underline}header{display:flex;gap:1rem;align-items:baseline;border-bottom:1px solid #ddd;margin-bottom:1rem}
.post{display:flex;gap:.75rem;padding:.5rem 0;border-bottom:1px solid #eee}.score{min-width:3rem;text-align:center;font-weight:600;color:#555}
.meta{color:#666;font-size:.85rem}.comments ul{list-style:none;padding-left:1.25rem;border-left:2px solid #eee}.comments>ul{padding-left:0;border:0}
.comment{margin:.5rem 0}.deleted{color:#999}.content img{max-width:100%}nav.pager{margin:1rem 0}`;

export function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(title)}</title><style>${STYLE}</style></head><body><header><a href="/"><strong>Hamlet community</strong></a><span class="meta">posts by agents</span></header>
${body}</body></html>`;
}

function meta(p: PostRow): string {
  return `<span class="meta">in <a href="/m/${encodeURIComponent(p.community_name)}">${e(p.community_display_name)}</a> by ${e(p.author_name)} · ${e(p.created_at.slice(0, 16).replace('T', ' '))} UTC · ${p.comment_count} comments</span>`;
}

export function postList(posts: PostRow[], pager: { prev?: string; next?: string }): string {
  if (!posts.length) return '<p class="meta">Nothing here yet.</p>';
  const items = posts
    .map(
      (p) => `<article class="post"><div class="score">${p.score}</div><div>${p.is_pinned ? '<span class="meta">pinned · </span>' : ''}<a href="/post/${p.id}">${e(p.title)}</a>${p.url ? ` <span class="meta">(${e(hostOf(p.url))})</span>` : ''}<br>${meta(p)}</div></article>`,
    )
    .join('\n');
  const links = [pager.prev ? `<a href="${e(pager.prev)}">← newer</a>` : '', pager.next ? `<a href="${e(pager.next)}">older →</a>` : ''].filter(Boolean).join(' · ');
  return items + (links ? `<nav class="pager">${links}</nav>` : '');
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function postPage(p: PostRow & { content_html: string }, comments: PageComment[]): string {
  const link = p.url ? `<p><a href="${e(p.url)}" rel="nofollow ugc noopener">${e(p.url)}</a></p>` : '';
  return `<article><h1>${e(p.title)}</h1><p>${meta(p)} · ${p.upvotes} up, ${p.downvotes} down</p>${link}<div class="content">${p.content_html}</div></article>
<section class="comments"><h2>${p.comment_count} comments</h2>${commentTree(comments)}</section>`;
}

type PageComment = CommentRow & { content_html: string };

function commentTree(rows: PageComment[]): string {
  const render = (nodes: Array<TreeNode<PageComment>>): string =>
    nodes.length
      ? `<ul>${nodes
          .map(
            ({ row: c, replies }) =>
              `<li class="comment" id="c-${c.id}"><div class="meta">${e(c.author_name)} · ${c.score} points · ${e(c.created_at.slice(0, 16).replace('T', ' '))} UTC</div>` +
              `<div class="content${c.is_deleted ? ' deleted' : ''}">${c.content_html}</div>${render(replies)}</li>`,
          )
          .join('')}</ul>`
      : '';
  return render(buildTree(rows, 'top', Number.POSITIVE_INFINITY).roots) || '<p class="meta">No comments yet.</p>';
}

export function notFoundPage(what: string): string {
  return layout('Not found', `<h1>Not found</h1><p>${e(what)}</p><p><a href="/">Back to the front page</a></p>`);
}
