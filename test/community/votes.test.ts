// Votes: the contract's idempotent /vote, Moltbook's toggles, self-votes, karma, hot ranking
// kept in step, and the races that broke Moltbook's scoreboard (reference 11.1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { hotRank } from '../../src/services/community/ranking/ranking.js';
import { VoteStore } from '../../src/services/community/store/votes.js';
import { expectEnvelope, startCommunity, type Community } from './helpers.js';

const clock = new ManualClock('2026-03-01T12:00:00.000Z');
let c: Community;
let author: { key: string; id: string; name: string };
let voter: { key: string; id: string; name: string };
let communityId: string;

beforeAll(async () => {
  c = await startCommunity({ clock });
  author = await c.register('author');
  voter = await c.register('voter');
  communityId = (await c.createCommunity(author.key, 'votes')).id;
});
afterAll(async () => {
  await c.t.destroy();
});

/** What the votes table says about an item, and what the item's row says. */
async function truth(type: 'post' | 'comment', id: string) {
  const db = c.t.hamlet.platform.db.kysely;
  const votes = await db
    .selectFrom('community_votes')
    .select(['agent_id', 'value'])
    .where('target_type', '=', type)
    .where('target_id', '=', id)
    .execute();
  const row = await db
    .selectFrom(type === 'post' ? 'community_posts' : 'community_comments')
    .select(['upvotes', 'downvotes', 'score'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const ups = votes.filter((v: any) => v.value === 1).length;
  const downs = votes.filter((v: any) => v.value === -1).length;
  return { votes, row, table: { upvotes: ups, downvotes: downs, score: ups - downs } };
}

const vote = (key: string, id: string, direction: string, type = 'posts') =>
  c.call('POST', `/api/v1/${type}/${id}/vote`, { key, body: { direction } });

describe('/vote sets the vote idempotently', () => {
  it('up, up again, down, none', async () => {
    const post = await c.createPost(author.key, communityId, 'Set');
    const listed = async (path: string) =>
      (await c.call('GET', path, { key: voter.key })).body.posts.find((p: any) => p.id === post.id);
    // Both the global and the community listing are cached before the vote...
    expect((await listed('/api/v1/posts?sort=new')).upvotes).toBe(0);
    expect((await listed('/api/v1/posts?sort=new&submolt=votes')).upvotes).toBe(0);
    let r = await vote(voter.key, post.id, 'up');
    // ...and both show it after.
    expect((await listed('/api/v1/posts?sort=new')).upvotes).toBe(1);
    expect((await listed('/api/v1/posts?sort=new&submolt=votes')).upvotes).toBe(1);
    expect(r.body).toMatchObject({
      success: true,
      action: 'upvoted',
      vote: 'up',
      post: { upvotes: 1, downvotes: 0, score: 1 },
    });
    r = await vote(voter.key, post.id, 'up');
    expect(r.body).toMatchObject({ action: 'unchanged', vote: 'up', post: { upvotes: 1, downvotes: 0, score: 1 } });
    r = await vote(voter.key, post.id, 'down');
    expect(r.body).toMatchObject({ action: 'changed', vote: 'down', post: { upvotes: 0, downvotes: 1, score: -1 } });
    r = await vote(voter.key, post.id, 'none');
    expect(r.body).toMatchObject({ action: 'removed', vote: null, post: { upvotes: 0, downvotes: 0, score: 0 } });
    r = await vote(voter.key, post.id, 'none');
    expect(r.body.action).toBe('unchanged');
    const t = await truth('post', post.id);
    expect(t.row).toEqual(t.table);
  });

  it('rejects bad directions, unknown items, bad ids and self-votes', async () => {
    const post = await c.createPost(author.key, communityId, 'Bad');
    expectEnvelope(await vote(voter.key, post.id, 'sideways'), 400, 'VALIDATION_ERROR');
    expectEnvelope(
      await c.call('POST', `/api/v1/posts/${post.id}/vote`, { key: voter.key, body: {} }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(await vote(voter.key, '00000000-0000-4000-8000-000000000000', 'up'), 404, 'NOT_FOUND');
    expectEnvelope(await vote(voter.key, 'not-a-uuid', 'up'), 400, 'VALIDATION_ERROR');
    for (const path of ['vote', 'upvote', 'downvote']) {
      const b = expectEnvelope(
        await c.call('POST', `/api/v1/posts/${post.id}/${path}`, { key: author.key, body: { direction: 'up' } }),
        400,
      );
      expect(b.error).toBe('Cannot vote on your own content');
    }
    expect((await truth('post', post.id)).votes).toEqual([]);
  });
});

describe("Moltbook's toggles", () => {
  it('upvote, upvote again removes, downvote then upvote changes; one row shared with /vote', async () => {
    const post = await c.createPost(author.key, communityId, 'Toggle');
    const up = () => c.call('POST', `/api/v1/posts/${post.id}/upvote`, { key: voter.key, body: {} });
    const down = () => c.call('POST', `/api/v1/posts/${post.id}/downvote`, { key: voter.key });
    expect((await up()).body).toMatchObject({
      success: true,
      message: 'Upvoted!',
      action: 'upvoted',
      author: { name: 'author' },
      upvotes: 1,
    });
    expect((await up()).body).toMatchObject({ message: 'Vote removed!', action: 'removed', upvotes: 0 });
    expect((await down()).body).toMatchObject({ message: 'Downvoted!', action: 'downvoted', downvotes: 1, score: -1 });
    expect((await up()).body).toMatchObject({ message: 'Vote changed!', action: 'changed', upvotes: 1, downvotes: 0 });
    expect((await vote(voter.key, post.id, 'up')).body.action).toBe('unchanged');
    const t = await truth('post', post.id);
    expect(t.votes).toHaveLength(1);
    expect(t.row).toEqual(t.table);
  });

  it('works on comments too, and moves the author’s karma', async () => {
    const before = (await c.call('GET', '/api/v1/agents/me', { key: author.key })).body.agent.karma;
    const post = await c.createPost(voter.key, communityId, 'Host');
    const cm = (
      await c.call('POST', `/api/v1/posts/${post.id}/comments`, { key: author.key, body: { content: 'vote me' } })
    ).body.comment;
    expect((await c.call('POST', `/api/v1/comments/${cm.id}/upvote`, { key: voter.key })).body.action).toBe('upvoted');
    expect((await c.call('GET', '/api/v1/agents/me', { key: author.key })).body.agent.karma).toBe(before + 1);
    expect((await vote(voter.key, cm.id, 'down', 'comments')).body).toMatchObject({
      action: 'changed',
      comment: { upvotes: 0, downvotes: 1, score: -1 },
    });
    expect((await c.call('GET', '/api/v1/agents/me', { key: author.key })).body.agent.karma).toBe(before - 1);
    expect((await c.call('POST', `/api/v1/comments/${cm.id}/downvote`, { key: voter.key })).body.action).toBe(
      'removed',
    );
    expect((await c.call('GET', '/api/v1/agents/me', { key: author.key })).body.agent.karma).toBe(before);
    const tree = await c.call('GET', `/api/v1/posts/${post.id}/comments`, { key: voter.key });
    expect(tree.body.comments[0]).toMatchObject({ upvotes: 0, downvotes: 0, score: 0 });
    expectEnvelope(await c.call('POST', `/api/v1/comments/${cm.id}/upvote`, { key: author.key }), 400);
    expectEnvelope(
      await c.call('POST', `/api/v1/comments/00000000-0000-4000-8000-000000000000/upvote`, { key: author.key }),
      404,
    );
  });
});

describe('hot ranking', () => {
  it('stores Reddit’s hot in the row, updated by every vote, and lists by it', async () => {
    const com = await c.createCommunity(author.key, 'hotness');
    const old = await c.createPost(author.key, com.id, 'old');
    clock.advance(12.5 * 3_600_000); // 45,000 s: worth one order of magnitude of score
    await c.createPost(author.key, com.id, 'fresh');
    const list = async () =>
      (await c.call('GET', `/api/v1/posts?sort=hot&submolt=hotness`, { key: voter.key })).body.posts.map(
        (p: any) => p.title,
      );
    expect(await list()).toEqual(['fresh', 'old']);
    // Ten upvotes on the old post outweigh 12.5 hours exactly; eleven put it ahead.
    const voters = await Promise.all(Array.from({ length: 11 }, (_, i) => c.register(`hv${i}`)));
    for (const v of voters.slice(0, 10)) await vote(v.key, old.id, 'up');
    const db = c.t.hamlet.platform.db.kysely;
    const row = await db
      .selectFrom('community_posts')
      .select(['hot', 'created_at'])
      .where('id', '=', old.id)
      .executeTakeFirstOrThrow();
    expect(row.hot).toBeCloseTo(hotRank(10, Date.parse(row.created_at)), 6);
    await vote(voters[10].key, old.id, 'up');
    expect(await list()).toEqual(['old', 'fresh']);
    // A downvoted post sinks below a newer neutral one.
    for (const v of voters) await vote(v.key, old.id, 'down');
    expect(await list()).toEqual(['fresh', 'old']);
    const top = (await c.call('GET', `/api/v1/posts?sort=top&submolt=hotness`, { key: voter.key })).body.posts.map(
      (p: any) => p.title,
    );
    expect(top).toEqual(['fresh', 'old']);
  });

  it('rising favours young posts with votes, over the last 48 hours only', async () => {
    const com = await c.createCommunity(author.key, 'risers');
    const ancient = await c.createPost(author.key, com.id, 'ancient');
    const voters = await Promise.all(Array.from({ length: 3 }, (_, i) => c.register(`rv${i}`)));
    for (const v of voters) await vote(v.key, ancient.id, 'up');
    clock.advance(49 * 3_600_000);
    const young = await c.createPost(author.key, com.id, 'young');
    clock.advance(3_600_000);
    const younger = await c.createPost(author.key, com.id, 'younger');
    await vote(voters[0].key, young.id, 'up');
    const titles = (await c.call('GET', `/api/v1/posts?sort=rising&submolt=risers`, { key: voter.key })).body.posts.map(
      (p: any) => p.title,
    );
    expect(titles).toEqual(['young', 'younger']);
    void younger;
  });
});

describe('vote races', () => {
  it(
    '50 agents voting concurrently on one post leave counters equal to the votes table',
    { timeout: 120_000 },
    async () => {
      const post = await c.createPost(author.key, communityId, 'Race');
      const agents = await Promise.all(Array.from({ length: 50 }, (_, i) => c.register(`racer${i}`)));
      const karmaBefore = (await c.call('GET', '/api/v1/agents/me', { key: author.key })).body.agent.karma;
      const results = await Promise.all(
        agents.map((a, i) =>
          i % 5 === 0
            ? c.call('POST', `/api/v1/posts/${post.id}/downvote`, { key: a.key })
            : vote(a.key, post.id, 'up'),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
      const t = await truth('post', post.id);
      expect(t.table).toEqual({ upvotes: 40, downvotes: 10, score: 30 });
      expect(t.row).toEqual(t.table);
      const karmaAfter = (await c.call('GET', '/api/v1/agents/me', { key: author.key })).body.agent.karma;
      expect(karmaAfter - karmaBefore).toBe(30);
    },
  );

  it('one agent sending 50 parallel votes counts once', async () => {
    const post = await c.createPost(author.key, communityId, 'Spam');
    const results = await Promise.all(Array.from({ length: 50 }, () => vote(voter.key, post.id, 'up')));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(results.filter((r) => r.body.action === 'upvoted')).toHaveLength(1);
    let t = await truth('post', post.id);
    expect(t.table).toEqual({ upvotes: 1, downvotes: 0, score: 1 });
    expect(t.row).toEqual(t.table);

    // 50 parallel toggles: whatever order they land in, the row agrees with the table.
    const toggles = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        c.call('POST', `/api/v1/posts/${post.id}/${i % 2 ? 'upvote' : 'downvote'}`, { key: voter.key }),
      ),
    );
    expect(toggles.every((r) => r.status === 200)).toBe(true);
    t = await truth('post', post.id);
    expect(t.votes.length).toBeLessThanOrEqual(1);
    expect(t.row).toEqual(t.table);
  });

  it('the Kysely executor (PostgreSQL, and SQLite while the connection is busy) holds the same invariant', async () => {
    const post = await c.createPost(author.key, communityId, 'Kysely path');
    const platform = c.t.hamlet.platform;
    // No raw handle: every vote goes through Kysely's transaction, as on PostgreSQL.
    const votes = new VoteStore({ ...platform.db, sqlite: undefined }, platform.clock);
    const agents = await Promise.all(Array.from({ length: 20 }, (_, i) => c.register(`ky${i}`)));
    const outcomes = await Promise.all([
      ...agents.map((a, i) => votes.cast(a.id, 'post', post.id, { mode: 'set', value: i % 4 === 0 ? -1 : 1 })),
      ...Array.from({ length: 20 }, () => votes.cast(voter.id, 'post', post.id, { mode: 'toggle', value: 1 })),
    ]);
    expect(outcomes).toHaveLength(40);
    const t = await truth('post', post.id);
    expect(t.row).toEqual(t.table);
    expect(t.table.downvotes).toBe(5);
    await expect(votes.cast(author.id, 'post', post.id, { mode: 'set', value: 1 })).rejects.toThrow(
      'Cannot vote on your own content',
    );
  });
});
