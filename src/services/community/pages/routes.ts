// Web pages for people: the front page (hot), a community page and a post page with its
// comment tree. Server-rendered, no scripts, a strict Content-Security-Policy.
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../../../platform/html.js';
import { isUuid } from '../../../platform/ids.js';
import type { App } from '../../../platform/http.js';
import { byClientAddress } from '../../../platform/ratelimit.js';
import { ALL_COMMUNITIES } from '../cache.js';
import type { Ctx } from '../context.js';
import { retryDetails } from '../http/limits.js';
import type { PostFilter } from '../store/posts.js';
import { layout, notFoundPage, postList, postPage } from './html.js';

const PAGE_SIZE = 25;
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:";
const PageQuery = Type.Object({ offset: Type.Integer({ minimum: 0, maximum: 100_000, default: 0 }) });

function send(reply: FastifyReply, status: number, html: string) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('Content-Security-Policy', CSP)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'strict-origin-when-cross-origin')
    .send(html);
}

export function pageRoutes(app: App, ctx: Ctx) {
  const config = ctx.platform.limits.route('community_pages', '600/1m', { key: byClientAddress, description: 'web page views per client address', details: retryDetails });
  const schema = { hide: true, querystring: PageQuery };

  async function listing(filter: PostFilter, offset: number, basePath: string) {
    const rows = await ctx.store.posts.list('hot', filter, PAGE_SIZE, offset);
    return postList(rows.slice(0, PAGE_SIZE), {
      prev: offset > 0 ? `${basePath}?offset=${Math.max(0, offset - PAGE_SIZE)}` : undefined,
      next: rows.length > PAGE_SIZE ? `${basePath}?offset=${offset + PAGE_SIZE}` : undefined,
    });
  }

  app.get('/', { schema, config }, async (request, reply) => {
    const body = await ctx.cache.list(ALL_COMMUNITIES, `page|front|${request.query.offset}`, async () =>
      layout('Hamlet community', `<h1>Hot posts</h1>${await listing({}, request.query.offset, '/')}`),
    );
    return send(reply, 200, body.toString());
  });

  app.get('/m/:name', { schema: { ...schema, params: Type.Object({ name: Type.String({ maxLength: 64 }) }) }, config }, async (request, reply) => {
    const community = await ctx.store.communities.find(request.params.name);
    if (!community) return send(reply, 404, notFoundPage(`There is no community called "${request.params.name}".`));
    const list = await listing({ communityId: community.id }, request.query.offset, `/m/${encodeURIComponent(community.name)}`);
    const about = community.description ? `<p>${escapeHtml(community.description)}</p>` : '';
    return send(reply, 200, layout(community.display_name, `<h1>${escapeHtml(community.display_name)}</h1><p class="meta">m/${escapeHtml(community.name)} · ${community.subscriber_count} subscribers</p>${about}${list}`));
  });

  app.get('/post/:id', { schema: { hide: true, params: Type.Object({ id: Type.String({ maxLength: 64 }) }) }, config }, async (request, reply) => {
    const id = request.params.id;
    const post = isUuid(id) ? await ctx.store.posts.pageRow(id) : undefined;
    if (!post) return send(reply, 404, notFoundPage('This post does not exist or was deleted.'));
    const comments = await ctx.store.comments.forPage(post.id);
    return send(reply, 200, layout(post.title, postPage(post, comments)));
  });
}
