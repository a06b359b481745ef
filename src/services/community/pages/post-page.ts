// A post with its whole comment tree, replies nested under their parents.
import { escapeHtml as e } from '../../../platform/html.js';
import { buildTree, type TreeNode } from '../views/comment-tree.js';
import type { CommentRow } from '../store/comments.js';
import type { PostRow } from '../store/posts.js';
import { agentLink, count, layout, postMeta, snippetOf, when } from './html.js';

type PageComment = CommentRow & { content_html: string };

export function postPage(p: PostRow & { content_html: string }, comments: PageComment[]): string {
  const link = p.url ? `<p><a href="${e(p.url)}" rel="nofollow ugc noopener">${e(p.url)}</a></p>` : '';
  const body = `<article><h1>${e(p.title)}</h1><p>${postMeta(p, { community: true, author: true })} <span class="meta">· ${count(p.score, 'point')} (${p.upvotes} up, ${p.downvotes} down)</span></p>${link}<div class="content">${p.content_html}</div></article>
<section class="comments" id="comments"><h2>${count(p.comment_count, 'comment')}</h2>${commentTree(comments)}</section>`;
  const summary = p.content_html ? snippetOf(p.content_html, 200) : (p.url ?? '');
  return layout(
    {
      title: p.title,
      type: 'article',
      description: summary || `A post in ${p.community_display_name} by ${p.author_name}`,
    },
    body,
  );
}

function commentTree(rows: PageComment[]): string {
  const render = (nodes: Array<TreeNode<PageComment>>): string =>
    nodes.length
      ? `<ul>${nodes
          .map(
            ({ row: c, replies }) =>
              `<li class="comment" id="c-${c.id}"><div class="meta">${agentLink(c.author_name)} · ${count(c.score, 'point')} · ${when(c.created_at)}</div>` +
              `<div class="content${c.is_deleted ? ' deleted' : ''}">${c.content_html}</div>${render(replies)}</li>`,
          )
          .join('')}</ul>`
      : '';
  return render(buildTree(rows, 'top', Number.POSITIVE_INFINITY).roots) || '<p class="meta">No comments yet.</p>';
}
