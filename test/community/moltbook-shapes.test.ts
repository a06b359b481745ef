// The Moltbook fields and routes of issue 13: `submolt` beside `community` in every post and
// comment answer, the full registration answer and the claim flow, the alias routes, vote
// removal, comment sort `old`, search's {posts, agents, submolts}, seeded communities.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, startCommunity, wrap, type Community } from './helpers.js';

let c: Community;
let alpha: { key: string; id: string; name: string };
let beta: { key: string; id: string; name: string };
let post: any;

const ref = (x: any) => ({ id: x.id, name: x.name, display_name: x.display_name });

beforeAll(async () => {
  c = await startCommunity();
  alpha = await c.register('shape_alpha');
  beta = await c.register('shape_beta');
  post = await c.createPost(alpha.key, 'general', 'Shapes and sizes', {
    community_id: undefined,
    submolt: 'general',
    content: 'about shapes',
  });
});
afterAll(async () => {
  await c.t.destroy();
});

describe('submolt beside community', () => {
  it('in every post answer: create, get, lists, community lists, feed, search, profile', async () => {
    const general = (await c.call('GET', '/api/v1/submolts/general', { key: beta.key })).body.submolt;
    const expected = ref(general);
    expect(post.community).toEqual(expected);
    expect(post.submolt).toEqual(expected);
    await c.call('POST', '/api/v1/submolts/general/subscribe', { key: beta.key });
    const answers = [
      (await c.call('GET', `/api/v1/posts/${post.id}`, { key: beta.key })).body.post,
      (await c.call('GET', '/api/v1/posts?sort=new', { key: beta.key })).body.posts[0],
      (await c.call('GET', '/api/v1/posts?submolt=general', { key: beta.key })).body.posts[0],
      (await c.call('GET', '/api/v1/communities/general/feed', { key: beta.key })).body.posts[0],
      (await c.call('GET', '/api/v1/submolts/general/posts?sort=new', { key: beta.key })).body.posts[0],
      (await c.call('GET', '/api/v1/feed', { key: beta.key })).body.posts[0],
      (await c.call('GET', '/api/v1/search?q=shapes', { key: beta.key })).body.posts[0],
      (await c.call('GET', '/api/v1/search?q=shapes', { key: beta.key })).body.results.find(
        (r: any) => r.type === 'post',
      ),
      (await c.call('GET', `/api/v1/agents/${alpha.name}`, { key: beta.key })).body.recentPosts[0],
      (await c.call('GET', `/api/v1/agents/${alpha.name}/posts`, { key: beta.key })).body.posts[0],
    ];
    for (const p of answers) {
      expect(p.id).toBe(post.id);
      expect(p.submolt).toEqual(expected);
      expect(p.community).toEqual(expected);
    }
  });

  it('in every comment answer: create, get, the tree at every depth', async () => {
    const top = (
      await c.call('POST', `/api/v1/posts/${post.id}/comments`, { key: beta.key, body: { content: 'first' } })
    ).body.comment;
    const reply = (
      await c.call('POST', `/api/v1/posts/${post.id}/comments`, {
        key: alpha.key,
        body: { content: 'second', parent_id: top.id },
      })
    ).body.comment;
    const expected = { ...post.community };
    const tree = (await c.call('GET', `/api/v1/posts/${post.id}/comments`, { key: beta.key })).body.comments;
    for (const cm of [
      top,
      reply,
      (await c.call('GET', `/api/v1/comments/${reply.id}`, { key: beta.key })).body.comment,
      tree[0],
      tree[0].replies[0],
    ]) {
      expect(cm.submolt).toEqual(expected);
      expect(cm.community).toEqual(expected);
    }
    // The reference's choice: `author` is an object; the string is `author_name` beside it.
    expect(reply.author).toEqual({ id: alpha.id, name: alpha.name });
    expect(reply.author_name).toBe(alpha.name);
  });
});

describe('registration and claim', () => {
  it('answers every field Moltbook returns, with a real claim URL and code', async () => {
    const r = await c.call('POST', '/api/v1/agents/register', {
      body: { name: 'Claimable', description: 'wants an owner' },
    });
    expect(r.status).toBe(201);
    const b = r.body;
    expect(b).toMatchObject({
      success: true,
      status: 'pending_claim',
      important: expect.stringMatching(/Save your API key/),
    });
    expect(b.message).toMatch(/claim/i);
    expect(b.agent.claim_url).toMatch(new RegExp(`^${c.base}/claim/hamlet_claim_[A-Za-z0-9_-]{32}$`));
    expect(b.agent.verification_code).toMatch(/^[a-z]+-[0-9A-F]{4}$/);
    expect(b.tweet_template).toContain(b.agent.verification_code);
    expect(b.agent.profile_url).toBe(`${c.base}/u/claimable`);
    expect(Date.parse(b.agent.created_at)).not.toBeNaN();
    expect(b.agent).toMatchObject({
      name: 'claimable',
      display_name: 'Claimable',
      api_key: expect.stringMatching(/^hamlet_community_/),
    });
    // The claim token is kept as a hash only.
    const token = b.agent.claim_url.split('/claim/')[1];
    const row = await c.t.hamlet.platform.db.kysely
      .selectFrom('community_agents')
      .selectAll()
      .where('name', '=', 'claimable')
      .executeTakeFirst();
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('the owner opens the claim page, types the code, and the status becomes claimed', async () => {
    const b = (
      await c.call('POST', '/api/v1/agents/register', {
        body: { name: 'owned_bot', description: '<script>x</script>' },
      })
    ).body;
    const key = b.agent.api_key;
    const url: string = b.agent.claim_url;
    for (const path of ['/api/v1/agents/status', '/api/v1/claim/status']) {
      expect((await c.call('GET', path, { key })).body).toMatchObject({ status: 'pending_claim', claimed_at: null });
    }
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('owned_bot');
    expect(html).not.toContain(b.agent.verification_code); // the page asks for it, never shows it
    const form = (fields: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
    const wrong = await form({ verification_code: 'reef-0000' });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('does not match');
    expect((await c.call('GET', '/api/v1/agents/me', { key })).body.agent.status).toBe('pending_claim');
    const badHandle = await form({ verification_code: b.agent.verification_code, owner: '<b>me</b>' });
    expect(badHandle.status).toBe(400);
    const ok = await form({ verification_code: b.agent.verification_code.toLowerCase(), owner: '@Human_One' });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('is claimed');
    const status = (await c.call('GET', '/api/v1/agents/status', { key })).body;
    expect(status).toMatchObject({ status: 'claimed' });
    expect(status.message).toMatch(/claimed/);
    expect((await c.call('GET', '/api/v1/me', { key })).body.agent).toMatchObject({
      status: 'claimed',
      is_claimed: true,
      isClaimed: true,
    });
    // Opening the link again shows the claimed state; an unknown token is a 404 page.
    expect(await (await fetch(url)).text()).toContain('human_one');
    expect((await fetch(`${c.base}/claim/hamlet_claim_nope`)).status).toBe(404);
  });
});

describe('alias routes', () => {
  it('GET and PUT /me are the agent profile', async () => {
    const me = await c.call('GET', '/api/v1/me', { key: alpha.key });
    expect(me.body.agent).toMatchObject({ id: alpha.id, name: alpha.name, dm_policy: 'open', avatar_url: null });
    const put = await c.call('PUT', '/api/v1/me', { key: alpha.key, body: { description: 'via PUT' } });
    expect(put.body.agent.description).toBe('via PUT');
    expect((await c.call('GET', '/api/v1/agents/me', { key: alpha.key })).body.agent.description).toBe('via PUT');
    const bad = expectEnvelope(
      await c.call('PUT', '/api/v1/me', { key: alpha.key, body: { dm_policy: 'friends' } }),
      400,
      'VALIDATION_ERROR',
    );
    expect(bad.error).toMatch(/dm_policy/);
  });

  it('GET /agents/{name} is the public profile; unknown names 404', async () => {
    const r = await c.call('GET', `/api/v1/agents/${alpha.name.toUpperCase()}`, { key: beta.key });
    expect(r.body).toMatchObject({
      success: true,
      agent: { name: alpha.name, profile_url: `${c.base}/u/${alpha.name}` },
      isFollowing: false,
    });
    expectEnvelope(await c.call('GET', '/api/v1/agents/nobody_here', { key: beta.key }), 404, 'NOT_FOUND');
  });

  it('DELETE /posts/{id}/vote and /comments/{id}/vote remove the vote', async () => {
    await c.call('POST', `/api/v1/posts/${post.id}/upvote`, { key: beta.key });
    const removed = await c.call('DELETE', `/api/v1/posts/${post.id}/vote`, { key: beta.key });
    expect(removed.body).toMatchObject({
      success: true,
      action: 'removed',
      vote: null,
      post: { upvotes: 0, downvotes: 0, score: 0 },
    });
    expect((await c.call('DELETE', `/api/v1/posts/${post.id}/vote`, { key: beta.key })).body.action).toBe('unchanged');
    expect((await c.call('GET', `/api/v1/posts/${post.id}`, { key: beta.key })).body.post.userVote).toBeNull();
    const comment = (
      await c.call('POST', `/api/v1/posts/${post.id}/comments`, { key: alpha.key, body: { content: 'vote me' } })
    ).body.comment;
    await c.call('POST', `/api/v1/comments/${comment.id}/downvote`, { key: beta.key });
    expect((await c.call('DELETE', `/api/v1/comments/${comment.id}/vote`, { key: beta.key })).body).toMatchObject({
      action: 'removed',
      comment: { downvotes: 0 },
    });
    expectEnvelope(
      await c.call('DELETE', '/api/v1/posts/00000000-0000-4000-8000-000000000000/vote', { key: beta.key }),
      404,
    );
  });

  it('comment sort old is oldest first; an unknown sort names the allowed values', async () => {
    const p = await c.createPost(beta.key, 'general', 'Sorting', { community_id: undefined, submolt: 'general' });
    for (const text of ['one', 'two', 'three'])
      await c.call('POST', `/api/v1/posts/${p.id}/comments`, { key: alpha.key, body: { content: text } });
    const old = (await c.call('GET', `/api/v1/posts/${p.id}/comments?sort=old`, { key: alpha.key })).body;
    expect(old.comments.map((x: any) => x.content)).toEqual(['one', 'two', 'three']);
    const fresh = (await c.call('GET', `/api/v1/posts/${p.id}/comments?sort=new`, { key: alpha.key })).body;
    expect(fresh.comments.map((x: any) => x.content)).toEqual(['three', 'two', 'one']);
    expectEnvelope(
      await c.call('GET', `/api/v1/posts/${p.id}/comments?sort=oldest`, { key: alpha.key }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('search answers posts, agents and submolts, beside the production results list', async () => {
    await c.call('POST', '/api/v1/submolts', {
      key: alpha.key,
      body: { name: 'shapeshifters', display_name: 'Shape Shifters' },
    });
    const r = (await c.call('GET', '/api/v1/search?q=shape', { key: beta.key })).body;
    expect(r).toMatchObject({ success: true, query: 'shape', type: 'all' });
    expect(r.posts.map((p: any) => p.id)).toContain(post.id);
    expect(r.agents.map((a: any) => a.name).sort()).toEqual(['shape_alpha', 'shape_beta']);
    expect(r.agents[0]).toHaveProperty('avatar_url');
    expect(r.submolts.map((s: any) => s.name)).toEqual(['shapeshifters']);
    expect(r.communities).toEqual(r.submolts);
    expect(r.results.length).toBe(r.count);
    // The production form: type=comments leaves posts out of both lists.
    const comments = (await c.call('GET', '/api/v1/search?q=first&type=comments', { key: beta.key })).body;
    expect(comments.posts).toEqual([]);
    expect(comments.results.every((x: any) => x.type === 'comment')).toBe(true);
    expectEnvelope(
      await c.call('GET', '/api/v1/search?q=x&type=everything', { key: beta.key }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('/agents/status carries a message', async () => {
    const r = (await c.call('GET', '/api/v1/agents/status', { key: beta.key })).body;
    expect(r).toMatchObject({ success: true, status: 'pending_claim' });
    expect(typeof r.message).toBe('string');
  });
});

describe('seeded communities', () => {
  it('a fresh start has general and the other defaults, owned by a keyless system agent', async () => {
    const list = (await c.call('GET', '/api/v1/submolts?sort=alphabetical', { key: beta.key })).body.submolts.map(
      (s: any) => s.name,
    );
    expect(list).toEqual(
      expect.arrayContaining(['general', 'introductions', 'announcements', 'todayilearned', 'ponderings']),
    );
    const general = (await c.call('GET', '/api/v1/communities/general', { key: beta.key })).body.community;
    expect(general).toMatchObject({ display_name: 'General', avatar_url: null, banner_url: null });
    expectEnvelope(await c.call('POST', '/api/v1/agents/register', { body: { name: 'hamlet' } }), 409, 'CONFLICT');
  });

  it('seeding is idempotent across restarts, leaves existing ones alone, and an empty setting seeds none', async () => {
    const t = await startCommunity({ env: { COMMUNITY_DEFAULT_COMMUNITIES: 'lobby=The Lobby,general' } });
    let current = t.t;
    try {
      const a = await t.register('seed_checker');
      // The system agent owns seeded communities; an agent is not their moderator.
      expectEnvelope(
        await t.call('PATCH', '/api/v1/communities/lobby/settings', { key: a.key, body: { description: 'x' } }),
        403,
        'FORBIDDEN',
      );
      const names = async (tt: Community, key: string) =>
        (await tt.call('GET', '/api/v1/communities?sort=alphabetical', { key })).body.communities.map((x: any) => [
          x.name,
          x.display_name,
        ]);
      expect(await names(t, a.key)).toEqual([
        ['general', 'general'],
        ['lobby', 'The Lobby'],
      ]);
      await t.call('POST', '/api/v1/posts', {
        key: a.key,
        body: { submolt: 'lobby', title: 'kept', content: 'across restarts' },
      });
      await t.t.stop();
      current = await t.t.restart({ COMMUNITY_DEFAULT_COMMUNITIES: 'lobby=Renamed Lobby,extra' });
      const t2 = wrap(current);
      expect(await names(t2, a.key)).toEqual([
        ['extra', 'extra'],
        ['general', 'general'],
        ['lobby', 'The Lobby'],
      ]);
      expect(
        (await t2.call('GET', '/api/v1/submolts/lobby/posts', { key: a.key })).body.posts.map((p: any) => p.title),
      ).toEqual(['kept']);
    } finally {
      await current.destroy();
    }
    const none = await startCommunity({ env: { COMMUNITY_DEFAULT_COMMUNITIES: '' } });
    try {
      const a = await none.register('nobody');
      expect((await none.call('GET', '/api/v1/communities', { key: a.key })).body.communities).toEqual([]);
    } finally {
      await none.t.destroy();
    }
  });
});
