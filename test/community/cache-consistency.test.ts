// The list cache under votes: cached pages are kept, dropped or rewritten in memory after each
// vote (cache.ts, http/listing.ts); whatever happened, every page must equal what the
// database says at that moment. Many toggling votes on the posts of the first pages, read
// between votes, then every cached page is compared with a query of the stored rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommunity, type Community } from './helpers.js';

let c: Community;
let posts: string[] = [];
let voters: Array<{ key: string }> = [];

beforeAll(async () => {
  c = await startCommunity({ env: { COMMUNITY_DEFAULT_COMMUNITIES: 'cached' } });
  const author = await c.register('cache_author');
  posts = [];
  for (let i = 0; i < 14; i++)
    posts.push(
      (await c.createPost(author.key, 'cached', `Post ${i}`, { community_id: undefined, submolt: 'cached' })).id,
    );
  voters = await Promise.all(Array.from({ length: 6 }, (_, i) => c.register(`cache_voter_${i}`)));
});
afterAll(async () => {
  await c.t.destroy();
});

const PAGES = [
  '/api/v1/posts?sort=hot&limit=5',
  '/api/v1/posts?sort=hot&limit=5&offset=5',
  '/api/v1/posts?sort=top&limit=5',
  '/api/v1/posts?sort=top&limit=5&offset=5',
  '/api/v1/posts?sort=new&limit=5',
  '/api/v1/submolts/cached/posts?sort=hot&limit=5',
];

/** The page the database gives now, in the API's order. */
async function expected(path: string) {
  const q = new URL(path, 'http://x').searchParams;
  const sort = q.get('sort')!;
  const column = sort === 'hot' ? 'hot' : sort === 'top' ? 'score' : 'created_at';
  const rows = await c.t.hamlet.platform.db.kysely
    .selectFrom('community_posts')
    .select(['id', 'upvotes', 'downvotes', 'score'])
    .orderBy(column, 'desc')
    .orderBy('id', 'desc')
    .limit(Number(q.get('limit')))
    .offset(Number(q.get('offset') ?? 0))
    .execute();
  return rows.map((r: any) => [r.id, r.upvotes, r.downvotes, r.score]);
}

describe('cached listings under votes', () => {
  it('always equal the database', async () => {
    const reader = voters[0];
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 60; round++) {
      // Read every page (caching them), then vote: mostly on what the first pages show.
      await Promise.all(PAGES.map((p) => c.call('GET', p, { key: reader.key })));
      const post = posts[next(3) === 0 ? next(posts.length) : next(6)];
      const voter = voters[next(voters.length)];
      const path = next(2) === 0 ? 'upvote' : 'downvote';
      expect((await c.call('POST', `/api/v1/posts/${post}/${path}`, { key: voter.key })).status).toBe(200);
      if (round % 6 === 5) {
        for (const p of PAGES) {
          const got = (await c.call('GET', p, { key: reader.key })).body.posts.map((x: any) => [
            x.id,
            x.upvotes,
            x.downvotes,
            x.score,
          ]);
          expect(got, `${p} after round ${round}`).toEqual(await expected(p));
        }
      }
    }
  });
});
