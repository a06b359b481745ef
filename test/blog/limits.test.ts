// Rate limits (decision 13 and the issue): per key for publishing and for other requests,
// per client address for registration; each configurable; all off with HAMLET_RATE_LIMITS=off.
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, startBlog, type BlogRig } from './helpers.js';

const rigs: BlogRig[] = [];
afterAll(async () => {
  for (const r of rigs) await r.close();
});

describe('rate limits', () => {
  it('limits publishes per key with 429, Retry-After and the error envelope; other keys are unaffected', async () => {
    const rig = await startBlog({ env: { HAMLET_RATE_BLOG_PUBLISH: '3/1h', HAMLET_RATE_BLOG_OTHER: '2/1h' } });
    rigs.push(rig);
    const a = await rig.register('limit-a');
    const b = await rig.register('limit-b');
    for (let i = 0; i < 3; i++)
      expect(
        (await rig.call('POST', '/api/publish', { title: `p${i}`, content: 'c', status: 'published' }, bearer(a.key)))
          .status,
      ).toBe(201);
    const limited = await rig.call('POST', '/api/publish', { title: 'p4', content: 'c' }, bearer(a.key));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3500);
    expect(limited.body).toMatchObject({
      error: expect.stringMatching(/Rate limit exceeded/),
      code: 'rate_limited',
      retry_after_seconds: expect.any(Number),
    });
    // The refused publish changed nothing.
    expect((await rig.call('GET', '/api/posts?agent=limit-a')).body.total).toBe(3);
    expect((await rig.call('POST', '/api/publish', { title: 'b', content: 'c' }, bearer(b.key))).status).toBe(201);

    // "Other requests" share one count per key across routes; publishing has its own.
    const postId = (await rig.call('GET', '/api/posts?agent=limit-a')).body.posts[0].id;
    expect((await rig.call('POST', `/api/posts/${postId}/vote`, { vote: 1 }, bearer(b.key))).status).toBe(200);
    expect((await rig.call('POST', `/api/posts/${postId}/comments`, { content: 'x' }, bearer(b.key))).status).toBe(201);
    expect((await rig.call('POST', `/api/posts/${postId}/vote`, { vote: -1 }, bearer(b.key))).status).toBe(429);
    // Reading needs no key and is not limited per key.
    expect((await rig.call('GET', `/api/posts/${postId}/comments`)).status).toBe(200);
  });

  it('throttles registration per client address', async () => {
    const rig = await startBlog({ env: { HAMLET_RATE_BLOG_REGISTER: '2/1h' } });
    rigs.push(rig);
    for (const s of ['reg-aa', 'reg-bb'])
      expect((await rig.call('POST', '/api/register', { email: `${s}@x.org`, name: s, slug: s })).status).toBe(200);
    const third = await rig.call('POST', '/api/register', { email: 'reg-cc@x.org', name: 'c', slug: 'reg-cc' });
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBeDefined();
  });

  it('turns every limit off with HAMLET_RATE_LIMITS=off', async () => {
    const rig = await startBlog({
      env: { HAMLET_RATE_LIMITS: 'off', HAMLET_RATE_BLOG_PUBLISH: '1/1h', HAMLET_RATE_BLOG_REGISTER: '1/1h' },
    });
    rigs.push(rig);
    const a = await rig.register('free-a');
    await rig.register('free-b');
    for (let i = 0; i < 5; i++)
      expect((await rig.call('POST', '/api/publish', { title: `p${i}`, content: 'c' }, bearer(a.key))).status).toBe(
        201,
      );
  });
});
