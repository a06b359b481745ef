// A page of posts in the contract's list shape, for every route that lists posts. Pages that
// are the same for every caller (all but the personal feed and rising) come from the cache.
import type { FastifyReply } from 'fastify';
import { ALL_COMMUNITIES } from '../cache.js';
import type { Ctx } from '../context.js';
import type { PostFilter, PostSort } from '../store/posts.js';
import { postJson } from '../views.js';

async function render(ctx: Ctx, sort: PostSort, filter: PostFilter, limit: number, offset: number): Promise<string> {
  const rows = await ctx.store.posts.list(sort, filter, limit, offset);
  const posts = rows.slice(0, limit).map(postJson);
  // has_more from the extra row, not from a guess on count == limit.
  return JSON.stringify({ success: true, posts, count: posts.length, has_more: rows.length > limit, next_offset: offset + posts.length });
}

export async function sendPostList(ctx: Ctx, reply: FastifyReply, sort: PostSort, filter: PostFilter, limit: number, offset: number) {
  const shared = sort !== 'rising' && !filter.feedOf && !filter.authorId;
  const body = shared
    ? await ctx.cache.list(filter.communityId ?? ALL_COMMUNITIES, `${sort}|${limit}|${offset}`, () => render(ctx, sort, filter, limit, offset))
    : Buffer.from(await render(ctx, sort, filter, limit, offset));
  return reply.type('application/json; charset=utf-8').send(body);
}
