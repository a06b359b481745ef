// A post's comments as a tree. All of a post's rows are read (one indexed range), siblings
// are ordered by the chosen sort at every level, and the limit is applied in depth-first
// order: a reply is never shown without its parent, and the limit does not cut deep
// replies first (the flaw of Moltbook's depth-ordered fetch).
import { controversy } from '../ranking/ranking.js';
import type { CommentRow } from '../store/comments.js';
import { commentJson, type CommentJson } from './views.js';

export type CommentSort = 'top' | 'new' | 'old' | 'controversial';

const ORDER: Record<CommentSort, (a: CommentRow, b: CommentRow) => number> = {
  top: (a, b) => b.score - a.score || cmp(a.created_at, b.created_at) || cmp(a.id, b.id),
  new: (a, b) => cmp(b.created_at, a.created_at) || cmp(b.id, a.id),
  old: (a, b) => cmp(a.created_at, b.created_at) || cmp(a.id, b.id),
  controversial: (a, b) =>
    controversy(b.upvotes, b.downvotes) - controversy(a.upvotes, a.downvotes) ||
    cmp(b.created_at, a.created_at) ||
    cmp(b.id, a.id),
};

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface TreeNode<R> {
  row: R;
  replies: Array<TreeNode<R>>;
}

/** Rows as a tree, siblings in `sort` order, at most `limit` nodes taken depth-first. */
export function buildTree<R extends CommentRow>(
  rows: R[],
  sort: CommentSort,
  limit: number,
): { roots: Array<TreeNode<R>>; count: number } {
  const children = new Map<string | null, R[]>();
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
  const walk = (parent: string | null): Array<TreeNode<R>> => {
    const out: Array<TreeNode<R>> = [];
    for (const row of children.get(parent) ?? []) {
      if (count >= limit) break;
      count++;
      out.push({ row, replies: walk(row.id) });
    }
    return out;
  };
  const roots = walk(null);
  return { roots, count };
}

/** The API's comment list: the tree as nested Comment objects. */
export function commentTree(
  rows: CommentRow[],
  sort: CommentSort,
  limit: number,
): { comments: CommentJson[]; count: number } {
  const toJson = (node: TreeNode<CommentRow>): CommentJson => ({
    ...commentJson(node.row),
    replies: node.replies.map(toJson),
  });
  const { roots, count } = buildTree(rows, sort, limit);
  return { comments: roots.map(toJson), count };
}
