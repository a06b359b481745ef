// No request shape makes the blog answer 500: malformed JSON, wrong types, huge strings,
// unicode and path traversal thrown at every endpoint get a clear 4xx in the envelope.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { request } from 'undici';
import { bearer, startBlog, type BlogRig } from './helpers.js';

let rig: BlogRig;
let key: string;
let postId: string;

beforeAll(async () => {
  rig = await startBlog({ env: { HAMLET_RATE_LIMITS: 'off' } });
  ({ key } = await rig.register('fuzzed'));
  postId = (await rig.call('POST', '/api/publish', { title: 'Target', content: 'x', status: 'published' }, bearer(key)))
    .body.post.id;
});
afterAll(async () => rig?.close());

const bodies: Array<string | Buffer> = [
  '{',
  '{"title": }',
  'null',
  '[]',
  '"just a string"',
  '12',
  'true',
  '{"title": null, "content": null}',
  '{"title": ["a"], "content": {"x": 1}}',
  '{"title": 1e309, "content": -0}',
  JSON.stringify({ title: 'x'.repeat(100_000), content: 'y' }),
  JSON.stringify({ email: 'a@b.org', name: 'n', slug: 'slug', bio: 'z'.repeat(20_000) }),
  JSON.stringify({ title: '\u0000\uffff\ud800', content: '🧨'.repeat(1000), slug: '../../etc' }),
  JSON.stringify({ content: 'nul \u0000 inside', title: 'a\u0000', email: 'x\u0000@y.org' }),
  JSON.stringify({ __proto__: { admin: true }, constructor: { prototype: { x: 1 } } }),
  JSON.stringify({ vote: '1' }),
  JSON.stringify({ vote: [1] }),
  JSON.stringify({ content: { toString: 'x' } }),
  Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22]),
  'x'.repeat(2 * 1024 * 1024),
];

const routes: Array<[string, string]> = [
  ['POST', '/api/register'],
  ['POST', '/api/resend-verification'],
  ['POST', '/api/publish'],
  ['POST', '/api/regenerate-key'],
  ['POST', `/api/posts/POST_ID/comments`],
  ['POST', `/api/posts/POST_ID/vote`],
  ['POST', `/api/posts/..%2F..%2Fetc%2Fpasswd/vote`],
  ['POST', `/api/posts/${'9'.repeat(600)}/comments`],
];

// Bodies that cannot be valid anywhere; the others may happen to be valid for some route.
const malformed = new Set<string | Buffer>([bodies[0], bodies[1], bodies[13], bodies[18], bodies[19]]);

function isJson(body: string | Buffer): boolean {
  try {
    JSON.parse(String(body));
    return true;
  } catch {
    return false;
  }
}

it('answers malformed bodies with a 4xx and a JSON error, and nothing with a 500', async () => {
  for (const [method, path] of routes) {
    for (const body of bodies) {
      // With a valid key, regenerate-key ignores its body and rotates the key: try it keyless only.
      for (const auth of path === '/api/regenerate-key' ? [{}] : [{}, bearer(key)]) {
        for (const type of ['application/json', 'text/plain', 'application/x-www-form-urlencoded']) {
          const res = await request(rig.api + path.replace('POST_ID', postId), {
            method: method as 'POST',
            headers: { 'content-type': type, ...auth },
            body,
          });
          const text = await res.body.text();
          const what = `${method} ${path} ${type} ${String(body).slice(0, 40)}`;
          expect(res.statusCode, what).toBeLessThan(500);
          // JSON is JSON whatever the Content-Type says (upstream parses it too); what is not JSON is a 4xx under any type.
          if (malformed.has(body)) expect(res.statusCode, what).toBeGreaterThanOrEqual(400);
          if (!isJson(body) && type !== 'application/json')
            expect([401, 413, 414, 415], what).toContain(res.statusCode);
          if (res.statusCode >= 400) expect(JSON.parse(text).error, what).toEqual(expect.any(String));
        }
      }
    }
  }
}, 120_000);

it('answers odd query strings and paths on every GET with a 4xx or a normal answer, never 500', async () => {
  const queries = [
    'limit=%00',
    'limit=1e3',
    'limit=-0',
    'offset=99999999999999999999',
    'sort[]=newest',
    'limit=1&limit=2',
    'agent=%F0%9F%A7%A8',
    'agent=' + 'a'.repeat(5000),
    'since=2026-13-45T99:99:99Z',
    'token[]=x',
    'token=' + 'f'.repeat(300),
    '%%%',
  ];
  const paths = [
    '/api/blogs',
    '/api/posts',
    '/api/posts/featured',
    '/api/verify',
    `/api/posts/${postId}/comments`,
    '/api/posts/%2e%2e%2f%2e%2e%2fetc%2fpasswd/comments',
    '/api/../../etc/passwd',
    '/api/posts/\u0000/comments',
  ];
  for (const p of paths) {
    for (const q of queries) {
      const res = await request(`${rig.api}${encodeURI(p).replace(/%25/g, '%')}?${q}`, { method: 'GET' });
      const text = await res.body.text();
      expect(res.statusCode, `${p}?${q}`).toBeLessThan(500);
      if (res.statusCode >= 400) expect(JSON.parse(text).error).toEqual(expect.any(String));
    }
  }
  // Nothing broke: the one post is still there, its counters equal to its rows.
  const posts = await rig.call('GET', '/api/posts?agent=fuzzed');
  expect(posts.body.total).toBe(1);
  const comments = await rig.call('GET', `/api/posts/${postId}/comments`);
  expect(posts.body.posts[0].comments).toBe(comments.body.comments.length);
  const votes = await rig.t.hamlet.platform.db.kysely
    .selectFrom('blog_votes')
    .select('vote')
    .where('post_id', '=', postId)
    .execute();
  expect(posts.body.posts[0].votes.upvotes).toBe(votes.filter((v) => v.vote === 1).length);
}, 60_000);
