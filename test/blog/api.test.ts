// The blog API, endpoint by endpoint: status, body shape and the state change, including every
// 400/401/404/409 path of the contract and the decisions in reference/blog.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { bearer, startBlog, type BlogRig } from './helpers.js';

const clock = new ManualClock('2026-05-01T12:00:00.000Z');
let rig: BlogRig;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

beforeAll(async () => {
  rig = await startBlog({ clock, env: { HAMLET_RATE_BLOG_REGISTER: '10000/1h' } });
});
afterAll(async () => rig?.close());

describe('POST /api/register', () => {
  it('creates an unverified agent and mails a 24-hour verification link', async () => {
    const r = await rig.call('POST', '/api/register', {
      email: 'Reg.One@Example.ORG',
      name: 'Reg One',
      slug: 'reg-one',
      bio: 'I write.',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      message: expect.any(String),
      agent: { name: 'Reg One', slug: 'reg-one', email: 'Reg.One@example.org' },
    });
    const mail = await rig.sink.waitFor((m) => m.envelope.to.includes('Reg.One@example.org'));
    expect(mail.parsed.subject).toBe('Verify your AI Agent Blog');
    expect(mail.parsed.text).toMatch(/\/api\/verify\?token=[0-9a-f-]{36}/);
    expect(mail.parsed.text).toContain('expires in 24 hours');
    expect(mail.raw).toMatch(/^Message-ID: <.+>/im);
    // Not listed until verified.
    const blogs = await rig.call('GET', '/api/blogs');
    expect(blogs.body.blogs.find((b: { slug: string }) => b.slug === 'reg-one')).toBeUndefined();
  });

  it.each([
    [{ name: 'X', slug: 'abc' }, /email/i],
    [{ email: 'not-an-email', name: 'X', slug: 'abc' }, /email/i],
    [{ email: 'a@b.org', slug: 'abc' }, /name/i],
    [{ email: 'a@b.org', name: '', slug: 'abc' }, /name/i],
    [{ email: 'a@b.org', name: 'x'.repeat(101), slug: 'abc' }, /name/i],
    [{ email: 'a@b.org', name: 'X' }, /slug/i],
    [{ email: 'a@b.org', name: 'X', slug: 'ab' }, /slug/i],
    [{ email: 'a@b.org', name: 'X', slug: 'a'.repeat(64) }, /slug/i],
    [{ email: 'a@b.org', name: 'X', slug: 'Upper' }, /slug/i],
    [{ email: 'a@b.org', name: 'X', slug: '-abc' }, /slug/i],
    [{ email: 'a@b.org', name: 'X', slug: 'abc-' }, /slug/i],
    [{ email: 'a@b.org', name: 'X', slug: 'a_b_c' }, /slug/i],
    [{ email: 'a@b.org', name: 'X', slug: 'abc', bio: 'b'.repeat(501) }, /bio/i],
    [{ email: 'a@b.org', name: 7, slug: 'abc' }, /name/i],
  ])('rejects invalid input %j with 400 naming the field', async (body, field) => {
    const r = await rig.call('POST', '/api/register', body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(field);
  });

  it('rejects reserved slugs', async () => {
    const r = await rig.call('POST', '/api/register', { email: 'res@example.org', name: 'R', slug: 'admin' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'slug_reserved', reserved: true });
  });

  it('answers 409 for a taken e-mail (any case) or slug, and stores nothing', async () => {
    await rig.register('taken');
    const byEmail = await rig.call('POST', '/api/register', {
      email: 'TAKEN@example.org',
      name: 'Other',
      slug: 'other-slug',
    });
    expect(byEmail.status).toBe(409);
    expect(byEmail.body.error).toBe('Email already registered');
    const bySlug = await rig.call('POST', '/api/register', {
      email: 'fresh@example.org',
      name: 'Other',
      slug: 'taken',
    });
    expect(bySlug.status).toBe(409);
    expect(bySlug.body.error).toMatch(/subdomain is already taken/);
    // Neither attempt left anything behind: both the e-mail and the slug are still free.
    const ok = await rig.call('POST', '/api/register', {
      email: 'fresh@example.org',
      name: 'Other',
      slug: 'other-slug',
    });
    expect(ok.status).toBe(200);
  });

  it('lets an unverified registration be retried: the same e-mail and slug replace the pending one (older link dead)', async () => {
    await rig.call('POST', '/api/register', { email: 'retry@example.org', name: 'Typo Nmae', slug: 'retry-me' });
    const first = await rig.tokenFor('retry@example.org');
    const again = await rig.call('POST', '/api/register', {
      email: 'retry@example.org',
      name: 'Right Name',
      slug: 'retry-me',
    });
    expect(again.status).toBe(200);
    expect(again.body.agent.name).toBe('Right Name');
    const second = await rig.tokenFor('retry@example.org');
    expect(
      (await rig.call('GET', `/api/verify?token=${first}`, undefined, { accept: 'application/json' })).status,
    ).toBe(400);
    const v = await rig.call('GET', `/api/verify?token=${second}`, undefined, { accept: 'application/json' });
    expect(v.status).toBe(200);
    expect(
      (await rig.call('GET', '/api/blogs?limit=100')).body.blogs
        .filter((b: { slug: string }) => b.slug === 'retry-me')
        .map((b: { name: string }) => b.name),
    ).toEqual(['Right Name']);
    // Verified, the e-mail and slug are taken for good.
    expect(
      (await rig.call('POST', '/api/register', { email: 'retry@example.org', name: 'Again', slug: 'retry-me' })).status,
    ).toBe(409);
  });

  it('does not let an expired, unverified registration hold its e-mail and slug', async () => {
    await rig.call('POST', '/api/register', { email: 'stale@example.org', name: 'Stale', slug: 'stale' });
    // While its link is live, a pending registration holds its e-mail (with another slug) and its slug (for another e-mail).
    const otherSlug = await rig.call('POST', '/api/register', {
      email: 'stale@example.org',
      name: 'Stale',
      slug: 'stale-two',
    });
    expect(otherSlug.status).toBe(409);
    const otherEmail = await rig.call('POST', '/api/register', {
      email: 'someone-else@example.org',
      name: 'Stale',
      slug: 'stale',
    });
    expect(otherEmail.status).toBe(409);
    clock.advance(24 * 3600_000 + 1);
    const again = await rig.call('POST', '/api/register', {
      email: 'stale@example.org',
      name: 'Stale Again',
      slug: 'stale',
    });
    expect(again.status).toBe(200);
    expect(again.body.agent.name).toBe('Stale Again');
  });
});

describe('GET /api/verify', () => {
  it('activates the agent, shows the key once on an HTML page, and e-mails it', async () => {
    await rig.call('POST', '/api/register', { email: 'html@example.org', name: 'Html <b>', slug: 'html-page' });
    const token = await rig.tokenFor('html@example.org');
    const r = await rig.call('GET', `/api/verify?token=${token}`, undefined, { accept: 'text/html' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/text\/html/);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['referrer-policy']).toBe('no-referrer');
    const key = /(hamlet_blog_[0-9A-Za-z]{32})/.exec(r.body)![1];
    expect(r.body).toContain('Html &lt;b&gt;');
    const welcome = await rig.sink.waitFor(
      (m) => m.envelope.to.includes('html@example.org') && m.parsed.subject === 'Your AI Agent Blog is Ready!',
    );
    expect(welcome.parsed.text).toContain(key);
    // The key works, and only its digest is stored.
    const pub = await rig.call('POST', '/api/publish', { title: 'T', content: 'c' }, bearer(key));
    expect(pub.status).toBe(201);
    const rows = await rig.t.hamlet.platform.db.kysely.selectFrom('platform_keys').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(key);
    // Listed now.
    const blogs = await rig.call('GET', '/api/blogs?limit=100');
    expect(blogs.body.blogs.some((b: { slug: string }) => b.slug === 'html-page')).toBe(true);
  });

  it('answers JSON with upstream field names when asked', async () => {
    await rig.call('POST', '/api/register', { email: 'json@example.org', name: 'Json', slug: 'json-agent' });
    const token = await rig.tokenFor('json@example.org');
    const r = await rig.call('GET', `/api/verify?token=${token}`, undefined, { accept: 'application/json' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      success: true,
      message: expect.any(String),
      apiKey: expect.stringMatching(/^hamlet_blog_/),
      blogUrl: `${rig.origin('json-agent')}`,
      subdomainCreated: true,
    });
  });

  it('tells missing, malformed, unknown, used and expired tokens apart, with 400', async () => {
    expect((await rig.call('GET', '/api/verify')).body).toMatchObject({ code: 'token_missing' });
    const malformed = await rig.call('GET', '/api/verify?token=../../etc/passwd');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('token_invalid');
    const unknown = await rig.call('GET', '/api/verify?token=6f1c1a5e-2f0b-4c1e-9a59-1f2d3c4b5a69');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: 'Invalid verification token', code: 'token_invalid' });

    await rig.call('POST', '/api/register', { email: 'used@example.org', name: 'U', slug: 'used-token' });
    const token = await rig.tokenFor('used@example.org');
    expect((await rig.call('GET', `/api/verify?token=${token}`)).status).toBe(200);
    const used = await rig.call('GET', `/api/verify?token=${token}`);
    expect(used.status).toBe(400);
    expect(used.body.code).toBe('token_used');
    expect(used.body.error).toMatch(/e-mailed/);

    await rig.call('POST', '/api/register', { email: 'late@example.org', name: 'L', slug: 'late-agent' });
    const late = await rig.tokenFor('late@example.org');
    clock.advance(24 * 3600_000);
    const expired = await rig.call('GET', `/api/verify?token=${late}`);
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe('token_expired');
  });

  it('resends a fresh link (older links stop working) and says the same for unknown addresses', async () => {
    await rig.call('POST', '/api/register', { email: 'resend@example.org', name: 'R', slug: 'resend-me' });
    const first = await rig.tokenFor('resend@example.org');
    const r = await rig.call('POST', '/api/resend-verification', { email: 'resend@example.org' });
    expect(r.status).toBe(200);
    const unknown = await rig.call('POST', '/api/resend-verification', { email: 'nobody@example.org' });
    expect(unknown.body).toEqual(r.body);
    const second = await rig.tokenFor('resend@example.org');
    expect(second).not.toBe(first);
    expect((await rig.call('GET', `/api/verify?token=${first}`)).status).toBe(400);
    expect((await rig.call('GET', `/api/verify?token=${second}`)).status).toBe(200);
    expect((await rig.call('POST', '/api/resend-verification', { email: 'bad' })).status).toBe(400);
  });
});

describe('POST /api/publish', () => {
  let key: string;
  beforeAll(async () => {
    ({ key } = await rig.register('writer'));
  });

  it('requires a valid key (401), before looking at the body', async () => {
    expect((await rig.call('POST', '/api/publish', { title: 'T', content: 'c' })).status).toBe(401);
    const bad = await rig.call('POST', '/api/publish', { title: 'T', content: 'c' }, bearer('hamlet_blog_nope'));
    expect(bad.status).toBe(401);
    expect(bad.body.error).toMatch(/Unauthorized/);
    expect((await rig.call('POST', '/api/publish', { nonsense: true }, { authorization: 'Basic abc' })).status).toBe(
      401,
    );
  });

  it.each([
    [{ content: 'c' }, /title/i],
    [{ title: '', content: 'c' }, /title/i],
    [{ title: 'x'.repeat(201), content: 'c' }, /title/i],
    [{ title: 'T' }, /content/i],
    [{ title: 'T', content: 'c', slug: 'Bad_Slug' }, /slug/i],
    [{ title: 'T', content: 'c', slug: '-x' }, /slug/i],
    [{ title: 'T', content: 'c', slug: 'x' }, /slug/i],
    [{ title: 'T', content: 'c', status: 'archived' }, /status/i],
  ])('rejects %j with 400', async (body, field) => {
    const r = await rig.call('POST', '/api/publish', body, bearer(key));
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(field);
  });

  it('creates a draft by default (201), updates by slug (200), keeps status when omitted, and keeps the first publish date', async () => {
    const created = await rig.call(
      'POST',
      '/api/publish',
      { title: 'My First Post', content: 'Hello **world**', slug: 'first' },
      bearer(key),
    );
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      success: true,
      message: 'Post created successfully',
      post: {
        id: expect.stringMatching(UUID),
        title: 'My First Post',
        slug: 'first',
        status: 'draft',
        url: `${rig.origin('writer')}/first`,
        publishedAt: null,
      },
    });
    const id = created.body.post.id;

    const published = await rig.call(
      'POST',
      '/api/publish',
      { title: 'My First Post', content: 'v2', slug: 'first', status: 'published' },
      bearer(key),
    );
    expect(published.status).toBe(200);
    expect(published.body.message).toBe('Post updated successfully');
    expect(published.body.post).toMatchObject({ id, status: 'published', publishedAt: clock.now().toISOString() });
    const firstDate = published.body.post.publishedAt;

    clock.advance(60_000);
    const edited = await rig.call(
      'POST',
      '/api/publish',
      { title: 'Edited', content: 'v3', slug: 'first' },
      bearer(key),
    );
    expect(edited.body.post).toMatchObject({ id, title: 'Edited', status: 'published', publishedAt: firstDate });

    const unpublished = await rig.call(
      'POST',
      '/api/publish',
      { title: 'Edited', content: 'v3', slug: 'first', status: 'draft' },
      bearer(key),
    );
    expect(unpublished.body.post).toMatchObject({ status: 'draft', publishedAt: firstDate });
    expect((await rig.call('GET', '/api/posts?agent=writer')).body.total).toBe(0);
    clock.advance(60_000);
    const republished = await rig.call(
      'POST',
      '/api/publish',
      { title: 'Edited', content: 'v3', slug: 'first', status: 'published' },
      bearer(key),
    );
    expect(republished.body.post.publishedAt).toBe(firstDate);
    const list = await rig.call('GET', '/api/posts?agent=writer');
    expect(list.body.total).toBe(1);
    expect(list.body.posts[0].excerpt).toBe('v3');
  });

  it('generates a slug from the title and makes it unique per agent', async () => {
    const a = await rig.call('POST', '/api/publish', { title: 'Héllo, Wörld!', content: 'a' }, bearer(key));
    const b = await rig.call('POST', '/api/publish', { title: 'Héllo, Wörld!', content: 'b' }, bearer(key));
    expect(a.body.post.slug).toBe('hello-world');
    expect(b.body.post.slug).toBe('hello-world-2');
    expect(b.status).toBe(201);
    const cjk = await rig.call('POST', '/api/publish', { title: '你好世界', content: 'c' }, bearer(key));
    expect(cjk.body.post.slug).toMatch(/^post(-\d+)?$/);
    // Another agent may use the same slug.
    const other = await rig.register('writer-two');
    const mine = await rig.call(
      'POST',
      '/api/publish',
      { title: 'x', content: 'y', slug: 'hello-world' },
      bearer(other.key),
    );
    expect(mine.status).toBe(201);
  });

  it('counts only published posts in postCount and lists', async () => {
    const { key: k } = await rig.register('counter');
    await rig.call('POST', '/api/publish', { title: 'draft', content: 'd' }, bearer(k));
    await rig.call('POST', '/api/publish', { title: 'pub', content: 'p', status: 'published' }, bearer(k));
    const blogs = await rig.call('GET', '/api/blogs?limit=100');
    expect(blogs.body.blogs.find((b: { slug: string }) => b.slug === 'counter').postCount).toBe(1);
    const posts = await rig.call('GET', '/api/posts?agent=counter');
    expect(posts.body.posts.map((p: { title: string }) => p.title)).toEqual(['pub']);
  });
});

describe('lists', () => {
  let ids: string[] = [];
  beforeAll(async () => {
    const a = await rig.register('list-a');
    const b = await rig.register('list-b');
    ids = [];
    for (const [k, title] of [
      [a.key, 'A1'],
      [b.key, 'B1'],
      [a.key, 'A2'],
    ] as const) {
      clock.advance(1000);
      const r = await rig.call(
        'POST',
        '/api/publish',
        { title, content: `# ${title}\n\n${'word '.repeat(100)}`, status: 'published' },
        bearer(k),
      );
      ids.push(r.body.post.id);
    }
  });

  it('GET /api/posts: contract shape, newest first by default, oldest on request, agent filter', async () => {
    const r = await rig.call('GET', '/api/posts?agent=list-a');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
    expect(r.body.posts.map((p: { title: string }) => p.title)).toEqual(['A2', 'A1']);
    const p = r.body.posts[0];
    expect(p).toEqual({
      id: ids[2],
      title: 'A2',
      slug: 'a2',
      excerpt: expect.any(String),
      url: `${rig.origin('list-a')}/a2`,
      publishedAt: expect.any(String),
      agent: { name: 'Agent list-a', slug: 'list-a', url: `${rig.origin('list-a')}` },
      comments: 0,
      votes: { upvotes: 0, downvotes: 0, score: 0 },
    });
    // The contract's excerpt: the first 300 characters of the content as written (markdown and all).
    expect(p.excerpt).toBe(`# A2\n\n${'word '.repeat(100)}`.slice(0, 300));
    const oldest = await rig.call('GET', '/api/posts?agent=list-a&sort=oldest');
    expect(oldest.body.posts.map((x: { title: string }) => x.title)).toEqual(['A1', 'A2']);
    const paged = await rig.call('GET', '/api/posts?agent=list-a&limit=1&offset=1');
    expect(paged.body).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(paged.body.posts.map((x: { title: string }) => x.title)).toEqual(['A1']);
    const none = await rig.call('GET', '/api/posts?agent=nobody-here');
    expect(none.body).toEqual({ posts: [], total: 0, limit: 50, offset: 0 });
    const all = await rig.call('GET', '/api/posts?limit=100');
    const times = all.body.posts.map((x: { publishedAt: string }) => x.publishedAt);
    expect(times).toEqual([...times].sort().reverse());
    const since = await rig.call('GET', `/api/posts?since=${encodeURIComponent(oldest.body.posts[1].publishedAt)}`);
    expect(since.body.posts.map((x: { title: string }) => x.title)).toEqual(['A2']);
  });

  it.each([
    '/api/posts?limit=0',
    '/api/posts?limit=101',
    '/api/posts?limit=abc',
    '/api/posts?limit=1.5',
    '/api/posts?offset=-1',
    '/api/posts?sort=best',
    '/api/posts?since=yesterday',
    '/api/blogs?limit=0',
    '/api/blogs?limit=101',
    '/api/blogs?offset=x',
    '/api/blogs?sort=popular',
    '/api/posts/featured?limit=51',
    '/api/posts/featured?limit=0',
    '/api/posts/featured?limit=ten',
  ])('%s → 400 in the error envelope', async (path) => {
    const r = await rig.call('GET', path);
    expect(r.status).toBe(400);
    expect(typeof r.body.error).toBe('string');
  });

  it('GET /api/blogs sorts by newest, name and published post count', async () => {
    const newest = await rig.call('GET', '/api/blogs?limit=100');
    const created = newest.body.blogs.map((b: { createdAt: string }) => b.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    expect(newest.body.total).toBe(newest.body.blogs.length);
    expect(newest.body.blogs[0]).toEqual({
      id: expect.stringMatching(UUID),
      name: expect.any(String),
      slug: expect.any(String),
      bio: null,
      url: expect.stringMatching(/^http:\/\/[a-z0-9-]+\.blog\.localhost:\d+$/),
      postCount: expect.any(Number),
      createdAt: expect.any(String),
    });
    const byName = await rig.call('GET', '/api/blogs?sort=name&limit=100');
    const names = byName.body.blogs.map((b: { name: string }) => b.name);
    expect(names).toEqual([...names].sort());
    const byPosts = await rig.call('GET', '/api/blogs?sort=posts&limit=100');
    const counts = byPosts.body.blogs.map((b: { postCount: number }) => b.postCount);
    expect(counts).toEqual([...counts].sort((x: number, y: number) => y - x));
  });

  it('GET /api/posts/featured ranks votes plus a fading recency bonus', async () => {
    const voter = await rig.register('featured-voter');
    // The oldest of the three gets two votes more than the others: 2 > the 2-second recency difference.
    await rig.call('POST', `/api/posts/${ids[0]}/vote`, { vote: 1 }, bearer(voter.key));
    const other = await rig.register('featured-voter-2');
    await rig.call('POST', `/api/posts/${ids[0]}/vote`, { vote: 1 }, bearer(other.key));
    const r = await rig.call('GET', '/api/posts/featured?limit=3');
    expect(r.status).toBe(200);
    expect(r.body.limit).toBe(3);
    expect(r.body.total).toBe(3);
    expect(r.body.posts[0].id).toBe(ids[0]);
    const dflt = await rig.call('GET', '/api/posts/featured');
    expect(dflt.body.limit).toBe(10);
  });
});

describe('comments and votes', () => {
  let key: string;
  let postId: string;
  let draftId: string;
  beforeAll(async () => {
    ({ key } = await rig.register('talker'));
    postId = (await rig.call('POST', '/api/publish', { title: 'Talk', content: 't', status: 'published' }, bearer(key)))
      .body.post.id;
    draftId = (await rig.call('POST', '/api/publish', { title: 'Hidden', content: 'h' }, bearer(key))).body.post.id;
  });

  it('lists comments oldest first; unknown, draft and malformed ids are 404', async () => {
    const c1 = await rig.call('POST', `/api/posts/${postId}/comments`, { content: 'first' }, bearer(key));
    expect(c1.status).toBe(201);
    expect(c1.body).toEqual({
      success: true,
      comment: {
        id: expect.stringMatching(UUID),
        content: 'first',
        authorName: 'Agent talker',
        authorSlug: 'talker',
        createdAt: expect.any(String),
      },
    });
    clock.advance(1000);
    await rig.call('POST', `/api/posts/${postId}/comments`, { content: 'second\nline' }, bearer(key));
    const list = await rig.call('GET', `/api/posts/${postId}/comments`);
    expect(list.body.comments.map((c: { content: string }) => c.content)).toEqual(['first', 'second\nline']);
    for (const id of [draftId, '00000000-0000-4000-8000-000000000000', 'not-a-uuid', '..%2F..%2Fetc']) {
      const r = await rig.call('GET', `/api/posts/${id}/comments`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Post not found', code: 'post_not_found' });
    }
    const posts = await rig.call('GET', '/api/posts?agent=talker');
    expect(posts.body.posts[0].comments).toBe(2);
  });

  it('checks comment input: 401 without a key, 400 for empty or over 2000 characters, 404 for drafts', async () => {
    expect((await rig.call('POST', `/api/posts/${postId}/comments`, { content: 'x' })).status).toBe(401);
    expect((await rig.call('POST', `/api/posts/${postId}/comments`, { content: '' }, bearer(key))).status).toBe(400);
    expect(
      (await rig.call('POST', `/api/posts/${postId}/comments`, { content: 'x'.repeat(2001) }, bearer(key))).status,
    ).toBe(400);
    expect(
      (await rig.call('POST', `/api/posts/${postId}/comments`, { content: '😀'.repeat(2000) }, bearer(key))).status,
    ).toBe(201);
    expect((await rig.call('POST', `/api/posts/${draftId}/comments`, { content: 'x' }, bearer(key))).status).toBe(404);
  });

  it('votes: one per agent, a repeat changes nothing, the opposite switches, counters match', async () => {
    const a = await rig.register('voter-a');
    const b = await rig.register('voter-b');
    const v1 = await rig.call('POST', `/api/posts/${postId}/vote`, { vote: 1 }, bearer(a.key));
    expect(v1.body).toEqual({ success: true, votes: { upvotes: 1, downvotes: 0, score: 1 } });
    expect((await rig.call('POST', `/api/posts/${postId}/vote`, { vote: 1 }, bearer(a.key))).body.votes).toEqual({
      upvotes: 1,
      downvotes: 0,
      score: 1,
    });
    expect((await rig.call('POST', `/api/posts/${postId}/vote`, { vote: -1 }, bearer(b.key))).body.votes).toEqual({
      upvotes: 1,
      downvotes: 1,
      score: 0,
    });
    expect((await rig.call('POST', `/api/posts/${postId}/vote`, { vote: -1 }, bearer(a.key))).body.votes).toEqual({
      upvotes: 0,
      downvotes: 2,
      score: -2,
    });
    const rows = await rig.t.hamlet.platform.db.kysely
      .selectFrom('blog_votes')
      .selectAll()
      .where('post_id', '=', postId)
      .execute();
    expect(rows.map((r) => r.vote).sort()).toEqual([-1, -1]);
  });

  it('rejects bad votes (400), missing keys (401) and unknown posts (404)', async () => {
    for (const vote of [0, 2, '1', 1.5, null]) {
      const r = await rig.call('POST', `/api/posts/${postId}/vote`, { vote }, bearer(key));
      expect(r.status).toBe(400);
    }
    expect((await rig.call('POST', `/api/posts/${postId}/vote`, {}, bearer(key))).status).toBe(400);
    expect((await rig.call('POST', `/api/posts/${postId}/vote`, { vote: 1 })).status).toBe(401);
    expect((await rig.call('POST', `/api/posts/${draftId}/vote`, { vote: 1 }, bearer(key))).status).toBe(404);
    expect((await rig.call('POST', `/api/posts/nope/vote`, { vote: 1 }, bearer(key))).status).toBe(404);
  });
});

describe('beyond the contract', () => {
  it('GET /api/posts/{id} returns a published post; DELETE is owner-only', async () => {
    const owner = await rig.register('deleter');
    const other = await rig.register('not-owner');
    const id = (
      await rig.call(
        'POST',
        '/api/publish',
        { title: 'Gone soon', content: '*x*', status: 'published' },
        bearer(owner.key),
      )
    ).body.post.id;
    const got = await rig.call('GET', `/api/posts/${id}`);
    expect(got.body).toMatchObject({ id, title: 'Gone soon', content: '*x*', html: '<p><em>x</em></p>\n' });
    expect((await rig.call('DELETE', `/api/posts/${id}`, undefined, bearer(other.key))).status).toBe(403);
    expect((await rig.call('DELETE', `/api/posts/${id}`)).status).toBe(401);
    expect((await rig.call('DELETE', `/api/posts/${id}`, undefined, bearer(owner.key))).status).toBe(200);
    expect((await rig.call('GET', `/api/posts/${id}`)).status).toBe(404);
    expect((await rig.call('DELETE', `/api/posts/${id}`, undefined, bearer(owner.key))).status).toBe(404);
    expect((await rig.call('GET', '/api/posts?agent=deleter')).body.total).toBe(0);
  });

  it('POST /api/regenerate-key revokes the old key', async () => {
    const { key } = await rig.register('rotator');
    const r = await rig.call('POST', '/api/regenerate-key', undefined, bearer(key));
    expect(r.status).toBe(200);
    expect(r.body.apiKey).toMatch(/^hamlet_blog_/);
    expect((await rig.call('POST', '/api/publish', { title: 't', content: 'c' }, bearer(key))).status).toBe(401);
    expect((await rig.call('POST', '/api/publish', { title: 't', content: 'c' }, bearer(r.body.apiKey))).status).toBe(
      201,
    );
  });

  it('answers unknown routes and malformed JSON in the envelope, and serves health and OpenAPI', async () => {
    const unknown = await rig.call('GET', '/api/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/not found/);
    const badJson = await rig.call('POST', '/api/register', '{"email":', {});
    expect(badJson.status).toBe(400);
    expect(badJson.body.error).toBe('Request body is not valid JSON');
    expect((await rig.call('GET', '/healthz')).body).toEqual({ status: 'ok', service: 'blog' });
    const docs = await rig.call('GET', '/docs/json');
    expect(Object.keys(docs.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/register',
        '/api/verify',
        '/api/publish',
        '/api/blogs',
        '/api/posts',
        '/api/posts/featured',
        '/api/posts/{postId}/comments',
        '/api/posts/{postId}/vote',
      ]),
    );
  });
});
