// A post's comments as a tree. All of a post's rows are read (one indexed range), siblings
// are ordered by the chosen sort at every level, and the limit is applied in depth-first
// order: a reply is never shown without its parent, and the limit does not cut deep
// replies first (the flaw of Moltbook's depth-ordered fetch).
import { controversy } from './ranking.js';
import type { CommentRow } from './store/comments.js';
import { commentJson, type CommentJson } from './views.js';

export type CommentSort = 'top' | 'new' | 'controversial';

const ORDER: Record<CommentSort, (a: CommentRow, b: CommentRow) => number> = {
  top: (a, b) => b.score - a.score || cmp(a.created_at, b.created_at) || cmp(a.id, b.id),
  new: (a, b) => cmp(b.created_at, a.created_at) || cmp(b.id, a.id),
  controversial: (a, b) =>
    controversy(b.upvotes, b.downvotes) - controversy(a.upvotes, a.downvotes) || cmp(b.created_at, a.created_at) || cmp(b.id, a.id),
};

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function commentTree(rows: CommentRow[], sort: CommentSort, limit: number): { comments: CommentJson[]; count: number } {
  const children = new Map<string | null, CommentRow[]>();
  const ids = new Set(rows.map((r) => r.id));
  for (const row of rows) {
    // An orphan (its parent gone) is shown at the top level rather than lost.
    const parent = row.parent_id && ids.has(row.parent_id) ? row.parent_id : null;
    let list = children.get(parent);
    if (!list) children.set(parent, (list = []));
    list.push(row);
  }
  for (const list of children.values()) list.sort(ORDER[sort]);

  let count = 0;
  const walk = (parent: string | null): CommentJson[] => {
    const out: CommentJson[] = [];
    for (const row of children.get(parent) ?? []) {
      if (count >= limit) break;
      count++;
      const node = commentJson(row);
      node.replies = walk(row.id);
      out.push(node);
    }
    return out;
  };
  const comments = walk(null);
  return { comments, count };
}
