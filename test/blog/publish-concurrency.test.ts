// Publishing under concurrency: concurrent publishes are committed together (group commit) but
// each as it would be alone — generated slugs stay unique per agent, one explicit slug is
// created once and then updated, counters match the rows — and markdown rendered on the worker
// thread is the same as rendered inline, also when the worker dies mid-way.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.js';
import { derivePost } from '../../src/services/blog/publishing/derive.js';
import { PostRenderer } from '../../src/services/blog/publishing/renderer.js';
import { bearer, startBlog, type BlogRig } from './helpers.js';

let rig: BlogRig;
beforeAll(async () => {
  rig = await startBlog({ env: { HAMLET_RATE_LIMITS: 'off' } });
});
afterAll(async () => rig?.close());

it('answers 40 concurrent publishes of two agents each as if alone', async () => {
  const a = await rig.register('burst-a');
  const b = await rig.register('burst-b');
  const calls = [
    ...Array.from({ length: 15 }, () =>
      rig.call('POST', '/api/publish', { title: 'Same Title', content: 'x', status: 'published' }, bearer(a.key)),
    ),
    ...Array.from({ length: 15 }, (_, i) =>
      rig.call(
        'POST',
        '/api/publish',
        { title: `Shared v${i}`, content: `v${i}`, slug: 'shared', status: 'published' },
        bearer(a.key),
      ),
    ),
    ...Array.from({ length: 10 }, (_, i) =>
      rig.call(
        'POST',
        '/api/publish',
        { title: `B ${i}`, content: 'y', status: i % 2 ? 'draft' : 'published' },
        bearer(b.key),
      ),
    ),
  ];
  const answers = await Promise.all(calls);
  expect(answers.map((r) => r.status).filter((s) => s !== 200 && s !== 201)).toEqual([]);
  const generated = answers.slice(0, 15).map((r) => r.body.post.slug);
  expect(new Set(generated).size).toBe(15);
  expect(generated).toContain('same-title');
  const shared = answers.slice(15, 30);
  expect(shared.filter((r) => r.status === 201)).toHaveLength(1);
  expect(new Set(shared.map((r) => r.body.post.id)).size).toBe(1);

  const listA = await rig.call('GET', '/api/posts?agent=burst-a&limit=100');
  expect(listA.body.total).toBe(16);
  const listB = await rig.call('GET', '/api/posts?agent=burst-b&limit=100');
  expect(listB.body.total).toBe(5);
  const blogs = (await rig.call('GET', '/api/blogs?limit=100')).body.blogs as Array<{
    slug: string;
    postCount: number;
  }>;
  expect(blogs.find((x) => x.slug === 'burst-a')!.postCount).toBe(16);
  expect(blogs.find((x) => x.slug === 'burst-b')!.postCount).toBe(5);
  // Every acknowledged post is in the table (nothing answered that was not committed).
  const rows = await rig.t.hamlet.platform.db.kysely.selectFrom('blog_posts').select('slug').execute();
  for (const slug of [...generated, 'shared']) expect(rows.map((r) => r.slug)).toContain(slug);
});

it('renders on the worker exactly as inline, and falls back inline when the worker dies', async () => {
  const renderer = new PostRenderer(1, createLogger({ level: 'silent', pretty: false }));
  try {
    const content = '# Worker\n\nSome **bold** and `code`:\n\n```js\nconst x = 1;\n```\n\n<script>alert(1)</script>';
    expect(await renderer.render(content, 'Worker')).toEqual(derivePost(content, 'Worker'));
    // Kill the worker while posts are waiting on it: they still come back, rendered inline.
    const pending = Array.from({ length: 20 }, (_, i) => renderer.render(`${content}\n\npost ${i}`, 'Worker'));
    await (
      renderer as unknown as { slots: Array<{ worker: { terminate(): Promise<number> } }> }
    ).slots[0].worker.terminate();
    const done = await Promise.all(pending);
    done.forEach((d, i) => expect(d).toEqual(derivePost(`${content}\n\npost ${i}`, 'Worker')));
    // And a new worker takes later posts.
    expect(await renderer.render(content, 'Worker')).toEqual(derivePost(content, 'Worker'));
  } finally {
    await renderer.stop();
  }
});
