// Community benchmark: 100k posts in 50 communities and 1M votes, seeded straight into
// SQLite in big transactions, then the hot paths under load: hot and new listings, a
// community feed, a post with 200 comments, votes, and the hot list under a 95/5 read/vote
// mix. Targets: every listing at least 25% of a bare Fastify handler measured in the same
// run (issue 4); the mixed row at least 10% (issue 13).
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { hotRank } from '../src/services/community/ranking/ranking.js';
import { spawnHamlet, type HamletProcess } from '../test/helpers/process.js';
import { load, startHamletForBench, type BenchContext } from './lib.js';

const POSTS = Number(process.env.BENCH_COMMUNITY_POSTS ?? 100_000);
const COMMUNITIES = 50;
const AGENTS = 1000;
const VOTES_PER_POST = Math.round(Number(process.env.BENCH_COMMUNITY_VOTES ?? 1_000_000) / POSTS);
const THREAD_COMMENTS = 200;

interface Seeded {
  communityNames: string[];
  postIds: string[];
  threadId: string;
  votes: number;
}

/** Seeds agents, communities, posts with consistent counters and hot ranks, votes and one 200-comment thread. */
function seed(file: string, nowMs: number): Seeded {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  db.pragma('synchronous = OFF');
  const iso = (ms: number) => new Date(ms).toISOString();
  const agents = Array.from({ length: AGENTS }, () => randomUUID());
  const communities = Array.from({ length: COMMUNITIES }, () => randomUUID());
  const communityNames = communities.map((_, i) => `bench_${i}`);
  const postIds: string[] = [];
  const karma = new Array<number>(AGENTS).fill(0);
  let votes = 0;

  db.transaction(() => {
    const insAgent = db.prepare(
      `INSERT INTO community_agents (id, name, display_name, description, metadata, karma, follower_count, following_count, created_at, last_active)
       VALUES (?, ?, ?, '', NULL, 0, 0, 0, ?, ?)`,
    );
    agents.forEach((id, i) => insAgent.run(id, `seed_${i}`, `Seed ${i}`, iso(nowMs - 90 * 86_400_000), iso(nowMs)));
    const insCommunity = db.prepare(
      `INSERT INTO community_communities (id, name, display_name, description, owner_id, subscriber_count, post_count, created_at)
       VALUES (?, ?, ?, '', ?, 0, ?, ?)`,
    );
    communities.forEach((id, i) =>
      insCommunity.run(
        id,
        communityNames[i],
        `Bench ${i}`,
        agents[i],
        Math.ceil((POSTS - i) / COMMUNITIES),
        iso(nowMs - 60 * 86_400_000),
      ),
    );

    // Votes are generated per post, then written sorted by primary key (appends, not random
    // B-tree inserts); the secondary index is rebuilt once at the end.
    db.exec('DROP INDEX community_votes_target');
    const voteRows: Array<[string, string, number, string]> = [];
    const insPost = db.prepare(
      `INSERT INTO community_posts (id, community_id, author_id, title, content, url, post_type, upvotes, downvotes, score, hot, comment_count, content_html, created_at)
       VALUES (?, ?, ?, ?, ?, NULL, 'text', ?, ?, ?, ?, 0, ?, ?)`,
    );
    for (let i = 0; i < POSTS; i++) {
      const id = randomUUID();
      postIds.push(id);
      const author = i % AGENTS;
      const createdMs = nowMs - Math.floor((((i * 7919) % POSTS) / POSTS) * 30 * 86_400_000);
      let ups = 0;
      let downs = 0;
      for (let j = 0; j < VOTES_PER_POST; j++) {
        const voter = (i * 7 + j * 101) % AGENTS;
        if (voter === author) continue;
        const value = (i + j) % 10 < 7 ? 1 : -1;
        value === 1 ? ups++ : downs++;
        voteRows.push([agents[voter], id, value, iso(createdMs)]);
      }
      karma[author] += ups - downs;
      const content = `Post ${i} in community ${i % COMMUNITIES}. `.repeat(6);
      insPost.run(
        id,
        communities[i % COMMUNITIES],
        agents[author],
        `Benchmark post number ${i}`,
        content,
        ups,
        downs,
        ups - downs,
        hotRank(ups - downs, createdMs),
        `<p>${content}</p>`,
        iso(createdMs),
      );
    }
    voteRows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    const insVote = db.prepare(
      `INSERT INTO community_votes (agent_id, target_type, target_id, value, created_at) VALUES (?, 'post', ?, ?, ?)`,
    );
    for (const v of voteRows) insVote.run(...v);
    votes = voteRows.length;
    db.exec('CREATE INDEX community_votes_target ON community_votes (target_type, target_id)');
    const setKarma = db.prepare('UPDATE community_agents SET karma = ? WHERE id = ?');
    agents.forEach((id, i) => setKarma.run(karma[i], id));
  })();

  // One thread of 200 comments: 50 top-level comments with a chain of 3 replies each.
  const threadId = postIds[0];
  db.transaction(() => {
    const insComment = db.prepare(
      `INSERT INTO community_comments (id, post_id, parent_id, author_id, content, content_html, upvotes, downvotes, score, depth, is_deleted, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, 0, ?)`,
    );
    let n = 0;
    for (let t = 0; t < THREAD_COMMENTS / 4; t++) {
      let parent: string | null = null;
      for (let depth = 0; depth < 4; depth++) {
        const id = randomUUID();
        const text = `Comment ${n} at depth ${depth}: a reasonable remark about the post.`;
        insComment.run(
          id,
          threadId,
          parent,
          agents[(n * 13) % AGENTS],
          text,
          `<p>${text}</p>`,
          n % 7,
          n % 7,
          depth,
          iso(nowMs - (THREAD_COMMENTS - n) * 1000),
        );
        parent = id;
        n++;
      }
    }
    db.prepare('UPDATE community_posts SET comment_count = ? WHERE id = ?').run(THREAD_COMMENTS, threadId);
  })();
  db.exec('ANALYZE');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { communityNames, postIds, threadId, votes };
}

export default async function communityBench(ctx: BenchContext) {
  const hamlet = await startHamletForBench(['community']);
  let uncached: HamletProcess | undefined;
  try {
    const base = hamlet.urls['community api'];
    const started = Date.now();
    const seeded = seed(path.join(hamlet.dataDir, 'hamlet.sqlite'), Date.now());
    console.error(
      `  seeded ${POSTS} posts, ${seeded.votes} votes, ${COMMUNITIES} communities in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    const register = async (name: string) => {
      const res = await fetch(`${base}/api/v1/agents/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      return ((await res.json()) as { agent: { api_key: string } }).agent.api_key;
    };
    const reader = await register('bench_reader');
    const headers = { authorization: `Bearer ${reader}` };
    const target = { ratio: 0.25 };
    // A few hundred requests first, so JIT warm-up and the first (uncached) page stay out of the numbers.
    const warm = async (url: string) => {
      for (let i = 0; i < 30; i++)
        await Promise.all(Array.from({ length: 10 }, () => fetch(url, { headers }).then((r) => r.arrayBuffer())));
    };
    for (const p of [
      '/api/v1/posts?sort=hot',
      '/api/v1/posts?sort=new',
      '/api/v1/communities/bench_7/feed?sort=hot',
      `/api/v1/posts/${seeded.threadId}/comments?limit=500`,
    ]) {
      await warm(base + p);
    }

    ctx.row('GET /api/v1/posts?sort=hot', await load({ url: `${base}/api/v1/posts?sort=hot`, headers }), target);
    ctx.row('GET /api/v1/posts?sort=new', await load({ url: `${base}/api/v1/posts?sort=new`, headers }), target);
    ctx.row(
      'GET /api/v1/communities/bench_7/feed?sort=hot',
      await load({ url: `${base}/api/v1/communities/bench_7/feed?sort=hot`, headers }),
      target,
    );
    ctx.row(
      'GET /api/v1/posts/:id/comments (200 comments)',
      await load({ url: `${base}/api/v1/posts/${seeded.threadId}/comments?limit=500`, headers }),
      target,
    );

    const voters = await Promise.all(Array.from({ length: 20 }, (_, i) => register(`bench_voter_${i}`)));
    let n = 0;
    ctx.row(
      'POST /api/v1/posts/:id/vote',
      await load({
        url: base,
        method: 'POST',
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => {
              const i = n++;
              return {
                ...req,
                path: `/api/v1/posts/${seeded.postIds[(i * 104_729) % seeded.postIds.length]}/vote`,
                headers: { 'content-type': 'application/json', authorization: `Bearer ${voters[i % voters.length]}` },
                body: JSON.stringify({ direction: i % 3 === 0 ? 'down' : 'up' }),
              };
            },
          },
        ],
      }),
      undefined,
      'votes/s on posts across the ranking; each drops or rewrites only the cached pages it changes',
    );

    // The mixed row (issue 13): readers load the hot front page while 1 request in 20 is a vote
    // on a post of that page (people vote on what they see), so every vote changes the page
    // and drops it from the cache. Toggle votes, so each one is a real change.
    const front = (
      (await (await fetch(`${base}/api/v1/posts?sort=hot&limit=25`, { headers })).json()) as {
        posts: Array<{ id: string }>;
      }
    ).posts.map((p) => p.id);
    let m = 0;
    let votesCast = 0;
    const mixed = await load({
      url: base,
      requests: [
        {
          setupRequest: (req) => {
            const i = m++;
            if (i % 20 !== 19) return { ...req, method: 'GET', path: '/api/v1/posts?sort=hot', headers };
            votesCast++;
            const v = Math.floor(i / 20);
            return {
              ...req,
              method: 'POST',
              path: `/api/v1/posts/${front[v % front.length]}/upvote`,
              headers: { 'content-type': 'application/json', authorization: `Bearer ${voters[v % voters.length]}` },
              body: '{}',
            };
          },
        },
      ],
    });
    console.error(`  mixed: ${votesCast} votes among ${m} requests`);
    ctx.row(
      'hot list under a 95/5 read/vote mix (GET /api/v1/posts?sort=hot; every vote on a front-page post changes the cached page)',
      mixed,
      { ratio: 0.1 },
    );

    // The same data with the list cache off (a second process on the same files): what a
    // listing costs when the cache has just been invalidated.
    await hamlet.kill('SIGTERM');
    uncached = await spawnHamlet({
      HAMLET_DATA_DIR: hamlet.dataDir,
      HAMLET_SERVICES: 'community',
      HAMLET_RATE_LIMITS: 'off',
      HAMLET_LOG_LEVEL: 'warn',
      COMMUNITY_PORT: '0',
      COMMUNITY_LIST_CACHE_ENTRIES: '0',
    });
    const cold = uncached.urls['community api'];
    for (const [name, p] of [
      ['GET /api/v1/posts?sort=hot', '/api/v1/posts?sort=hot'],
      ['GET /api/v1/posts?sort=new', '/api/v1/posts?sort=new'],
      ['GET /api/v1/communities/bench_7/feed?sort=hot', '/api/v1/communities/bench_7/feed?sort=hot'],
      ['GET /api/v1/posts/:id/comments (200 comments)', `/api/v1/posts/${seeded.threadId}/comments?limit=500`],
    ] as const) {
      ctx.row(name, await load({ url: cold + p, headers }), undefined, 'list cache off');
    }
  } finally {
    await uncached?.kill('SIGTERM');
    await hamlet.stopAndClean();
  }
}
