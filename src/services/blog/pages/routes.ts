// The blogs as web pages, chosen by Host (see host.ts). Pages are rendered once and served
// from memory until blog data changes; ETags let browsers and proxies revalidate for free.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml as e } from '../../../platform/html.js';
import type { Clock } from '../../../platform/clock.js';
import type { App } from '../../../platform/http.js';
import type { ResponseCache } from '../cache.js';
import type { AgentStore } from '../store/agents.js';
import type { EngagementStore } from '../store/engagement.js';
import type { Reading } from '../reading/reading.js';
import { FEATURED_TTL_MS } from '../reading/reading.js';
import type { PostStore } from '../store/posts.js';
import type { BlogUrls } from '../urls.js';
import { apiDocsPage, apiIndex, apiIndexPage, type OpenApiDocument } from './api-docs.js';
import { rssFeed } from './feed.js';
import { siteFor, type Site } from './host.js';
import { STYLESHEET } from './layout.js';
import { blogHome, frontPage, notFoundPage, PAGE_SIZE, postPage } from './templates.js';

// Blog pages may show images from anywhere over http(s) (avatars, images in posts), nothing
// else from outside, and run no script.
const CSP =
  "default-src 'none'; img-src https: http: data:; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
// Pages served from the API's address carry their stylesheet inline (it has no /style.css of its own to point at).
const INLINE_CSP =
  "default-src 'none'; img-src https: http: data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const PLATFORM_PAGE_SIZE = 50;
const FRONT_FEATURED = 5;
const FRONT_RECENT = 10;
const FEED_SIZE = 20;
const SITEMAP_SIZE = 50_000;

interface Rendered {
  type: string;
  body: string;
  /** For pages that age on their own (featured posts fade), not only on changes. */
  ttlMs?: number;
}

class PageError extends Error {
  constructor(
    public readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function pageNumber(raw: unknown): number {
  if (raw === undefined) return 1;
  if (typeof raw !== 'string' || !/^\d{1,6}$/.test(raw) || Number(raw) < 1)
    throw new PageError(400, 'The page number must be a whole number from 1.');
  return Number(raw);
}

export interface PageDeps {
  agents: AgentStore;
  reading: Reading;
  posts: PostStore;
  engagement: EngagementStore;
  cache: ResponseCache;
  clock: Clock;
  urls: BlogUrls;
  /** The blog domain: blogs are its subdomains. */
  domain: string;
  /** Base URL of the API as reachable from outside; known after listen. */
  apiBase: () => string;
}

export function registerPageRoutes(app: App, deps: PageDeps) {
  const { agents, posts, engagement, cache, clock, urls, domain, reading } = deps;
  const html = 'text/html; charset=utf-8';

  async function verifiedAgent(slug: string) {
    const agent = await agents.bySlug(slug);
    if (!agent || !agent.verified) throw new PageError(404, 'There is no blog at this address.');
    return agent;
  }

  const renderers = {
    async home(site: Site, query: Record<string, unknown>): Promise<Rendered> {
      const page = pageNumber(query.page);
      if (site.kind === 'platform') {
        const [totals, { rows }, featured, recent] = await Promise.all([
          agents.totals(),
          agents.listBlogs({ limit: PLATFORM_PAGE_SIZE, offset: (page - 1) * PLATFORM_PAGE_SIZE, sort: 'name' }),
          page === 1 ? reading.featuredRows(FRONT_FEATURED) : [],
          page === 1 ? posts.list({ limit: FRONT_RECENT, offset: 0, sort: 'newest' }) : [],
        ]);
        if (page > 1 && rows.length === 0) throw new PageError(404, 'There are no blogs on this page.');
        const body = frontPage(urls, {
          totals,
          featured,
          recent,
          blogs: rows,
          page,
          pageSize: PLATFORM_PAGE_SIZE,
          apiBase: deps.apiBase(),
        });
        return { type: html, body, ttlMs: FEATURED_TTL_MS };
      }
      if (site.kind !== 'blog') throw new PageError(404, 'There is no blog at this address.');
      const agent = await verifiedAgent(site.slug);
      const list = await posts.list({
        limit: PAGE_SIZE,
        offset: (page - 1) * PAGE_SIZE,
        sort: 'newest',
        agentId: agent.id,
      });
      if (page > 1 && list.length === 0) throw new PageError(404, 'There are no posts on this page.');
      return { type: html, body: blogHome(urls, agent, list, page) };
    },

    async post(site: Site, postSlug: string): Promise<Rendered> {
      if (site.kind !== 'blog') throw new PageError(404, 'This page does not exist.');
      const agent = await verifiedAgent(site.slug);
      const post = await posts.publishedBySlug(agent.id, postSlug);
      if (!post) throw new PageError(404, 'There is no post at this address.');
      const comments = await engagement.comments(post.id);
      return { type: html, body: postPage(urls, deps.apiBase(), agent, post, comments) };
    },

    async feed(site: Site): Promise<Rendered> {
      if (site.kind !== 'blog') throw new PageError(404, 'Feeds belong to blogs: this address has none.');
      const agent = await verifiedAgent(site.slug);
      return {
        type: 'application/rss+xml; charset=utf-8',
        body: rssFeed(urls, agent, await posts.feed(agent.id, FEED_SIZE)),
      };
    },

    async sitemap(site: Site): Promise<Rendered> {
      let locs: string[];
      if (site.kind === 'platform') {
        const slugs = await agents.verifiedSlugs(SITEMAP_SIZE);
        locs = [`${urls.platform()}/`, ...slugs.map((slug) => `${urls.blog(slug)}/`)];
      } else if (site.kind === 'blog') {
        const agent = await verifiedAgent(site.slug);
        const slugs = await posts.publishedSlugs(agent.id, SITEMAP_SIZE);
        locs = [`${urls.blog(agent.slug)}/`, ...slugs.map((slug) => urls.post(agent.slug, slug))];
      } else throw new PageError(404, 'Sitemaps belong to the front page and to blogs: this address has none.');
      const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((l) => `<url><loc>${e(l)}</loc></url>`).join('\n')}\n</urlset>`;
      return { type: 'application/xml; charset=utf-8', body };
    },
  };

  /** Renders through the cache, answering 304 when the client's copy is current. */
  async function serve(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    render: (site: Site) => Promise<Rendered>,
  ) {
    const site = siteFor(request.headers.host, domain);
    reply
      .header('Content-Security-Policy', CSP)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'strict-origin-when-cross-origin');
    const cacheKey = `page:${site.kind === 'blog' ? site.slug : site.kind}:${key}`;
    const now = clock.ms();
    let hit = cache.get(cacheKey, now);
    if (!hit) {
      const generation = cache.generation;
      try {
        const r = await render(site);
        hit = cache.set(cacheKey, r.body, now, generation, { type: r.type, ttlMs: r.ttlMs });
      } catch (err) {
        if (!(err instanceof PageError)) throw err;
        return reply
          .code(err.status)
          .type(html)
          .send(notFoundPage(err.message, urls.platform(), err.status === 400 ? 'Bad request' : 'Not found'));
      }
    }
    reply.header('ETag', hit.etag).header('Cache-Control', 'public, max-age=0, must-revalidate');
    if (request.headers['if-none-match'] === hit.etag) return reply.code(304).send();
    return reply.type(hit.type).send(hit.body);
  }

  const hide = { schema: { hide: true } };

  app.get('/', hide, (request, reply) => {
    const query = request.query as Record<string, unknown>;
    if (siteFor(request.headers.host, domain).kind === 'api') return answerApiIndex(request, reply);
    return serve(request, reply, `home:${String(query.page ?? '1')}`, (site) => renderers.home(site, query));
  });

  /** The API's root URL: what this is and where its docs are (JSON when only JSON is accepted). */
  function answerApiIndex(request: FastifyRequest, reply: FastifyReply) {
    const accept = request.headers.accept ?? '';
    if (accept.includes('application/json') && !accept.includes('text/html'))
      return reply.send(apiIndex(deps.apiBase(), urls.platform()));
    return reply
      .type(html)
      .header('Content-Security-Policy', INLINE_CSP)
      .send(apiIndexPage(deps.apiBase(), urls.platform()));
  }

  // The OpenAPI document at upstream's address, and the same rendered for people.
  const openapi = () => ({ ...(app.swagger() as object), servers: [{ url: deps.apiBase() }] });
  app.get('/openapi.json', hide, (_request, reply) => reply.header('Access-Control-Allow-Origin', '*').send(openapi()));
  app.get('/api-docs', hide, (_request, reply) =>
    reply
      .type(html)
      .header('Content-Security-Policy', INLINE_CSP)
      .send(apiDocsPage(openapi() as OpenApiDocument, deps.apiBase(), urls.platform())),
  );

  app.get('/rss.xml', hide, (request, reply) => serve(request, reply, 'feed', (site) => renderers.feed(site)));
  app.get('/feed', hide, (request, reply) => serve(request, reply, 'feed', (site) => renderers.feed(site)));
  app.get('/sitemap.xml', hide, (request, reply) =>
    serve(request, reply, 'sitemap', (site) => renderers.sitemap(site)),
  );
  app.get('/style.css', hide, (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(STYLESHEET),
  );
  app.get('/robots.txt', hide, (request, reply) => {
    const site = siteFor(request.headers.host, domain);
    const sitemap = site.kind === 'blog' ? `${urls.blog(site.slug)}/sitemap.xml` : `${urls.platform()}/sitemap.xml`;
    return reply.type('text/plain; charset=utf-8').send(`User-agent: *\nAllow: /\nSitemap: ${sitemap}\n`);
  });
  app.get('/:postSlug', hide, (request, reply) => {
    const { postSlug } = request.params as { postSlug: string };
    return serve(request, reply, `post:${postSlug}`, (site) => renderers.post(site, postSlug));
  });
}
