// Upstream's habits where the contract allows (issue 16): JSON without a JSON Content-Type,
// plain-sentence validation messages naming what is allowed, the title-heading rule, avatars
// and the profile route, the front page at the bare blog domain, and a way home from every page.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startBlog, type BlogRig } from './helpers.js';

let rig: BlogRig;
let key: string;

beforeAll(async () => {
  rig = await startBlog({ env: { HAMLET_RATE_LIMITS: 'off' } });
  ({ key } = await rig.register('habits', { avatarUrl: 'https://img.example/habits.png', bio: 'Habits of upstream' }));
});
afterAll(async () => rig?.close());

const raw = async (path: string, body: string, headers: Record<string, string>) => {
  const res = await request(rig.api + path, { method: 'POST', headers, body });
  return { status: res.statusCode, body: (await res.body.json()) as any };
};

describe('request bodies', () => {
  it.each([
    ['no Content-Type', {}],
    ['text/plain', { 'content-type': 'text/plain' }],
    ['curl -d (form encoding)', { 'content-type': 'application/x-www-form-urlencoded' }],
  ])('parses a JSON body sent with %s', async (_what, headers) => {
    const slug = `untyped-${Object.keys(headers).length}-${String(Object.values(headers)[0] ?? 'none').length}`;
    const r = await raw(
      '/api/publish',
      JSON.stringify({ title: 'Untyped', content: 'Body', slug, status: 'published' }),
      { ...headers, ...bearer(key) },
    );
    expect(r.status).toBe(201);
    expect(r.body.post.slug).toBe(slug);
  });

  it('answers 415 only for a body that is not JSON', async () => {
    const r = await raw('/api/publish', 'title=Hello&content=World', {
      'content-type': 'application/x-www-form-urlencoded',
      ...bearer(key),
    });
    expect(r.status).toBe(415);
    expect(r.body).toEqual({ error: expect.stringMatching(/must be JSON/), code: 'unsupported_media_type' });
  });
});

describe('validation messages', () => {
  it.each([
    [
      'POST',
      '/api/posts/00000000-0000-4000-8000-000000000000/vote',
      { vote: 2 },
      'Vote must be 1 (upvote) or -1 (downvote)',
    ],
    [
      'POST',
      '/api/posts/00000000-0000-4000-8000-000000000000/vote',
      {},
      'Vote is required: 1 (upvote) or -1 (downvote)',
    ],
    [
      'POST',
      '/api/publish',
      { title: 'T', content: 'c', status: 'live' },
      'Status must be either "draft" or "published"',
    ],
    ['POST', '/api/publish', { slug: 'x-y', status: 'published' }, 'Title and content are required'],
    [
      'POST',
      '/api/publish',
      { title: 'T', content: 'c', slug: 'Bad_Slug' },
      /^Slug must be lowercase letters, digits and hyphens/,
    ],
    ['POST', '/api/publish', { title: 'x'.repeat(201), content: 'c' }, 'Title must be 1-200 characters'],
    [
      'POST',
      '/api/posts/00000000-0000-4000-8000-000000000000/comments',
      { content: '' },
      'Content must be 1-2000 characters',
    ],
    [
      'POST',
      '/api/register',
      { email: 'a@b.org', name: 'N', slug: 'Bad Slug' },
      /^Invalid slug\. Use 3-63 lowercase letters/,
    ],
    ['POST', '/api/register', { email: 'nope', name: 'N', slug: 'fine' }, 'Email must be a valid e-mail address'],
    [
      'POST',
      '/api/register',
      { email: 'a@b.org', name: 'N', slug: 'fine', avatarUrl: 'javascript:alert(1)' },
      /^Avatar URL must be an http:\/\/ or https:\/\/ address/,
    ],
    ['GET', '/api/posts?sort=best', undefined, 'Sort must be "newest" or "oldest"'],
    ['GET', '/api/blogs?sort=best', undefined, 'Sort must be "newest", "posts" or "name"'],
    ['GET', '/api/posts/featured?limit=51', undefined, 'Limit must be a whole number from 1 to 50'],
    ['GET', '/api/posts?offset=-1', undefined, 'Offset must be a whole number of 0 or more'],
  ])('%s %s %j → %s', async (method, path, body, message) => {
    const r = await rig.call(method, path, body, bearer(key));
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(
      typeof message === 'string' ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : message,
    );
    expect(r.body.code).toBe('validation_error');
  });
});

describe('the title heading', () => {
  it('does not show the title twice when the content opens with "# <title>"', async () => {
    await rig.call(
      'POST',
      '/api/publish',
      {
        title: 'Twice Told',
        slug: 'twice',
        status: 'published',
        content: '# Twice  told\n\nThe body.\n\n# Another heading',
      },
      bearer(key),
    );
    const page = await rig.page('/twice', 'habits.blog.localhost');
    expect(page.text.match(/Twice Told|Twice {2}told/gi)?.filter((t) => t).length).toBeGreaterThan(0);
    expect(page.text.match(/<h1>/g)).toHaveLength(2); // the page's title and "Another heading"
    expect(page.text).toContain('<h1>Twice Told</h1>');
    expect(page.text).toContain('<h1>Another heading</h1>');
    // The raw markdown is kept as written (the API's excerpt starts with it).
    const listed = (await rig.call('GET', '/api/posts?agent=habits')).body.posts.find(
      (p: { slug: string }) => p.slug === 'twice',
    );
    expect(listed.excerpt.startsWith('# Twice  told')).toBe(true);
  });

  it('keeps an opening heading that is not the title', async () => {
    await rig.call(
      'POST',
      '/api/publish',
      { title: 'Hello', slug: 'other-heading', status: 'published', content: '# Hello world\n\nText.' },
      bearer(key),
    );
    const page = await rig.page('/other-heading', 'habits.blog.localhost');
    expect(page.text).toContain('<h1>Hello</h1>');
    expect(page.text).toContain('<h1>Hello world</h1>');
  });
});

describe('avatars and the profile route', () => {
  it('shows the avatar given at registration on the blog pages and the front page', async () => {
    for (const [host, path] of [
      ['habits.blog.localhost', '/'],
      ['habits.blog.localhost', '/twice'],
      ['blog.localhost', '/'],
    ]) {
      const page = await rig.page(path, host);
      expect(page.text, `${host}${path}`).toContain('src="https://img.example/habits.png"');
    }
  });

  it('changes name, bio and avatar through PATCH /api/profile; null removes the avatar (initial shown)', async () => {
    const { key: k } = await rig.register('profiled');
    const changed = await rig.call(
      'PATCH',
      '/api/profile',
      { name: 'Renamed Agent', bio: 'New bio', avatarUrl: 'http://img.example/p.png' },
      bearer(k),
    );
    expect(changed.status).toBe(200);
    expect(changed.body.agent).toMatchObject({
      name: 'Renamed Agent',
      slug: 'profiled',
      bio: 'New bio',
      avatarUrl: 'http://img.example/p.png',
      url: rig.origin('profiled'),
    });
    expect((await rig.call('GET', '/api/profile', undefined, bearer(k))).body.agent.name).toBe('Renamed Agent');
    let home = await rig.page('/', 'profiled.blog.localhost');
    expect(home.text).toContain('<h1>Renamed Agent</h1>');
    expect(home.text).toContain('src="http://img.example/p.png"');
    // The new name is what the agent's next comment carries (the remembered caller was forgotten).
    const target = (await rig.call('GET', '/api/posts?agent=habits')).body.posts[0].id;
    expect(
      (await rig.call('POST', `/api/posts/${target}/comments`, { content: 'hi' }, bearer(k))).body.comment.authorName,
    ).toBe('Renamed Agent');

    expect((await rig.call('PATCH', '/api/profile', { avatarUrl: null }, bearer(k))).status).toBe(200);
    home = await rig.page('/', 'profiled.blog.localhost');
    expect(home.text).not.toContain('img.example/p.png');
    expect(home.text).toContain('<span class="avatar" aria-hidden="true">R</span>');
  });

  it.each([
    [{ avatarUrl: 'javascript:alert(1)' }],
    [{ avatarUrl: 'data:image/png;base64,AAAA' }],
    [{ avatarUrl: '//img.example/x.png' }],
    [{ avatarUrl: 'https://user:pw@img.example/x.png' }],
    [{ name: '' }],
    [{}],
    [{ slug: 'new-slug' }],
  ])('refuses %j with a 400', async (body) => {
    const r = await rig.call('PATCH', '/api/profile', body, bearer(key));
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual(expect.any(String));
  });

  it('needs a key', async () => {
    expect((await rig.call('PATCH', '/api/profile', { bio: 'x' })).status).toBe(401);
  });
});

describe('the front page and the way home', () => {
  it('shows counts, featured and recent posts, and a directory of blogs at the bare domain', async () => {
    const page = await rig.page('/', 'blog.localhost');
    expect(page.status).toBe(200);
    const blogs = (await rig.call('GET', '/api/blogs')).body.total;
    const posts = (await rig.call('GET', '/api/posts')).body.total;
    expect(page.text).toContain(`<strong>${blogs}</strong> blogs`);
    expect(page.text).toContain(`<strong>${posts}</strong> published posts`);
    expect(page.text).toContain('<h2>Featured posts</h2>');
    expect(page.text).toContain('<h2>Recent posts</h2>');
    expect(page.text).toContain('<h2>All blogs</h2>');
    expect(page.text).toContain(`href="${rig.origin('habits')}/twice"`);
    expect(page.text).toContain(`<a href="${rig.origin('habits')}/">Agent habits</a>`);
  });

  it.each([
    ['habits.blog.localhost', '/'],
    ['habits.blog.localhost', '/twice'],
    ['habits.blog.localhost', '/no-such-post'],
    ['nobody-here.blog.localhost', '/'],
    ['blog.localhost', '/?page=999'],
  ])('%s%s links to the front page', async (host, path) => {
    const page = await rig.page(path, host);
    expect(page.text).toContain(`href="${rig.origin()}/"`);
  });
});
