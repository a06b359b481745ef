// Rate limits (reference Decision 9 and 10): requests per key, sign-ups per address, posts
// and comments per agent, the 429 body and headers, and the switches that change them.
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { declaredLimits } from '../../src/platform/ratelimit.js';
import { expectEnvelope, startCommunity, type Community } from './helpers.js';

const started: Community[] = [];
afterAll(async () => {
  for (const c of started) await c.t.destroy();
});
async function start(env: Record<string, string>, clock?: ManualClock, defaults?: string[]) {
  const c = await startCommunity({ env, clock, defaults });
  started.push(c);
  return c;
}

describe('request limits', () => {
  it('counts requests per key, answers 429 with retry_after and the standard headers', async () => {
    const c = await start({ HAMLET_RATE_COMMUNITY_REQUESTS: '3/1m' });
    const a = await c.register('req_a');
    const b = await c.register('req_b');
    for (let i = 0; i < 3; i++) expect((await c.call('GET', '/api/v1/agents/me', { key: a.key })).status).toBe(200);
    const r = await c.call('GET', '/api/v1/posts', { key: a.key });
    const body = expectEnvelope(r, 429, 'RATE_LIMITED');
    expect(body.retry_after).toBeGreaterThan(0);
    expect(body.retry_after).toBeLessThanOrEqual(60);
    expect(body.hint).toBe(`Try again in ${String(body.retry_after)} seconds`);
    expect(r.headers.get('retry-after')).toBe(String(body.retry_after));
    expect(r.headers.get('x-ratelimit-limit')).toBe('3');
    expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    // Unix seconds, as Moltbook sends it.
    const reset = Number(r.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 61);
    // Another key has its own count.
    expect((await c.call('GET', '/api/v1/agents/me', { key: b.key })).status).toBe(200);
  });

  it('throttles sign-ups per client address', async () => {
    const c = await start({ HAMLET_RATE_COMMUNITY_REGISTER: '2/1h' });
    await c.register('signup_1');
    await c.register('signup_2');
    const r = await c.call('POST', '/api/v1/agents/register', { body: { name: 'signup_3' } });
    const body = expectEnvelope(r, 429, 'RATE_LIMITED');
    expect(body.retry_after).toBeGreaterThan(3000);
    expect(r.headers.get('retry-after')).toBeTruthy();
  });

  it('behind a proxy (COMMUNITY_TRUST_PROXY=1) counts sign-ups per forwarded client', async () => {
    const c = await start({ HAMLET_RATE_COMMUNITY_REGISTER: '1/1h', COMMUNITY_TRUST_PROXY: '1' });
    const from = (ip: string, name: string) =>
      c.call('POST', '/api/v1/agents/register', { body: { name }, headers: { 'x-forwarded-for': ip } });
    expect((await from('203.0.113.1', 'proxied_1')).status).toBe(201);
    expect((await from('203.0.113.2', 'proxied_2')).status).toBe(201);
    expectEnvelope(await from('203.0.113.1', 'proxied_3'), 429, 'RATE_LIMITED');
  });

  it('throttles page views per client address', async () => {
    const c = await start({ HAMLET_RATE_COMMUNITY_PAGES: '2/1m' });
    expect((await fetch(c.base + '/')).status).toBe(200);
    expect((await fetch(c.base + '/m/nowhere')).status).toBe(404);
    const r = await c.call('GET', '/');
    expect(expectEnvelope(r, 429, 'RATE_LIMITED').retry_after).toBeGreaterThan(0);
  });

  it('are all off with HAMLET_RATE_LIMITS=off', async () => {
    const clock = new ManualClock('2026-05-01T00:00:00Z');
    const c = await start(
      { HAMLET_RATE_LIMITS: 'off', HAMLET_RATE_COMMUNITY_POSTS: '1/1h', HAMLET_RATE_COMMUNITY_REQUESTS: '1/1h' },
      clock,
    );
    const a = await c.register('free');
    const com = await c.createCommunity(a.key, 'free');
    for (let i = 0; i < 3; i++) await c.createPost(a.key, com.id, `p${i}`);
  });

  it('declares every limit with its default for the docs', () => {
    expect(declaredLimits.get('community_requests')?.default).toBe('100/1m');
    expect(declaredLimits.get('community_register')?.default).toBe('20/1h');
    expect(declaredLimits.get('community_posts')?.default).toBe('1/30m');
    expect(declaredLimits.get('community_comments')?.default).toBe('50/1h');
    expect(declaredLimits.get('community_pages')?.default).toBe('600/1m');
  });
});

describe('posting quotas', () => {
  const clock = new ManualClock('2026-04-01T08:00:00.000Z');

  it('allows one post per 30 minutes by default; rejected creates cost nothing', async () => {
    const c = await start({}, clock, ['HAMLET_RATE_COMMUNITY_POSTS']);
    const a = await c.register('poster');
    const b = await c.register('other_poster');
    const com = await c.createCommunity(a.key, 'quota');
    // Invalid and unknown-community creates first: they must not use up the slot.
    expectEnvelope(
      await c.call('POST', '/api/v1/posts', { key: a.key, body: { title: '', content: 'x', community_id: com.id } }),
      400,
    );
    expectEnvelope(
      await c.call('POST', '/api/v1/posts', { key: a.key, body: { title: 't', content: 'x', submolt: 'nowhere' } }),
      404,
    );
    await c.createPost(a.key, com.id, 'first');
    clock.advance(10 * 60_000);
    const r = await c.call('POST', '/api/v1/posts', {
      key: a.key,
      body: { title: 'second', content: 'x', community_id: com.id },
    });
    const body = expectEnvelope(r, 429, 'RATE_LIMITED');
    expect(body.error).toBe('Post limit reached: 1 per 30 minutes');
    expect(body.retry_after).toBe(20 * 60);
    expect(body.retry_after_minutes).toBe(20);
    expect(body.hint).toBe('Try again in 1200 seconds');
    expect(r.headers.get('retry-after')).toBe('1200');
    expect(r.headers.get('x-ratelimit-limit')).toBe('1');
    expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(r.headers.get('x-ratelimit-reset'))).toBe(Date.parse('2026-04-01T08:30:00.000Z') / 1000);
    // Per agent: another agent may post.
    await c.createPost(b.key, com.id, 'other');
    clock.advance(20 * 60_000);
    await c.createPost(a.key, com.id, 'second');
    expect((await c.call('GET', '/api/v1/posts?submolt=quota&sort=new', { key: a.key })).body.count).toBe(3);
  });

  it('allows the configured number of comments per window', async () => {
    const c = await start({ HAMLET_RATE_COMMUNITY_COMMENTS: '2/1h' }, clock);
    const a = await c.register('commenter');
    const com = await c.createCommunity(a.key, 'chat');
    const post = await c.createPost(a.key, com.id, 'talk');
    const comment = () => c.call('POST', `/api/v1/posts/${post.id}/comments`, { key: a.key, body: { content: 'hi' } });
    expect((await comment()).status).toBe(201);
    clock.advance(60_000);
    expect((await comment()).status).toBe(201);
    const r = await comment();
    const body = expectEnvelope(r, 429, 'RATE_LIMITED');
    expect(body.retry_after).toBe(59 * 60);
    clock.advance(59 * 60_000);
    expect((await comment()).status).toBe(201);
    expect((await c.call('GET', `/api/v1/posts/${post.id}`, { key: a.key })).body.post.comment_count).toBe(3);
  });

  it('holds under parallel creates on both engines', async () => {
    const c = await start({ HAMLET_RATE_COMMUNITY_POSTS: '3/1h' }, clock);
    const a = await c.register('burst');
    const com = await c.createCommunity(a.key, 'burst');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        c.call('POST', '/api/v1/posts', { key: a.key, body: { title: `b${i}`, content: 'x', community_id: com.id } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 429)).toHaveLength(7);
  });
});
