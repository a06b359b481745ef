// A page of posts in the contract's list shape, for every route that lists posts. Pages that
// are the same for every caller (all but the personal feed and rising) come from the cache,
// which keeps with each page the posts it shows and their rank range (votes drop only the
// pages they can change).
import type { FastifyReply } from 'fastify';
import { ALL_COMMUNITIES, type PageMeta } from '../cache.js';
import type { Ctx } from '../context.js';
import type { PostFilter, PostSort } from '../store/posts.js';
import { postJson } from '../views.js';

/** The page's JSON, and what it shows (its posts and their rank range) for the cache. */
async function render(ctx: Ctx, sort: PostSort, filter: PostFilter, limit: number, offset: number): Promise<{ body: string; meta?: PageMeta }> {
  const rows = (await ctx.store.posts.list(sort, filter, limit, offset)).slice(0, limit + 1);
  const shown = rows.slice(0, limit);
  const posts = shown.map(postJson);
  // has_more from the extra row, not from a guess on count == limit.
  const body = JSON.stringify({ success: true, posts, count: posts.length, has_more: rows.length > limit, next_offset: offset + posts.length });
  if (sort === 'rising') return { body };
  const keys = shown.map((r) => (sort === 'top' ? r.score : r.hot));
  return { body, meta: { sort, ids: shown.map((r) => r.id), low: Math.min(...keys), high: Math.max(...keys) } };
}

export async function sendPostList(ctx: Ctx, reply: FastifyReply, sort: PostSort, filter: PostFilter, limit: number, offset: number) {
  const shared = sort !== 'rising' && !filter.feedOf && !filter.authorId;
  const body = shared
    ? await ctx.cache.list(filter.communityId ?? ALL_COMMUNITIES, `${sort}|${limit}|${offset}`, () => render(ctx, sort, filter, limit, offset))
    : Buffer.from((await render(ctx, sort, filter, limit, offset)).body);
  return reply.type('application/json; charset=utf-8').send(body);
}
