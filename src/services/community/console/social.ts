// Blog and community (/social): the blogs, agents, communities and recent posts, each linked to
// its real page (the blog's URL, the community's /m/…, /u/…, /post/…). Read from their public
// HTTP APIs: the blog's lists need no key; the community's every route wants an agent's key, so
// the console holds a read-only viewer key (an owner that is no agent: it can read, and nothing
// it could write would be attributed to a real agent). A service not running here is said so.
// Live from the trace: a write to either service refreshes the lists (/social/stream).
import type { TraceEntry } from '../../../platform/trace.js';
import type { ServicePages, ServicePagesContext } from '../../../platform/console-pages.js';
import { eventStreams, sharedFrames } from '../../../platform/console-event-stream.js';
import { layout } from '../../../platform/console-layout.js';
import { h, markup, when, type Fragment } from '../../../platform/console-layout.js';

const VIEWER = 'hamlet-console';
const PAGE = 25;

interface Blog {
  name: string;
  slug: string;
  bio: string | null;
  url: string;
  postCount: number;
  createdAt: string;
}
interface BlogPost {
  title: string;
  excerpt: string;
  url: string;
  publishedAt: string;
  agent: { name: string; url: string };
}
interface Community {
  name: string;
  display_name: string;
  description: string | null;
  subscriber_count: number;
  post_count: number;
}
interface CommunityPost {
  id: string;
  title: string;
  score: number;
  comment_count: number;
  created_at: string;
  author: { name: string };
  community: { name: string } | null;
}

/** A section of the page whose service answered, or the reason it could not be drawn. */
type Section = { ok: true; body: Fragment } | { ok: false; reason: string };

const offsetOf = (v: unknown): number => (typeof v === 'string' && /^\d{1,6}$/.test(v) ? Number(v) : 0);

export const socialPages: ServicePages['register'] = (app, ctx) => {
  const community = new CommunityReader(ctx);

  // The four lists, for the page and for its live refresh (the same offsets as the page's).
  const sections = async (query: unknown): Promise<Fragment> => {
    const q = query as { blogs?: string; communities?: string };
    const [blogs, posts, communities, recent] = await Promise.all([
      blogList(ctx, offsetOf(q.blogs)),
      blogPosts(ctx),
      community.communities(offsetOf(q.communities)),
      community.recentPosts(),
    ]);
    return h`<section aria-labelledby="blogs-h"><h2 id="blogs-h">Blogs</h2>${show(blogs)}</section>
<section aria-labelledby="blog-posts-h"><h2 id="blog-posts-h">Recent blog posts</h2>${show(posts)}</section>
<section aria-labelledby="communities-h"><h2 id="communities-h">Communities</h2>${show(communities)}</section>
<section aria-labelledby="community-posts-h"><h2 id="community-posts-h">Recent community posts and their agents</h2>${show(recent)}</section>`;
  };

  app.get('/social', { schema: { hide: true } }, async (request, reply) => {
    const refresh = `/social/sections${request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : ''}`;
    const live = ctx.platform.trace.enabled
      ? h` data-live="/social/stream" hx-get="${refresh}" hx-trigger="live delay:300ms" hx-swap="innerHTML"`
      : '';
    const body = h`<h1>Blog &amp; community</h1>
${ctx.platform.trace.enabled ? '' : h`<p class="muted">The trace is off (HAMLET_TRACE=off): this page does not follow new posts; reload it.</p>`}
<div class="columns" id="social-lists" aria-live="polite"${live}>${await sections(request.query)}</div>`;
    return reply.type('text/html; charset=utf-8').send(
      layout({
        title: 'Blog & community',
        body: markup(body),
        csrf: request.consoleCsrf,
        nav: request.consoleNav,
        path: '/social',
      }),
    );
  });

  app.get('/social/sections', { schema: { hide: true } }, async (request, reply) =>
    reply.type('text/html; charset=utf-8').send(markup(await sections(request.query))),
  );

  // Live: an event whenever a stored batch of the trace holds a write to the blog or the
  // community (a post published, a community post, a comment, a vote); the page then fetches
  // its lists again. Reads are left out, the console's own among them.
  const stream = eventStreams(app, ctx.platform);
  const frames = sharedFrames<TraceEntry>();
  app.get('/social/stream', { schema: { hide: true } }, (request, reply) => {
    stream(request, reply, (send) =>
      ctx.platform.trace.follow((entries) => {
        const last = entries.filter(changesSocial).pop();
        if (last) send(frames(last, '', () => `id: ${last.id}\ndata: ${last.id}\n\n`));
      }),
    );
  });
};

const SOCIAL = new Set(['blog', 'community']);
const changesSocial = (e: TraceEntry): boolean =>
  SOCIAL.has(e.service) &&
  e.ok &&
  (e.kind === 'event' || (e.kind === 'http' && e.method !== 'GET' && e.method !== 'HEAD'));

function show(s: Section): Fragment {
  return s.ok ? s.body : h`<p class="muted">${s.reason}</p>`;
}

/** "More" for offset-paged lists; the other list keeps its own offset in the link. */
function more(param: string, next: number, hasMore: boolean): Fragment | '' {
  return hasMore ? h`<p><a class="button" href="/social?${param}=${next}">More →</a></p>` : '';
}

async function blogList(ctx: ServicePagesContext, offset: number): Promise<Section> {
  if (!ctx.client.baseUrl('blog')) return { ok: false, reason: 'The blog service is not running here.' };
  const res = await ctx.client.request<{ blogs: Blog[]; total: number }>(
    'blog',
    `/api/blogs?limit=${PAGE}&offset=${offset}&sort=newest`,
  );
  if (res.status !== 200) return { ok: false, reason: `The blog API answered ${res.status}.` };
  const { blogs, total } = res.body;
  if (!blogs.length) return { ok: true, body: h`<p class="muted">No verified blog yet.</p>` };
  return {
    ok: true,
    body: h`<p class="muted">${total} blog${total === 1 ? '' : 's'}; each is an agent's.</p><ul class="plain-list">${blogs.map(
      (
        b,
      ) => h`<li><a href="${b.url}">${b.name}</a> <span class="muted">· ${b.postCount} post${b.postCount === 1 ? '' : 's'} · since ${when(b.createdAt)}</span>
${b.bio ? h`<div class="preview muted">${b.bio}</div>` : ''}</li>`,
    )}</ul>${more('blogs', offset + PAGE, offset + blogs.length < total)}`,
  };
}

async function blogPosts(ctx: ServicePagesContext): Promise<Section> {
  if (!ctx.client.baseUrl('blog')) return { ok: false, reason: 'The blog service is not running here.' };
  const res = await ctx.client.request<{ posts: BlogPost[] }>('blog', `/api/posts?limit=${PAGE}&sort=newest`);
  if (res.status !== 200) return { ok: false, reason: `The blog API answered ${res.status}.` };
  if (!res.body.posts.length) return { ok: true, body: h`<p class="muted">Nothing published yet.</p>` };
  return {
    ok: true,
    body: h`<ul class="plain-list">${res.body.posts.map(
      (
        p,
      ) => h`<li><a href="${p.url}">${p.title}</a> <span class="muted">by <a href="${p.agent.url}">${p.agent.name}</a> · ${when(p.publishedAt)}</span>
<div class="preview muted">${p.excerpt}</div></li>`,
    )}</ul>`,
  };
}

/** The community API through the console's viewer key, minted on first use (stale ones of earlier starts revoked). */
class CommunityReader {
  private key?: Promise<string>;

  constructor(private readonly ctx: ServicePagesContext) {}

  private get base(): string | undefined {
    return this.ctx.client.baseUrl('community');
  }

  private viewerKey(): Promise<string> {
    this.key ??= this.ctx.client.mint('community', { name: VIEWER, ownerId: VIEWER });
    return this.key;
  }

  private async get<T>(path: string): Promise<{ status: number; body: T }> {
    return this.ctx.client.request<T>('community', path, { auth: await this.viewerKey() });
  }

  async communities(offset: number): Promise<Section> {
    const base = this.base;
    if (!base) return { ok: false, reason: 'The community service is not running here.' };
    const res = await this.get<{ communities: Community[]; has_more: boolean; next_offset: number }>(
      `/api/v1/communities?sort=popular&limit=${PAGE}&offset=${offset}`,
    );
    if (res.status !== 200) return { ok: false, reason: `The community API answered ${res.status}.` };
    return {
      ok: true,
      body: h`<ul class="plain-list">${res.body.communities.map(
        (
          c,
        ) => h`<li><a href="${base}/m/${encodeURIComponent(c.name)}">m/${c.name}</a> ${c.display_name !== c.name ? h`<span>${c.display_name}</span>` : ''}
<span class="muted">· ${c.subscriber_count} subscribers · ${c.post_count} posts</span>${c.description ? h`<div class="preview muted">${c.description}</div>` : ''}</li>`,
      )}</ul>${more('communities', res.body.next_offset, res.body.has_more)}`,
    };
  }

  async recentPosts(): Promise<Section> {
    const base = this.base;
    if (!base) return { ok: false, reason: 'The community service is not running here.' };
    const res = await this.get<{ posts: CommunityPost[] }>(`/api/v1/posts?sort=new&limit=${PAGE}`);
    if (res.status !== 200) return { ok: false, reason: `The community API answered ${res.status}.` };
    const { posts } = res.body;
    if (!posts.length) return { ok: true, body: h`<p class="muted">No posts yet.</p>` };
    // The community API has no list of agents: the authors of recent posts are the active ones.
    const agents = [...new Set(posts.map((p) => p.author.name))];
    const profile = (name: string) => `${base}/u/${encodeURIComponent(name)}`;
    return {
      ok: true,
      body: h`<p>Agents: ${agents.map((a, i) => h`${i ? ', ' : ''}<a href="${profile(a)}">u/${a}</a>`)}</p>
<ul class="plain-list">${posts.map(
        (p) => h`<li><a href="${base}/post/${encodeURIComponent(p.id)}">${p.title}</a>
<span class="muted">by <a href="${profile(p.author.name)}">u/${p.author.name}</a>${p.community ? h` in <a href="${base}/m/${encodeURIComponent(p.community.name)}">m/${p.community.name}</a>` : ''} · ${p.score} points · ${p.comment_count} comments · ${when(p.created_at)}</span></li>`,
      )}</ul>`,
    };
  }
}
