// The pure parts: ranking formulas, the comment tree, and the list cache's invalidation.
import { describe, expect, it } from 'vitest';
import { LocalEventBus } from '../../src/platform/events.js';
import { ALL_COMMUNITIES, ListCache } from '../../src/services/community/cache.js';
import { commentTree } from '../../src/services/community/views/comment-tree.js';
import { controversy, hotRank, rising } from '../../src/services/community/ranking/ranking.js';
import type { CommentRow } from '../../src/services/community/store/comments.js';
import { readSettings } from '../../src/platform/settings.js';
import { readCommunitySettings } from '../../src/services/community/settings.js';
import { ConfigError } from '../../src/platform/settings.js';

describe('ranking', () => {
  it("matches Reddit's hot", () => {
    const t = Date.parse('2026-01-01T00:00:00Z');
    const seconds = t / 1000 - 1134028003;
    expect(hotRank(0, t)).toBeCloseTo(seconds / 45000, 7);
    expect(hotRank(10, t)).toBeCloseTo(1 + seconds / 45000, 7);
    expect(hotRank(-10, t)).toBeCloseTo(-1 + seconds / 45000, 7);
    expect(hotRank(1, t)).toBe(hotRank(0, t));
    // Ten times the score is worth 45,000 seconds.
    expect(hotRank(100, t)).toBeCloseTo(hotRank(10, t + 45_000_000), 6);
    expect(Number.isInteger(hotRank(7, t) * 1e7)).toBe(true);
  });

  it("matches Reddit's controversial and Moltbook's rising", () => {
    expect(controversy(10, 0)).toBe(0);
    expect(controversy(0, 3)).toBe(0);
    expect(controversy(5, 5)).toBe(10);
    expect(controversy(8, 2)).toBeCloseTo(10 ** 0.25, 10);
    expect(controversy(50, 50)).toBeGreaterThan(controversy(60, 10));
    expect(rising(0, 0, 0)).toBeCloseTo(1 / 2 ** 1.5, 10);
    expect(rising(5, 0, 3_600_000 * 2)).toBeCloseTo(6 / 4 ** 1.5, 10);
  });
});

function row(id: string, parent: string | null, opts: Partial<CommentRow> = {}): CommentRow {
  return {
    id,
    post_id: 'p',
    parent_id: parent,
    content: id,
    upvotes: 0,
    downvotes: 0,
    score: 0,
    depth: 0,
    is_deleted: 0,
    created_at: `2026-01-01T00:00:0${id.length}.000Z`,
    author_id: 'a',
    author_name: 'a',
    author_display_name: 'A',
    community_id: 'c',
    community_name: 'general',
    community_display_name: 'General',
    ...opts,
  };
}

describe('comment tree', () => {
  const rows = [
    row('a', null, { score: 1, upvotes: 1 }),
    row('b', null, { score: 5, upvotes: 5 }),
    row('c', null, { upvotes: 4, downvotes: 4 }),
    row('aa', 'a'),
    row('aaa', 'aa'),
    row('orphan', 'gone'),
  ];

  it('orders siblings by the sort and nests replies', () => {
    const { comments, count } = commentTree(rows, 'top', 100);
    expect(comments.map((c) => c.id)).toEqual(['b', 'a', 'c', 'orphan']);
    expect(comments[1].replies[0].id).toBe('aa');
    expect(comments[1].replies[0].replies[0].id).toBe('aaa');
    expect(count).toBe(6);
    expect(commentTree(rows, 'controversial', 100).comments[0].id).toBe('c');
    expect(commentTree(rows, 'new', 100).comments[0].id).toBe('orphan');
  });

  it('applies the limit depth-first so no reply loses its parent', () => {
    const { comments, count } = commentTree(rows, 'top', 3);
    expect(count).toBe(3);
    expect(comments.map((c) => c.id)).toEqual(['b', 'a']);
    expect(comments[1].replies.map((c) => c.id)).toEqual(['aa']);
    expect(comments[1].replies[0].replies).toEqual([]);
  });
});

describe('list cache', () => {
  it('serves from memory until a write on any instance invalidates it', async () => {
    const bus = new LocalEventBus();
    const here = new ListCache(bus, 100);
    const there = new ListCache(bus, 100);
    let computed = 0;
    const page = async () => (await here.list(ALL_COMMUNITIES, 'hot', async () => `v${++computed}`)).toString();
    expect(await page()).toBe('v1');
    expect(await page()).toBe('v1');
    await there.invalidate({ communityId: 'c1' });
    expect(await page()).toBe('v2');
    // A write in one community keeps other communities' pages, drops its own and the global ones.
    const inCommunity = async (id: string) =>
      (await here.list(id, 'hot', async () => `${id}:${++computed}`)).toString();
    const c1 = await inCommunity('c1');
    const c2 = await inCommunity('c2');
    await there.invalidate({ communityId: 'c1' });
    expect(await inCommunity('c1')).not.toBe(c1);
    expect(await inCommunity('c2')).toBe(c2);
    expect(await page()).not.toBe('v2');
    // A comment tree is dropped only for its own post.
    const tree = async (post: string) =>
      (await here.commentTree(post, 'top', async () => `${post}${++computed}`)).toString();
    const p1 = await tree('p1');
    const p2 = await tree('p2');
    await there.invalidate({ postId: 'p1' });
    expect(await tree('p1')).not.toBe(p1);
    expect(await tree('p2')).toBe(p2);
    here.close();
    there.close();
  });

  it('drops a page computed before an invalidation that landed while it was computed', async () => {
    const cache = new ListCache(new LocalEventBus(), 100);
    let release!: () => void;
    const slow = cache.list('c', 'k', () => new Promise<string>((r) => (release = () => r('stale'))));
    await cache.invalidate({ communityId: 'c' });
    release();
    expect((await slow).toString()).toBe('stale');
    expect((await cache.list('c', 'k', async () => 'fresh')).toString()).toBe('fresh');
  });

  it('a vote drops only the pages it can change: the voted post on them, or its rank crossing their range', async () => {
    const cache = new ListCache(new LocalEventBus(), 100);
    let n = 0;
    // Front page: posts a, b with hot 10 and 9; second page: c, d with hot 8 and 7; a "new" page with a, c.
    const pages = {
      front: { sort: 'hot' as const, ids: ['a', 'b'], low: 9, high: 10 },
      second: { sort: 'hot' as const, ids: ['c', 'd'], low: 7, high: 8 },
      newest: { sort: 'new' as const, ids: ['a', 'c'], low: 0, high: 0 },
      top: { sort: 'top' as const, ids: ['a', 'b'], low: 5, high: 9 },
    };
    const read = async (key: keyof typeof pages) =>
      (await cache.list(ALL_COMMUNITIES, key, async () => ({ body: `${key}${++n}`, meta: pages[key] }))).toString();
    const snapshot = async () =>
      Object.fromEntries(
        await Promise.all(Object.keys(pages).map(async (k) => [k, await read(k as keyof typeof pages)])),
      );
    const vote = (postId: string, hot: [number, number], score: [number, number]) =>
      cache.invalidate({
        vote: {
          postId,
          communityId: 'c1',
          before: { hot: hot[0], score: score[0] },
          after: { hot: hot[1], score: score[1] },
          counts: { upvotes: 0, downvotes: 0, score: score[1] },
        },
      });
    const changed = async (action: () => Promise<void>) => {
      const before = await snapshot();
      await action();
      const after = await snapshot();
      return Object.keys(pages)
        .filter((k) => before[k] !== after[k])
        .sort();
    };
    // A post far below every page, staying there: nothing changes.
    expect(await changed(() => vote('z', [1, 1.3], [0, 1]))).toEqual([]);
    // A post on the front page: its pages (front, new, top) change; the second page stays.
    expect(await changed(() => vote('a', [10, 10.3], [5, 6]))).toEqual(['front', 'newest', 'top']);
    // A post from below climbing into the second page's range: that page only.
    expect(await changed(() => vote('z', [6.9, 7.2], [1, 2]))).toEqual(['second']);
    // A post leaving the front page for below the second page crosses both ranges.
    expect(await changed(() => vote('b', [9, 6], [1, 0]))).toEqual(['front', 'second', 'top']);
    // Pages without a description (pages for people) are dropped by any vote in their group.
    const html = async () => (await cache.list(ALL_COMMUNITIES, 'page|front', async () => `html${++n}`)).toString();
    const h = await html();
    await vote('z', [1, 1], [0, 1]);
    expect(await html()).not.toBe(h);
    // Other communities' pages are untouched by a vote in c1.
    const other = async () =>
      (await cache.list('c2', 'hot', async () => ({ body: `c2-${++n}`, meta: pages.front }))).toString();
    const o = await other();
    await vote('a', [10, 11], [6, 7]);
    expect(await other()).toBe(o);
    cache.close();
  });

  it('concurrent misses of one page share one computation', async () => {
    const cache = new ListCache(new LocalEventBus(), 100);
    let computations = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const compute = async () => {
      computations++;
      await gate;
      return 'page';
    };
    const readers = Array.from({ length: 10 }, () => cache.list(ALL_COMMUNITIES, 'hot', compute));
    release();
    expect((await Promise.all(readers)).map(String)).toEqual(Array(10).fill('page'));
    expect(computations).toBe(1);
    cache.close();
  });

  it('can be turned off', async () => {
    const cache = new ListCache(new LocalEventBus(), 0);
    let n = 0;
    await cache.list('c', 'k', async () => String(++n));
    expect((await cache.list('c', 'k', async () => String(++n))).toString()).toBe('2');
    await cache.commentTree('p', 'k', async () => String(++n));
    expect((await cache.commentTree('p', 'k', async () => String(++n))).toString()).toBe('4');
  });
});

describe('config', () => {
  it('reads the default communities: names with optional display names; empty means none; bad names are reported', () => {
    const read = (v: string) =>
      readSettings(readCommunitySettings, { COMMUNITY_DEFAULT_COMMUNITIES: v }).defaultCommunities;
    expect(read('')).toEqual([]);
    expect(read(' lobby = The Lobby , Misc ')).toEqual([
      { name: 'lobby', display_name: 'The Lobby', description: '' },
      { name: 'misc', display_name: 'misc', description: '' },
    ]);
    expect(() => read('ok,Not Valid!')).toThrow(ConfigError);
  });

  it('has defaults and reports bad values', () => {
    // COMMUNITY_TRUST_PROXY is the platform's now (an alias of HAMLET_TRUST_PROXY; see test/platform/edge.test.ts).
    expect(readSettings(readCommunitySettings, {})).toMatchObject({
      port: 4200,
      maxCommentDepth: 10,
      listCacheEntries: 5000,
      publicUrl: undefined,
    });
    expect(readSettings(readCommunitySettings, {}).defaultCommunities.map((d) => d.name)).toEqual([
      'general',
      'introductions',
      'announcements',
      'todayilearned',
      'ponderings',
    ]);
    expect(
      readSettings(readCommunitySettings, { COMMUNITY_MAX_COMMENT_DEPTH: '3', COMMUNITY_LIST_CACHE_ENTRIES: '0' }),
    ).toMatchObject({
      maxCommentDepth: 3,
      listCacheEntries: 0,
    });
    try {
      readSettings(readCommunitySettings, { COMMUNITY_MAX_COMMENT_DEPTH: 'deep', COMMUNITY_LIST_CACHE_ENTRIES: '-1' });
      expect.fail('should throw');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).problems).toHaveLength(2);
    }
  });
});
