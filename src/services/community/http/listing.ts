// A page of posts in the contract's list shape, for every route that lists posts. Pages that
// are the same for every caller (all but the personal feed and rising) come from the cache,
// which keeps with each page the posts it shows and their rank range (votes drop only the
// pages they can change) and a way to rewrite the page after a vote on one of its posts.
import type { FastifyReply } from 'fastify';
import { ALL_COMMUNITIES, type PageComputed, type VoteChange } from '../cache.js';
import type { Ctx } from '../context.js';
import type { PostFilter, PostRow, PostSort } from '../store/posts.js';
import { postJson } from '../views/views.js';

type Ranked = 'hot' | 'top';
const keyOf = (sort: Ranked, row: PostRow) => (sort === 'top' ? row.score : row.hot);

/** The page's JSON and, for the cache, what it shows and how to rewrite it after a vote. */
function page(sort: PostSort, rows: PostRow[], limit: number, offset: number, pinnedFirst: boolean): PageComputed {
  const shown = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const posts = shown.map(postJson);
  // has_more from the extra row, not from a guess on count == limit.
  const body = JSON.stringify({
    success: true,
    posts,
    count: posts.length,
    has_more: hasMore,
    next_offset: offset + posts.length,
  });
  if (sort === 'rising') return { body };
  const keys = sort === 'new' ? [0] : shown.map((r) => keyOf(sort, r));
  const meta = { sort, ids: shown.map((r) => r.id), low: Math.min(...keys), high: Math.max(...keys) };
  return {
    body,
    meta,
    patch: (vote) => patched(vote, sort, shown, hasMore, limit, offset, pinnedFirst, meta.low, meta.high),
  };
}

/**
 * The page after a vote on one of its posts, when the page can tell by itself: the post
 * stays on it (not below its lowest row while more follow, not above its highest row unless
 * the page is the first), so no other post enters or leaves; only counters and the order
 * within the page change. Pinned posts first (a community's listing) are left to the database.
 */
function patched(
  vote: VoteChange,
  sort: 'hot' | 'top' | 'new',
  shown: PostRow[],
  hasMore: boolean,
  limit: number,
  offset: number,
  pinnedFirst: boolean,
  low: number,
  high: number,
) {
  const i = shown.findIndex((r) => r.id === vote.postId);
  if (i < 0 || (pinnedFirst && shown.some((r) => r.is_pinned === 1))) return undefined;
  const before = shown[i];
  const after: PostRow = { ...before, ...vote.counts, hot: vote.after.hot };
  const rows = shown.slice();
  rows[i] = after;
  if (sort !== 'new') {
    const was = keyOf(sort, before);
    const now = keyOf(sort, after);
    const staysAboveBelow = !hasMore || now >= was || now > low;
    const staysBelowAbove = offset === 0 || now <= was || now < high;
    if (!staysAboveBelow || !staysBelowAbove) return undefined;
    rows.sort((a, b) => keyOf(sort, b) - keyOf(sort, a) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  }
  // The extra row only says that more follow; it is not shown.
  return page(sort, hasMore ? [...rows, rows[rows.length - 1]] : rows, limit, offset, pinnedFirst);
}

async function render(
  ctx: Ctx,
  sort: PostSort,
  filter: PostFilter,
  limit: number,
  offset: number,
): Promise<PageComputed> {
  const rows = await ctx.store.posts.list(sort, filter, limit, offset);
  return page(sort, rows, limit, offset, !!filter.communityId);
}

export async function sendPostList(
  ctx: Ctx,
  reply: FastifyReply,
  sort: PostSort,
  filter: PostFilter,
  limit: number,
  offset: number,
) {
  const shared = sort !== 'rising' && !filter.feedOf && !filter.authorId;
  const body = shared
    ? await ctx.cache.list(filter.communityId ?? ALL_COMMUNITIES, `${sort}|${limit}|${offset}`, () =>
        render(ctx, sort, filter, limit, offset),
      )
    : Buffer.from((await render(ctx, sort, filter, limit, offset)).body);
  return reply.type('application/json; charset=utf-8').send(body);
}
