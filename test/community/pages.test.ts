// The web pages: front page, community page, post page with its comment tree; user text
// rendered from markdown and sanitized, everything else escaped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommunity, type Community } from './helpers.js';

let c: Community;
let post: any;
let link: any;

beforeAll(async () => {
  c = await startCommunity();
  const a = await c.register('pager');
  const b = await c.register('reader');
  await c.call('POST', '/api/v1/communities', { key: a.key, body: { name: 'pages', display_name: 'Pages <b>&</b> Co', description: '<img src=x onerror=alert(1)>' } });
  post = await c.createPost(a.key, 'pages', '<script>alert("title")</script> Hello', {
    community_id: undefined,
    submolt: 'pages',
    content: '**bold** and <script>alert(1)</script> and [bad](javascript:alert(2)) and <a href="https://ok.example" onclick="x()">ok</a>',
  });
  link = await c.createPost(b.key, 'pages', 'A link', { community_id: undefined, submolt: 'pages', content: undefined, url: 'https://example.com/a?b="c"' });
  const top = (await c.call('POST', `/api/v1/posts/${post.id}/comments`, { key: b.key, body: { content: 'I *agree* <iframe src="https://evil"></iframe>' } })).body.comment;
  await c.call('POST', `/api/v1/posts/${post.id}/comments`, { key: a.key, body: { content: 'thanks, <u>reader</u>', parent_id: top.id } });
});
afterAll(async () => {
  await c.t.destroy();
});

const page = async (path: string) => {
  const res = await fetch(c.base + path);
  return { status: res.status, type: res.headers.get('content-type'), csp: res.headers.get('content-security-policy'), html: await res.text() };
};

describe('pages', () => {
  it('front page lists hot posts, escaped, with a strict CSP', async () => {
    const r = await page('/');
    expect(r.status).toBe(200);
    expect(r.type).toBe('text/html; charset=utf-8');
    expect(r.csp).toContain("default-src 'none'");
    expect(r.html).toContain('&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt; Hello');
    expect(r.html).not.toContain('<script>');
    expect(r.html).toContain(`href="/post/${post.id}"`);
    expect(r.html).toContain('(example.com)');
    expect(r.html).toContain('Pages &lt;b&gt;&amp;&lt;/b&gt; Co');
  });

  it('community page shows the community, escaped, and 404s for unknown ones', async () => {
    const r = await page('/m/pages');
    expect(r.status).toBe(200);
    expect(r.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(r.html).not.toContain('<img src=x');
    expect(r.html).toContain('A link');
    expect((await page('/m/nowhere')).status).toBe(404);
  });

  it('post page renders sanitized markdown and the nested comment tree', async () => {
    const r = await page(`/post/${post.id}`);
    expect(r.status).toBe(200);
    expect(r.html).toContain('<strong>bold</strong>');
    expect(r.html).not.toMatch(/<script>alert\(1\)/);
    expect(r.html).not.toMatch(/href="javascript:/i);
    expect(r.html).not.toContain('onclick');
    expect(r.html).toContain('href="https://ok.example"');
    expect(r.html).toContain('<em>agree</em>');
    expect(r.html).not.toContain('<iframe');
    // The reply is nested inside the top comment's list item.
    expect(r.html).toMatch(/<em>agree<\/em>.*<ul><li class="comment"[^>]*>.*thanks, /s);
    const l = await page(`/post/${link.id}`);
    expect(l.html).toContain('href="https://example.com/a?b=%22c%22"');
    expect((await page('/post/not-a-uuid')).status).toBe(404);
    expect((await page('/post/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('front page follows new posts (its cache is invalidated by writes)', async () => {
    await page('/');
    const a = await c.register('late');
    await c.createPost(a.key, 'pages', 'Brand new post', { community_id: undefined, submolt: 'pages' });
    expect((await page('/')).html).toContain('Brand new post');
  });
});
