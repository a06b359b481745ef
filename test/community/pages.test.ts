// The web pages: front page and community page with sort tabs, the community list, agent
// profiles, search, and the post page with its comment tree; user text rendered from markdown
// and sanitized, everything else escaped; OpenGraph tags, links between the pages, dark mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommunity, type Community } from './helpers.js';

let c: Community;
let post: any;
let link: any;
let older: any;
let newer: any;
let styled: any;

beforeAll(async () => {
  c = await startCommunity();
  const a = await c.register('pager');
  const b = await c.register('reader');
  await c.call('POST', '/api/v1/communities', {
    key: a.key,
    body: { name: 'pages', display_name: 'Pages <b>&</b> Co', description: '<img src=x onerror=alert(1)>' },
  });
  post = await c.createPost(a.key, 'pages', '<script>alert("title")</script> Hello', {
    community_id: undefined,
    submolt: 'pages',
    content:
      '**bold** and <script>alert(1)</script> and [bad](javascript:alert(2)) and <a href="https://ok.example" onclick="x()">ok</a>',
  });
  link = await c.createPost(b.key, 'pages', 'A link', {
    community_id: undefined,
    submolt: 'pages',
    content: undefined,
    url: 'https://example.com/a?b="c"',
  });
  const top = (
    await c.call('POST', `/api/v1/posts/${post.id}/comments`, {
      key: b.key,
      body: { content: 'I *agree* <iframe src="https://evil"></iframe>' },
    })
  ).body.comment;
  await c.call('POST', `/api/v1/posts/${post.id}/comments`, {
    key: a.key,
    body: { content: 'thanks, <u>reader</u>', parent_id: top.id },
  });

  // Two posts whose order differs by sort: the older one is upvoted twice, the newer one not.
  const s = await c.register('sorter');
  const sorting = (await c.createCommunity(s.key, 'sorting')).id;
  older = await c.createPost(s.key, sorting, 'Older but upvoted');
  newer = await c.createPost(s.key, sorting, 'Newer and unvoted');
  for (const voter of [a, b])
    expect((await c.call('POST', `/api/v1/posts/${older.id}/upvote`, { key: voter.key })).status).toBe(200);
  await c.call('POST', `/api/v1/posts/${newer.id}/comments`, {
    key: a.key,
    body: { content: 'A remark about **sorting** by pager' },
  });
  styled = await c.createPost(s.key, sorting, 'Code and tables', {
    content: [
      '```ts',
      'const answer: number = 42;',
      '```',
      '',
      '| name | karma |',
      '| --- | ---: |',
      '| sorter | 2 |',
    ].join('\n'),
  });
});
afterAll(async () => {
  await c.t.destroy();
});

const page = async (path: string) => {
  const res = await fetch(c.base + path);
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    csp: res.headers.get('content-security-policy'),
    html: await res.text(),
  };
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
    expect(r.html).toContain('<h1>Hot posts</h1>');
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

const order = (html: string, ...titles: string[]) => titles.map((t) => html.indexOf(t));
const current = (html: string) =>
  /<nav class="tabs"[^>]*>.*?<a href="([^"]*)" aria-current="page">([^<]*)<\/a>/s.exec(html)?.slice(1);

describe('sort tabs', () => {
  it('each sort of the front page has its own heading, marked tab and order', async () => {
    for (const [sort, heading] of [
      ['hot', 'Hot posts'],
      ['new', 'New posts'],
      ['top', 'Top posts'],
      ['rising', 'Rising posts'],
    ]) {
      const r = await page(`/?sort=${sort}`);
      expect(r.status).toBe(200);
      expect(r.html).toContain(`<h1>${heading}</h1>`);
      for (const other of ['Hot posts', 'New posts', 'Top posts', 'Rising posts'].filter((h) => h !== heading))
        expect(r.html).not.toContain(other);
      expect(current(r.html)).toEqual([sort === 'hot' ? '/' : `/?sort=${sort}`, sort[0].toUpperCase() + sort.slice(1)]);
      for (const s of ['new', 'top', 'rising']) expect(r.html).toContain(`href="/?sort=${s}"`);
    }
    const [o, n] = order((await page('/?sort=new')).html, 'Older but upvoted', 'Newer and unvoted');
    expect(n).toBeGreaterThan(-1);
    expect(n).toBeLessThan(o);
    const [o2, n2] = order((await page('/?sort=top')).html, 'Older but upvoted', 'Newer and unvoted');
    expect(o2).toBeGreaterThan(-1);
    expect(o2).toBeLessThan(n2);
  });

  it('a community page sorts too, and its heading follows the sort', async () => {
    const r = await page('/m/sorting?sort=new');
    expect(r.status).toBe(200);
    expect(r.html).toContain('<h2>New posts</h2>');
    expect(r.html).not.toContain('Hot posts');
    expect(current(r.html)).toEqual(['/m/sorting?sort=new', 'New']);
    const [o, n] = order(r.html, 'Older but upvoted', 'Newer and unvoted');
    expect(n).toBeLessThan(o);
    const top = await page('/m/sorting?sort=top');
    expect(top.html).toContain('<h2>Top posts</h2>');
    const [o2, n2] = order(top.html, 'Older but upvoted', 'Newer and unvoted');
    expect(o2).toBeLessThan(n2);
    expect((await page('/m/sorting')).html).toContain('<h2>Hot posts</h2>');
  });

  it('an unknown sort is a 400 page naming the allowed values', async () => {
    for (const path of ['/?sort=best', '/m/sorting?sort=%3Cb%3E', '/m?sort=hot']) {
      const r = await page(path);
      expect(r.status).toBe(400);
      expect(r.type).toBe('text/html; charset=utf-8');
      expect(r.html).not.toContain('<b>');
    }
    expect((await page('/?sort=best')).html).toContain('choose one of hot, new, top, rising');
    expect((await page('/m?sort=hot')).html).toContain('choose one of popular, new, alphabetical');
  });

  it('the pager keeps the sort', async () => {
    const a = await c.register('prolific');
    const many = (await c.createCommunity(a.key, 'many')).id;
    for (let i = 0; i < 26; i++) await c.createPost(a.key, many, `Many ${i}`);
    const r = await page('/m/many?sort=new');
    expect(r.html).toContain('href="/m/many?sort=new&amp;offset=25"');
    const second = await page('/m/many?sort=new&offset=25');
    expect(second.html).toContain('Many 0');
    expect(second.html).toContain('href="/m/many?sort=new"');
  });
});

describe('community list', () => {
  it('/m lists every community with its counts and links to each', async () => {
    const r = await page('/m');
    expect(r.status).toBe(200);
    expect(r.html).toContain('<h1>Communities</h1>');
    expect(r.html).toContain('href="/m/sorting"');
    expect(r.html).toContain('href="/m/pages"');
    expect(r.html).toContain('Pages &lt;b&gt;&amp;&lt;/b&gt; Co');
    expect(r.html).not.toContain('<img src=x');
    const alpha = await page('/m?sort=alphabetical');
    expect(current(alpha.html)).toEqual(['/m?sort=alphabetical', 'A–Z']);
    const [p, s] = order(alpha.html, 'href="/m/pages"', 'href="/m/sorting"');
    expect(p).toBeLessThan(s);
  });
});

describe('profiles', () => {
  it('/u/<agent> shows karma, counts, posts and recent comments, with links', async () => {
    const r = await page('/u/sorter');
    expect(r.status).toBe(200);
    expect(r.html).toContain('u/sorter');
    expect(r.html).toContain('<b class="karma">2</b> karma');
    expect(r.html).toContain(`href="/post/${older.id}"`);
    expect(r.html).toContain('Newer and unvoted');
    expect(r.html).toContain('property="og:type" content="profile"');
    const pager = await page('/u/pager');
    expect(pager.html).toContain('Recent comments');
    expect(pager.html).toMatch(new RegExp(`href="/post/${newer.id}#c-[0-9a-f-]+">Newer and unvoted</a>`));
    expect(pager.html).toContain('A remark about sorting by pager');
    expect(pager.html).not.toContain('<u>reader</u>');
  });

  it('author names link to profiles on every listing and in comment trees', async () => {
    expect((await page('/')).html).toContain('href="/u/sorter"');
    expect((await page('/m/sorting')).html).toContain('href="/u/sorter"');
    const p = await page(`/post/${post.id}`);
    expect(p.html).toContain('class="author" href="/u/pager"');
    expect(p.html).toContain('class="author" href="/u/reader"');
    expect(p.html).toContain('href="/m/pages"');
  });

  it('an unknown agent is a 404 page', async () => {
    const r = await page('/u/nobody-at-all');
    expect(r.status).toBe(404);
    expect(r.html).toContain('Not found');
  });
});

describe('search page', () => {
  it('finds posts, comments, agents and communities, and links to each', async () => {
    const r = await page('/search?q=sort');
    expect(r.status).toBe(200);
    expect(r.html).toContain('Results for “sort”');
    expect(r.html).toContain('href="/m/sorting"');
    expect(r.html).toContain('href="/u/sorter"');
    // The styled post's table names the agent "sorter".
    expect(r.html).toContain(`href="/post/${styled.id}"`);
    expect(r.html).toMatch(
      new RegExp(
        `<a class="author" href="/u/pager">pager</a> on <a href="/post/${newer.id}#c-[0-9a-f-]+">Newer and unvoted</a>`,
      ),
    );
    expect(r.html).toContain('A remark about sorting by pager');
    expect((await page('/search?q=upvoted&type=posts')).html).toContain(`href="/post/${older.id}"`);
  });

  it('type= narrows the results to one kind', async () => {
    const r = await page('/search?q=sort&type=agents');
    expect(r.html).toContain('href="/u/sorter"');
    expect(r.html).not.toContain(`href="/post/${styled.id}"`);
    expect(r.html).not.toContain('<h2>Communities</h2>');
    expect(current(r.html)).toEqual(['/search?q=sort&amp;type=agents', 'Agents']);
    expect((await page('/search?q=sort&type=people')).status).toBe(400);
  });

  it('an empty query shows the form; the query is escaped; nothing matches is said', async () => {
    const empty = await page('/search');
    expect(empty.status).toBe(200);
    expect(empty.html).toContain('name="q"');
    const xss = await page('/search?q=' + encodeURIComponent('"><script>alert(1)</script>'));
    expect(xss.html).not.toContain('<script>');
    expect(xss.html).toContain('&quot;&gt;&lt;script&gt;');
    expect(xss.html).toContain('No posts match.');
    expect((await page('/search?q=' + 'x'.repeat(201))).status).toBe(400);
    // LIKE wildcards in the query match literally.
    expect((await page('/search?q=%25&type=agents')).html).toContain('No agents match.');
    expect((await page('/search?q=_&type=communities')).html).toContain('No communities match.');
  });
});

describe('presentation', () => {
  it('pages carry OpenGraph tags describing them', async () => {
    const r = await page(`/post/${post.id}`);
    expect(r.html).toContain('<meta property="og:type" content="article">');
    expect(r.html).toContain(
      '<meta property="og:title" content="&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt; Hello">',
    );
    expect(r.html).toMatch(/<meta property="og:description" content="bold and [^"]*ok">/);
    expect(r.html).toContain('<meta property="og:site_name" content="Hamlet community">');
    const m = await page('/m/sorting');
    expect(m.html).toContain('<meta property="og:description" content="About sorting">');
  });

  it('code blocks and tables are rendered and styled', async () => {
    const r = await page(`/post/${styled.id}`);
    expect(r.html).toContain('<pre><code class="hljs language-ts"><span class="hljs-keyword">const</span>');
    expect(r.html).toMatch(/<table>\s*<thead>\s*<tr>\s*<th>name<\/th>/);
    expect(r.html).toContain('.content table{');
    expect(r.html).toContain('.content pre{');
    expect(r.html).toContain('.hljs-keyword');
  });

  it('dark mode follows the system setting without any script; every page links to the others', async () => {
    for (const path of ['/', '/m', '/m/sorting', '/u/sorter', '/search?q=x', `/post/${post.id}`]) {
      const r = await page(path);
      expect(r.html).toContain('@media (prefers-color-scheme:dark)');
      expect(r.html).toContain('<meta name="color-scheme" content="light dark">');
      expect(r.html).toContain('<meta name="viewport" content="width=device-width,initial-scale=1">');
      expect(r.html).not.toMatch(/<script/i);
      for (const href of ['href="/"', 'href="/m"', 'href="/search"', 'action="/search"'])
        expect(r.html).toContain(href);
    }
  });

  it('an uploaded avatar and banner are shown on the profile, the community page, the list and search, and load', async () => {
    const PNG = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    );
    const upload = async (path: string, key: string, fields: Record<string, string> = {}) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(PNG)]), 'a.png');
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      const res = await fetch(c.base + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: form,
      });
      expect(res.status, await res.clone().text()).toBe(200);
    };
    const painter = await c.register('painter');
    await c.createCommunity(painter.key, 'gallery');
    await upload('/api/v1/agents/me/avatar', painter.key);
    await upload('/api/v1/submolts/gallery/settings', painter.key, { type: 'avatar' });
    await upload('/api/v1/submolts/gallery/settings', painter.key, { type: 'banner' });
    const agentImg = /<img class="avatar large" src="(\/media\/agents\/painter\/avatar\?v=[^"]+)"/;
    const profile = (await page('/u/painter')).html;
    expect(profile).toMatch(agentImg);
    const community = (await page('/m/gallery')).html;
    expect(community).toMatch(/<img class="banner" src="\/media\/communities\/gallery\/banner\?v=[^"]+"/);
    expect(community).toMatch(/<img class="avatar large" src="\/media\/communities\/gallery\/avatar\?v=[^"]+"/);
    expect((await page('/m')).html).toMatch(/src="\/media\/communities\/gallery\/avatar\?v=/);
    expect((await page('/search?q=painter&type=agents')).html).toMatch(/src="\/media\/agents\/painter\/avatar\?v=/);
    const img = await fetch(c.base + agentImg.exec(profile)![1].replace(/&amp;/g, '&'));
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
  });
});
