// The blogs as web pages: host routing (decision 11), rendering, sanitizing (decision 10),
// feeds, canonical and OpenGraph tags, caching headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startBlog, type BlogRig } from './helpers.js';

let rig: BlogRig;
let key: string;
const XSS = [
  '# Safe heading',
  '',
  'Some *text* with `code`.',
  '',
  '<script>window.pwned = 1</script>',
  '',
  '<img src="x" onerror="window.pwned = 2">',
  '',
  '[click](javascript:window.pwned=3)',
  '',
  '<a href="https://ok.example/" onclick="window.pwned=4" style="color:red">ok link</a>',
  '',
  '<iframe src="https://evil.example/"></iframe><form action="/x"><input></form><svg onload="x()"></svg>',
  '',
  '```js',
  'const answer = 42;',
  '```',
].join('\n');

beforeAll(async () => {
  rig = await startBlog();
  ({ key } = await rig.register('pager', { bio: 'I write <em>pages</em> & things' }));
  await rig.call(
    'POST',
    '/api/publish',
    { title: 'Danger & <Zone>', content: XSS, slug: 'danger', status: 'published' },
    bearer(key),
  );
  await rig.call('POST', '/api/publish', { title: 'Secret draft', content: 'nope', slug: 'secret' }, bearer(key));
  await rig.call('POST', '/api/register', { email: 'pending@example.org', name: 'Pending', slug: 'pending-one' });
});
afterAll(async () => rig?.close());

describe('host routing', () => {
  it('serves a blog home only for <slug>.<domain>, any port, any case', async () => {
    for (const host of ['pager.blog.localhost', 'pager.blog.localhost:4000', 'PAGER.Blog.LocalHost:80']) {
      const r = await rig.page('/', host);
      expect(r.status).toBe(200);
      expect(r.text).toContain('<title>Agent pager&#39;s Blog</title>');
    }
  });

  it.each([
    'a.pager.blog.localhost',
    'unknown-blog.blog.localhost',
    'pending-one.blog.localhost',
    'pa_ger.blog.localhost',
  ])('answers 404, with a way home, for host %s under the blog domain', async (host) => {
    const r = await rig.page('/', host);
    expect(r.status).toBe(404);
    expect(r.text).not.toContain('Agent pager');
    expect(r.text).toContain(`<a href="${rig.origin()}/">`);
  });

  it.each(['127.0.0.1', 'evil.com', 'pager.evil.com', 'pager.blog.localhost.evil.com'])(
    'shows only the API index at / for host %s outside the blog domain',
    async (host) => {
      const r = await rig.page('/', host);
      expect(r.status).toBe(200);
      expect(r.text).toContain('<h1>Hamlet blog API</h1>');
      expect(r.text).toContain('href="/api-docs"');
      expect(r.text).not.toContain('Agent pager');
      expect((await rig.page('/danger', host)).status).toBe(404);
    },
  );

  it('lists blogs on the platform host', async () => {
    for (const host of ['blog.localhost', 'www.blog.localhost:4000']) {
      const r = await rig.page('/', host);
      expect(r.status).toBe(200);
      expect(r.text).toContain(`${rig.origin('pager')}/`);
      expect(r.text).not.toContain('pending-one');
    }
    expect((await rig.page('/danger', 'blog.localhost')).status).toBe(404);
  });
});

describe('pages', () => {
  it('renders the blog home with name, bio (escaped), posts newest first and feed link', async () => {
    const r = await rig.page('/', 'pager.blog.localhost');
    expect(r.headers['content-type']).toMatch(/text\/html/);
    expect(r.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(r.text).toContain('I write &lt;em&gt;pages&lt;/em&gt; &amp; things');
    expect(r.text).toContain('href="/danger"');
    expect(r.text).not.toContain('Secret draft');
    expect(r.text).toContain(`<link rel="canonical" href="${rig.origin('pager')}/">`);
    expect(r.text).toContain('type="application/rss+xml"');
  });

  it('renders a post sanitized: no script, no handlers, no javascript: URLs, highlighted code', async () => {
    const r = await rig.page('/danger', 'pager.blog.localhost');
    expect(r.status).toBe(200);
    expect(r.text).toContain('<title>Danger &amp; &lt;Zone&gt; - Agent pager</title>');
    expect(r.text).toContain('<h1>Safe heading</h1>');
    expect(r.text).toContain('<em>text</em>');
    const body = r.text.slice(r.text.indexOf('<div class="post-body">'));
    expect(body).not.toMatch(/<script|onerror=|onclick=|onload=|href="javascript:|<iframe|<form|<svg|style=/i);
    expect(body).toContain('rel="nofollow ugc noopener"');
    expect(body).toContain('<span class="hljs-keyword">const</span>');
    expect(r.text).toContain('<meta property="og:type" content="article">');
    expect(r.text).toContain(`<link rel="canonical" href="${rig.origin('pager')}/danger">`);
    expect(r.text).toMatch(/Score: 0/);
  });

  it('shows votes and comments on the post page, comment text escaped', async () => {
    const { key: other } = await rig.register('commenter');
    const id = (await rig.call('GET', '/api/posts?agent=pager')).body.posts[0].id;
    await rig.call('POST', `/api/posts/${id}/vote`, { vote: 1 }, bearer(other));
    await rig.call('POST', `/api/posts/${id}/comments`, { content: '<b>bold?</b> no' }, bearer(other));
    const r = await rig.page('/danger', 'pager.blog.localhost');
    expect(r.text).toContain('Score: 1');
    expect(r.text).toContain('&lt;b&gt;bold?&lt;/b&gt; no');
    expect(r.text).toContain('Comments (1)');
  });

  it('gives drafts and unknown posts a 404 page', async () => {
    expect((await rig.page('/%00', 'pager.blog.localhost')).status).toBe(400);
    for (const path of ['/secret', '/nope', '/..%2f..%2fetc%2fpasswd']) {
      const r = await rig.page(path, 'pager.blog.localhost');
      expect(r.status).toBe(404);
      expect(r.headers['content-type']).toMatch(/text\/html/);
    }
    expect((await rig.page('/?page=abc', 'pager.blog.localhost')).status).toBe(400);
    expect((await rig.page('/?page=99', 'pager.blog.localhost')).status).toBe(404);
  });

  it('pages the blog home', async () => {
    const { key: k } = await rig.register('prolific');
    for (let i = 0; i < 22; i++)
      await rig.call('POST', '/api/publish', { title: `Post ${i}`, content: 'x', status: 'published' }, bearer(k));
    const first = await rig.page('/', 'prolific.blog.localhost');
    expect(first.text).toContain('href="?page=2"');
    expect((first.text.match(/class="card"/g) ?? []).length).toBe(20);
    const second = await rig.page('/?page=2', 'prolific.blog.localhost');
    expect((second.text.match(/class="card"/g) ?? []).length).toBe(2);
  });

  it('publishes an RSS feed with full HTML and a sitemap', async () => {
    const r = await rig.page('/rss.xml', 'pager.blog.localhost');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/application\/rss\+xml/);
    expect(r.text).toContain(`<link>${rig.origin('pager')}/danger</link>`);
    expect(r.text).toContain('<content:encoded><![CDATA[');
    expect(r.text).not.toContain('<script');
    expect((await rig.page('/feed', 'pager.blog.localhost')).text).toBe(r.text);
    const sm = await rig.page('/sitemap.xml', 'pager.blog.localhost');
    expect(sm.text).toContain(`<loc>${rig.origin('pager')}/danger</loc>`);
    expect((await rig.page('/robots.txt', 'pager.blog.localhost')).text).toContain(
      `Sitemap: ${rig.origin('pager')}/sitemap.xml`,
    );
  });

  it('answers 304 to a matching ETag and refreshes after a publish', async () => {
    const r = await rig.page('/', 'pager.blog.localhost');
    const etag = r.headers.etag as string;
    expect(etag).toMatch(/^W\//);
    expect((await rig.page('/', 'pager.blog.localhost', { 'if-none-match': etag })).status).toBe(304);
    await rig.call('POST', '/api/publish', { title: 'Fresh one', content: 'new', status: 'published' }, bearer(key));
    const after = await rig.page('/', 'pager.blog.localhost', { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.text).toContain('Fresh one');
  });
});
