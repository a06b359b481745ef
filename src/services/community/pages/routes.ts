// Web pages for people, at Moltbook's paths: the front page and a community's page (sorted
// hot/new/top/rising), the list of communities (/m), an agent's profile (/u/<name>), a post
// with its comment tree, and search. Server-rendered, no scripts, a strict Content-Security-Policy.
// Ranked listings come from the service's page cache (invalidated by every write that moves
// them); the rest is a few indexed reads per request.
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { isUuid } from '../../../platform/ids.js';
import type { App } from '../../../platform/http.js';
import { byClientAddress } from '../../../platform/ratelimit.js';
import { ALL_COMMUNITIES } from '../cache.js';
import type { Ctx } from '../context.js';
import { retryDetails } from '../limits.js';
import { PageQueries } from '../store/page-queries.js';
import type { PostFilter, PostSort } from '../store/posts.js';
import { messagePage, notFoundPage, pager, postList, withQuery } from './html.js';
import {
  allowedValues,
  choose,
  COMMUNITY_SORTS,
  communityListPage,
  communityPage,
  frontPage,
  listingHref,
  POST_SORTS,
} from './listing-pages.js';
import { postPage } from './post-page.js';
import { profilePage } from './profile-page.js';
import { SEARCH_KINDS, searchPage, type SearchResults } from './search-page.js';

const PAGE_SIZE = 25;
const RECENT_COMMENTS = 10;
const SEARCH_RESULTS = 20;
// Images: http(s) links in posts, and avatars/banners the service itself serves ('self').
const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https: http: data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
const Offset = Type.Integer({ minimum: 0, maximum: 100_000, default: 0 });
// Choices are checked by the route, so that a wrong one gets a page naming the allowed values.
const Choice = Type.Optional(Type.String({ maxLength: 32 }));
const ListQuery = Type.Object({ offset: Offset, sort: Choice });
const Name = Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) });

function send(reply: FastifyReply, status: number, html: string | Buffer) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('Content-Security-Policy', CSP)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'strict-origin-when-cross-origin')
    .send(html);
}

function badChoice(reply: FastifyReply, what: string, given: string, choices: ReadonlyArray<{ value: string }>) {
  return send(
    reply,
    400,
    messagePage('Bad request', `Unknown ${what} "${given}": choose one of ${allowedValues(choices)}.`),
  );
}

export function pageRoutes(app: App, ctx: Ctx) {
  const config = ctx.platform.limits.route('community_pages', '600/1m', {
    key: byClientAddress,
    description: 'web page views per client address',
    details: retryDetails,
  });
  const queries = new PageQueries(ctx.platform.db);

  /** One page of a ranked listing, as HTML: the posts and the pager links that keep the sort. */
  async function listing(sort: PostSort, filter: PostFilter, offset: number, path: string, showCommunity: boolean) {
    const rows = await ctx.store.posts.list(sort, filter, PAGE_SIZE, offset);
    const prev = offset > 0 ? listingHref(path, sort, Math.max(0, offset - PAGE_SIZE)) : undefined;
    const next = rows.length > PAGE_SIZE ? listingHref(path, sort, offset + PAGE_SIZE) : undefined;
    return postList(rows.slice(0, PAGE_SIZE), { showCommunity }) + pager(prev, next);
  }

  app.get('/', { schema: { hide: true, querystring: ListQuery }, config }, async (request, reply) => {
    const { offset } = request.query;
    const sort = choose(POST_SORTS, request.query.sort);
    if (!sort) return badChoice(reply, 'sort', request.query.sort!, POST_SORTS);
    const body = await ctx.cache.list(ALL_COMMUNITIES, `page|front|${sort}|${offset}`, async () =>
      frontPage(sort, await listing(sort, {}, offset, '/', true)),
    );
    return send(reply, 200, body);
  });

  app.get('/m', { schema: { hide: true, querystring: ListQuery }, config }, async (request, reply) => {
    const { offset } = request.query;
    const sort = choose(COMMUNITY_SORTS, request.query.sort);
    if (!sort) return badChoice(reply, 'sort', request.query.sort!, COMMUNITY_SORTS);
    const rows = await ctx.store.communities.list(sort, PAGE_SIZE, offset);
    const href = (o: number) => withQuery('/m', { sort: sort === 'popular' ? undefined : sort, offset: o });
    const links = pager(
      offset > 0 ? href(Math.max(0, offset - PAGE_SIZE)) : undefined,
      rows.length > PAGE_SIZE ? href(offset + PAGE_SIZE) : undefined,
      { prev: '← previous', next: 'more →' },
    );
    return send(reply, 200, communityListPage(rows.slice(0, PAGE_SIZE), sort, links));
  });

  app.get(
    '/m/:name',
    { schema: { hide: true, querystring: ListQuery, params: Name }, config },
    async (request, reply) => {
      const { offset } = request.query;
      const sort = choose(POST_SORTS, request.query.sort);
      if (!sort) return badChoice(reply, 'sort', request.query.sort!, POST_SORTS);
      const community = await ctx.store.communities.find(request.params.name);
      if (!community) return send(reply, 404, notFoundPage(`There is no community called "${request.params.name}".`));
      // Only the listing is cached: the header's counts move with subscriptions, which do not
      // invalidate listings.
      const list = await ctx.cache.list(community.id, `page|m|${sort}|${offset}`, () =>
        listing(sort, { communityId: community.id }, offset, `/m/${encodeURIComponent(community.name)}`, false),
      );
      return send(reply, 200, communityPage(community, sort, list.toString()));
    },
  );

  app.get(
    '/u/:name',
    { schema: { hide: true, querystring: Type.Object({ offset: Offset }), params: Name }, config },
    async (request, reply) => {
      const { offset } = request.query;
      const agent = await ctx.store.agents.byName(request.params.name);
      if (!agent) return send(reply, 404, notFoundPage(`There is no agent called "${request.params.name}".`));
      const [rows, comments] = await Promise.all([
        ctx.store.posts.list('new', { authorId: agent.id }, PAGE_SIZE, offset),
        offset > 0 ? [] : queries.recentCommentsOf(agent.id, RECENT_COMMENTS),
      ]);
      const path = `/u/${encodeURIComponent(agent.name)}`;
      const links = pager(
        offset > 0 ? withQuery(path, { offset: Math.max(0, offset - PAGE_SIZE) }) : undefined,
        rows.length > PAGE_SIZE ? withQuery(path, { offset: offset + PAGE_SIZE }) : undefined,
      );
      return send(reply, 200, profilePage(agent, rows.slice(0, PAGE_SIZE), comments, links, offset));
    },
  );

  app.get(
    '/search',
    {
      schema: {
        hide: true,
        querystring: Type.Object({ q: Type.Optional(Type.String({ maxLength: 200 })), type: Choice }),
      },
      config,
    },
    async (request, reply) => {
      const q = (request.query.q ?? '').trim();
      const kind = choose(SEARCH_KINDS, request.query.type);
      if (!kind) return badChoice(reply, 'type', request.query.type!, SEARCH_KINDS);
      const results: SearchResults = {};
      if (q) {
        const want = (k: typeof kind) => kind === 'all' || kind === k;
        const [posts, comments, agents, communities] = await Promise.all([
          want('posts') ? ctx.store.posts.search(q, SEARCH_RESULTS) : undefined,
          want('comments') ? queries.searchComments(q, SEARCH_RESULTS) : undefined,
          want('agents') ? ctx.store.agents.search(q, SEARCH_RESULTS) : undefined,
          want('communities') ? ctx.store.communities.search(q, SEARCH_RESULTS) : undefined,
        ]);
        Object.assign(results, { posts, comments, agents, communities });
      }
      return send(reply, 200, searchPage(q, kind, results));
    },
  );

  app.get(
    '/post/:id',
    { schema: { hide: true, params: Type.Object({ id: Type.String({ maxLength: 64 }) }) }, config },
    async (request, reply) => {
      const id = request.params.id;
      const post = isUuid(id) ? await ctx.store.posts.pageRow(id) : undefined;
      if (!post) return send(reply, 404, notFoundPage('This post does not exist or was deleted.'));
      const comments = await ctx.store.comments.forPage(post.id);
      return send(reply, 200, postPage(post, comments));
    },
  );
}
