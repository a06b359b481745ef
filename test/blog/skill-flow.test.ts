// Upstream's documented agent flow, replayed end to end: the steps of the "agent-voice" skill
// (SKILL.md of https://github.com/openclaw/skills/tree/main/skills/nerdsnipe/agent-voice, the
// skill upstream's docs point agents at), each request as the skill writes it, against this
// blog. Where the skill's step is one upstream itself refuses (a status-only update), the test
// shows the same refusal and the agent's way on.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { bearer, startBlog, type BlogRig } from './helpers.js';

const clock = new ManualClock('2026-02-02T09:00:00.000Z');
let rig: BlogRig;
let apiKey: string;
let other: string;

beforeAll(async () => {
  rig = await startBlog({ clock, env: { HAMLET_RATE_LIMITS: 'off' } });
  ({ key: other } = await rig.register('reader-agent'));
});
afterAll(async () => rig?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

it('Quick Start 1–3: register, verify the e-mail, keep the API key', async () => {
  // The skill's curl: Content-Type JSON, the four fields.
  const r = await rig.call('POST', '/api/register', {
    email: 'your.agent@example.com',
    name: 'Your Agent Name',
    slug: 'your-agent',
    bio: 'Optional bio',
  });
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ success: true, message: expect.any(String) });
  // "Check your email for the verification link": the link in the mail, clicked.
  const token = await rig.tokenFor('your.agent@example.com');
  const page = await rig.call('GET', `/api/verify?token=${token}`);
  expect(page.status).toBe(200);
  apiKey = /<pre class="key">([^<]+)<\/pre>/.exec(page.body as string)![1]!;
  // "After verification, you'll receive your API key": also by e-mail.
  const welcome = await rig.sink.waitFor(
    (m) => m.envelope.to.includes('your.agent@example.com') && m.parsed.subject === 'Your AI Agent Blog is Ready!',
  );
  expect(welcome.parsed.text).toContain(apiKey);
});

it('Quick Start 4: publish a draft, then (after review) publish it by slug', async () => {
  const draft = await rig.call(
    'POST',
    '/api/publish',
    { title: 'My First Post', content: '# Hello World\n\nThis is my first blog post.', status: 'draft' },
    bearer(apiKey),
  );
  expect(draft.status).toBe(201);
  expect(draft.body).toEqual({
    success: true,
    message: 'Post created successfully',
    post: {
      id: expect.stringMatching(UUID),
      title: 'My First Post',
      slug: 'my-first-post',
      status: 'draft',
      url: `${rig.origin('your-agent')}/my-first-post`,
      publishedAt: null,
    },
  });
  // A draft is not public.
  expect((await rig.page('/my-first-post', 'your-agent.blog.localhost')).status).toBe(404);

  // The skill's status-only update: the contract (and upstream's code) require title and content.
  const statusOnly = await rig.call(
    'POST',
    '/api/publish',
    { slug: 'my-first-post', status: 'published' },
    bearer(apiKey),
  );
  expect(statusOnly.status).toBe(400);
  expect(statusOnly.body.error).toBe('Title and content are required');
  // The agent sends the post again with the new status.
  clock.advance(60_000);
  const published = await rig.call(
    'POST',
    '/api/publish',
    {
      title: 'My First Post',
      slug: 'my-first-post',
      content: '# Hello World\n\nThis is my first blog post.',
      status: 'published',
    },
    bearer(apiKey),
  );
  expect(published.status).toBe(200);
  expect(published.body.post).toMatchObject({
    id: draft.body.post.id,
    status: 'published',
    publishedAt: '2026-02-02T09:01:00.000Z',
  });
});

it('Publishing from files: content read with jq -Rs, slug derived from the title', async () => {
  const file = '# Notes\n\nLine one.\n\n```bash\necho "quoted"\n```\n';
  // `$(echo "$CONTENT" | jq -Rs .)` is the file as one JSON string (echo adds a newline).
  const body = `{\n    "title": "Post Title",\n    "content": ${JSON.stringify(`${file}\n`)},\n    "status": "draft"\n  }`;
  const r = await rig.call('POST', '/api/publish', body, bearer(apiKey));
  expect(r.status).toBe(201);
  expect(r.body.post).toMatchObject({ slug: 'post-title', status: 'draft' });
});

it('Updating existing posts: same slug, status kept when left out', async () => {
  const r = await rig.call(
    'POST',
    '/api/publish',
    { title: 'Updated Post', slug: 'my-first-post', content: '# Updated Content\n\nRevised version.' },
    bearer(apiKey),
  );
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({
    message: 'Post updated successfully',
    post: { title: 'Updated Post', slug: 'my-first-post', status: 'published' },
  });
  const page = await rig.page('/my-first-post', 'your-agent.blog.localhost');
  expect(page.text).toContain('<h1>Updated Post</h1>');
  expect(page.text).toContain('Revised version.');
});

it('Integration: a daily reflection and a batch of files, as drafts', async () => {
  const DATE = '2026-02-02';
  const daily = await rig.call(
    'POST',
    '/api/publish',
    { title: `Daily Reflection - ${DATE}`, content: 'Today I learned.\n', status: 'draft' },
    bearer(apiKey),
  );
  expect(daily.body.post.slug).toBe('daily-reflection-2026-02-02');
  for (const name of ['what-i-learned', 'tool_notes']) {
    const r = await rig.call(
      'POST',
      '/api/publish',
      { title: name, content: `# ${name}\n`, status: 'draft' },
      bearer(apiKey),
    );
    expect(r.status).toBe(201);
    expect(r.body.post.slug).toBe(name.replace('_', '-'));
  }
});

it('Discovery: blogs, posts (all, since a date, by agent), featured', async () => {
  const blogs = await rig.call('GET', '/api/blogs?limit=50&sort=newest');
  expect(blogs.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
  expect(blogs.body.blogs.find((b: { slug: string }) => b.slug === 'your-agent')).toEqual({
    id: expect.stringMatching(UUID),
    name: 'Your Agent Name',
    slug: 'your-agent',
    bio: 'Optional bio',
    url: rig.origin('your-agent'),
    postCount: 1,
    createdAt: expect.any(String),
  });
  const all = await rig.call('GET', '/api/posts?limit=50');
  expect(all.body.posts.map((p: { slug: string }) => p.slug)).toEqual(['my-first-post']);
  const post = all.body.posts[0];
  expect(post).toMatchObject({
    excerpt: '# Updated Content\n\nRevised version.',
    agent: { name: 'Your Agent Name', slug: 'your-agent', url: rig.origin('your-agent') },
    comments: 0,
    votes: { upvotes: 0, downvotes: 0, score: 0 },
  });
  expect((await rig.call('GET', '/api/posts?since=2026-02-02T00:00:00Z&limit=50')).body.total).toBe(1);
  expect((await rig.call('GET', '/api/posts?since=2026-02-03T00:00:00Z&limit=50')).body.total).toBe(0);
  expect((await rig.call('GET', '/api/posts?agent=your-agent&limit=50')).body.total).toBe(1);
  const featured = await rig.call('GET', '/api/posts/featured?limit=10');
  expect(featured.body).toMatchObject({ total: 1, limit: 10 });
});

it('Comments and votes: read, add, upvote, change to a downvote', async () => {
  const postId = (await rig.call('GET', '/api/posts?agent=your-agent')).body.posts[0].id;
  expect((await rig.call('GET', `/api/posts/${postId}/comments`)).body).toEqual({ comments: [] });
  const c = await rig.call('POST', `/api/posts/${postId}/comments`, { content: 'Great post!' }, bearer(other));
  expect(c.status).toBe(201);
  expect(c.body).toEqual({
    success: true,
    comment: {
      id: expect.stringMatching(UUID),
      content: 'Great post!',
      authorName: 'Agent reader-agent',
      authorSlug: 'reader-agent',
      createdAt: expect.any(String),
    },
  });
  expect((await rig.call('GET', `/api/posts/${postId}/comments`)).body.comments).toHaveLength(1);
  expect((await rig.call('POST', `/api/posts/${postId}/vote`, { vote: 1 }, bearer(other))).body).toEqual({
    success: true,
    votes: { upvotes: 1, downvotes: 0, score: 1 },
  });
  // "You can change your vote by voting again."
  expect((await rig.call('POST', `/api/posts/${postId}/vote`, { vote: -1 }, bearer(other))).body).toEqual({
    success: true,
    votes: { upvotes: 0, downvotes: 1, score: -1 },
  });
});

it('Subdomains: the blog home and the post page, with a link back to the platform', async () => {
  const home = await rig.page('/', 'your-agent.blog.localhost');
  expect(home.status).toBe(200);
  expect(home.text).toContain('Your Agent Name');
  expect(home.text).toContain(`href="${rig.origin()}/"`);
  const postPage = await rig.page('/my-first-post', 'your-agent.blog.localhost');
  expect(postPage.status).toBe(200);
  expect(postPage.text).toContain('Great post!');
});

it('Troubleshooting: a wrong key is "Unauthorized", and so is a missing Bearer prefix', async () => {
  for (const authorization of ['Bearer not-a-key', apiKey]) {
    const r = await rig.call('POST', '/api/publish', { title: 'x', content: 'y' }, { authorization });
    expect(r.status).toBe(401);
    expect(r.body.error).toMatch(/^Unauthorized/);
  }
});
