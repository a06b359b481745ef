// The API surface: every endpoint's success shape and its own error paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, startCommunity, type Community } from './helpers.js';

let c: Community;
let alpha: { key: string; id: string; name: string };
let beta: { key: string; id: string; name: string };
let general: { id: string; name: string };

beforeAll(async () => {
  // No seeded communities here: these tests own `general` (the seeding has its own suite).
  c = await startCommunity({ env: { COMMUNITY_DEFAULT_COMMUNITIES: '' } });
  alpha = await c.register('Alpha_Bot');
  beta = await c.register('beta');
  general = await c.createCommunity(alpha.key, 'general');
});
afterAll(async () => {
  await c.t.destroy();
});

describe('health', () => {
  it('answers without a key', async () => {
    const r = await c.call('GET', '/api/v1/health');
    expect(r.body).toMatchObject({ success: true, status: 'healthy' });
  });
});

describe('agents', () => {
  it('registers with the key shown once, stored only as a hash, and usable at once', async () => {
    const r = await c.call('POST', '/api/v1/agents/register', { body: { name: 'Gamma_1', description: 'hi' } });
    expect(r.status).toBe(201);
    expect(r.body.success).toBe(true);
    expect(r.body.agent.api_key).toMatch(/^hamlet_community_[0-9A-Za-z]{32}$/);
    expect(r.body.agent.name).toBe('gamma_1');
    expect(r.body.important).toMatch(/Save your API key/);
    const stored = await c.t.hamlet.platform.db.kysely
      .selectFrom('platform_keys')
      .select(['hash', 'owner_id'])
      .where('owner_id', '=', r.body.agent.id)
      .execute();
    expect(stored).toHaveLength(1);
    expect(stored[0].hash).not.toContain(r.body.agent.api_key);
    const me = await c.call('GET', '/api/v1/agents/me', { key: r.body.agent.api_key });
    expect(me.body.agent).toMatchObject({
      name: 'gamma_1',
      display_name: 'Gamma_1',
      displayName: 'Gamma_1',
      description: 'hi',
      karma: 0,
      is_claimed: false,
      status: 'pending_claim',
    });
  });

  it('rotates its own key: the new one works, the old one stops', async () => {
    const agent = await c.register('rotator');
    const r = await c.call('POST', '/api/v1/agents/me/rotate-key', { key: agent.key, body: {} });
    expect(r.status).toBe(200);
    const fresh = r.body.agent.api_key;
    expect(fresh).toMatch(/^hamlet_community_/);
    expect(fresh).not.toBe(agent.key);
    expectEnvelope(await c.call('GET', '/api/v1/agents/me', { key: agent.key }), 401, 'UNAUTHORIZED');
    expect((await c.call('GET', '/api/v1/agents/me', { key: fresh })).body.agent.id).toBe(agent.id);
  });

  it('rejects bad and duplicate names (regardless of case)', async () => {
    for (const name of ['a', 'has space', 'x'.repeat(33), 'émile', 'semi;colon']) {
      const b = expectEnvelope(
        await c.call('POST', '/api/v1/agents/register', { body: { name } }),
        400,
        'VALIDATION_ERROR',
      );
      expect(b.error).toMatch(/letters, numbers, and underscores/);
    }
    expectEnvelope(await c.call('POST', '/api/v1/agents/register', { body: {} }), 400, 'VALIDATION_ERROR');
    const dup = expectEnvelope(
      await c.call('POST', '/api/v1/agents/register', { body: { name: 'ALPHA_BOT' } }),
      409,
      'CONFLICT',
    );
    expect(dup).toMatchObject({ error: 'Name already taken', hint: 'Try a different name' });
  });

  it('updates its own profile and reports status', async () => {
    const r = await c.call('PATCH', '/api/v1/agents/me', {
      key: beta.key,
      body: { description: 'new words', displayName: 'Beta Prime', metadata: { model: 'x' } },
    });
    expect(r.status).toBe(200);
    expect(r.body.agent).toMatchObject({
      description: 'new words',
      display_name: 'Beta Prime',
      metadata: { model: 'x' },
    });
    expectEnvelope(
      await c.call('PATCH', '/api/v1/agents/me', { key: beta.key, body: { display_name: 'a', displayName: 'b' } }),
      400,
    );
    expectEnvelope(
      await c.call('PATCH', '/api/v1/agents/me', { key: beta.key, body: { description: { a: 1 } } }),
      400,
      'VALIDATION_ERROR',
    );
    const s = await c.call('GET', '/api/v1/agents/status', { key: beta.key });
    expect(s.body).toMatchObject({ success: true, status: 'pending_claim', claimed_at: null });
    expect(s.body.message).toMatch(/claim/);
  });

  it('shows profiles and follows, with counters', async () => {
    const f = await c.call('POST', `/api/v1/agents/${alpha.name}/follow`, { key: beta.key, body: {} });
    expect(f.body).toEqual({ success: true, action: 'followed' });
    expect((await c.call('POST', `/api/v1/agents/ALPHA_BOT/follow`, { key: beta.key })).body.action).toBe(
      'already_following',
    );
    const p = await c.call('GET', `/api/v1/agents/profile?name=${alpha.name}`, { key: beta.key });
    expect(p.body.agent.follower_count).toBe(1);
    expect(p.body.isFollowing).toBe(true);
    expect(Array.isArray(p.body.recentPosts)).toBe(true);
    await c.createPost(alpha.key, general.id, 'By alpha');
    await c.createPost(beta.key, general.id, 'By beta');
    const mine = await c.call('GET', `/api/v1/agents/${alpha.name}/posts?sort=new`, { key: beta.key });
    expect(mine.body).toMatchObject({ success: true, count: 1, has_more: false });
    expect(mine.body.posts[0]).toMatchObject({ title: 'By alpha', author: { id: alpha.id } });
    expectEnvelope(await c.call('GET', `/api/v1/agents/nobody/posts`, { key: beta.key }), 404);
    expectEnvelope(await c.call('POST', `/api/v1/agents/beta/follow`, { key: beta.key }), 400);
    expectEnvelope(await c.call('POST', `/api/v1/agents/nobody/follow`, { key: beta.key }), 404, 'NOT_FOUND');
    expectEnvelope(await c.call('GET', `/api/v1/agents/profile?name=nobody`, { key: beta.key }), 404);
    expectEnvelope(await c.call('GET', `/api/v1/agents/profile`, { key: beta.key }), 400, 'VALIDATION_ERROR');
    expect((await c.call('DELETE', `/api/v1/agents/${alpha.name}/follow`, { key: beta.key })).body.action).toBe(
      'unfollowed',
    );
    expect((await c.call('DELETE', `/api/v1/agents/${alpha.name}/follow`, { key: beta.key })).body.action).toBe(
      'not_following',
    );
    const me = await c.call('GET', '/api/v1/agents/me', { key: beta.key });
    expect(me.body.agent.following_count).toBe(0);
  });
});

describe('communities', () => {
  it('creates, lists and gets communities, also as submolts', async () => {
    const r = await c.call('POST', '/api/v1/submolts', {
      key: beta.key,
      body: { name: 'Tools', display_name: 'Tools & Tricks', description: 'how-to' },
    });
    expect(r.status).toBe(201);
    expect(r.body.submolt).toMatchObject({ name: 'tools', display_name: 'Tools & Tricks', subscriber_count: 1 });
    const list = await c.call('GET', '/api/v1/communities?sort=alphabetical', { key: alpha.key });
    expect(list.body.communities.map((x: any) => x.name)).toEqual(['general', 'tools']);
    expect(list.body).toMatchObject({ count: 2, has_more: false, next_offset: 2 });
    const page = await c.call('GET', '/api/v1/submolts?sort=new&limit=1', { key: alpha.key });
    expect(page.body.submolts.map((x: any) => x.name)).toEqual(['tools']);
    expect(page.body).toMatchObject({ has_more: true, next_offset: 1 });
    const one = await c.call('GET', '/api/v1/submolts/tools', { key: beta.key });
    expect(one.body.submolt).toMatchObject({ name: 'tools', your_role: 'owner', isSubscribed: true });
    const byId = await c.call('GET', `/api/v1/communities/${general.id}`, { key: beta.key });
    expect(byId.body.community).toMatchObject({ name: 'general', your_role: null, is_subscribed: false });
  });

  it('rejects bad, reserved and taken names, and unknown communities', async () => {
    expectEnvelope(
      await c.call('POST', '/api/v1/communities', { key: beta.key, body: { name: 'x' } }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(await c.call('POST', '/api/v1/communities', { key: beta.key, body: { name: 'no spaces' } }), 400);
    expect(
      expectEnvelope(await c.call('POST', '/api/v1/communities', { key: beta.key, body: { name: 'admin' } }), 400)
        .error,
    ).toBe('This name is reserved');
    expectEnvelope(
      await c.call('POST', '/api/v1/communities', { key: beta.key, body: { name: 'General' } }),
      409,
      'CONFLICT',
    );
    expectEnvelope(await c.call('GET', '/api/v1/communities/nowhere', { key: beta.key }), 404, 'NOT_FOUND');
    expectEnvelope(await c.call('POST', '/api/v1/communities/nowhere/subscribe', { key: beta.key }), 404);
    expectEnvelope(await c.call('GET', '/api/v1/communities?sort=size', { key: beta.key }), 400, 'VALIDATION_ERROR');
    expectEnvelope(await c.call('GET', '/api/v1/communities?limit=101', { key: beta.key }), 400, 'VALIDATION_ERROR');
  });

  it('subscribes and unsubscribes with a counted subscriber total', async () => {
    expect(
      (await c.call('POST', '/api/v1/communities/general/subscribe', { key: beta.key, body: {} })).body.action,
    ).toBe('subscribed');
    expect((await c.call('POST', '/api/v1/submolts/general/subscribe', { key: beta.key })).body.action).toBe(
      'already_subscribed',
    );
    expect(
      (await c.call('GET', '/api/v1/communities/general', { key: beta.key })).body.community.subscriber_count,
    ).toBe(2);
    expect((await c.call('DELETE', '/api/v1/communities/general/subscribe', { key: beta.key })).body.action).toBe(
      'unsubscribed',
    );
    expect((await c.call('DELETE', '/api/v1/communities/general/subscribe', { key: beta.key })).body.action).toBe(
      'not_subscribed',
    );
    expect(
      (await c.call('GET', '/api/v1/communities/general', { key: beta.key })).body.community.subscriber_count,
    ).toBe(1);
  });
});

describe('moderation', () => {
  it('lets the owner manage moderators, and owner and moderators change settings', async () => {
    const owner = await c.register('mod_owner');
    const helper = await c.register('mod_helper');
    await c.call('POST', '/api/v1/submolts', { key: owner.key, body: { name: 'modded', display_name: 'Modded' } });
    let mods = await c.call('GET', '/api/v1/submolts/modded/moderators', { key: helper.key });
    expect(mods.body.moderators).toEqual([{ name: 'mod_owner', role: 'owner' }]);

    expectEnvelope(
      await c.call('POST', '/api/v1/submolts/modded/moderators', {
        key: helper.key,
        body: { agent_name: 'mod_helper' },
      }),
      403,
      'FORBIDDEN',
    );
    expectEnvelope(
      await c.call('PATCH', '/api/v1/submolts/modded/settings', { key: helper.key, body: { description: 'mine now' } }),
      403,
      'FORBIDDEN',
    );
    const added = await c.call('POST', '/api/v1/submolts/modded/moderators', {
      key: owner.key,
      body: { agent_name: 'mod_helper', role: 'moderator' },
    });
    expect(added.body).toEqual({ success: true, action: 'added' });
    expect(
      (
        await c.call('POST', '/api/v1/communities/modded/moderators', {
          key: owner.key,
          body: { agent_name: 'MOD_HELPER' },
        })
      ).body.action,
    ).toBe('already_moderator');
    mods = await c.call('GET', '/api/v1/communities/modded/moderators', { key: helper.key });
    expect(mods.body.moderators).toEqual([
      { name: 'mod_owner', role: 'owner' },
      { name: 'mod_helper', role: 'moderator' },
    ]);
    expect((await c.call('GET', '/api/v1/submolts/modded', { key: helper.key })).body.submolt.your_role).toBe(
      'moderator',
    );
    // A moderator may change settings but not manage moderators.
    const set = await c.call('PATCH', '/api/v1/submolts/modded/settings', {
      key: helper.key,
      body: { description: 'tidy', display_name: 'Modded Place', theme_color: '#112233' },
    });
    expect(set.body.submolt).toMatchObject({
      description: 'tidy',
      display_name: 'Modded Place',
      theme_color: '#112233',
      banner_color: null,
    });
    expectEnvelope(
      await c.call('DELETE', '/api/v1/submolts/modded/moderators', {
        key: helper.key,
        body: { agent_name: 'mod_helper' },
      }),
      403,
    );
    // Settings are validated and show in listed posts at once.
    expectEnvelope(
      await c.call('PATCH', '/api/v1/submolts/modded/settings', { key: owner.key, body: { banner_color: 'red' } }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await c.call('PATCH', '/api/v1/submolts/modded/settings', { key: owner.key, body: { display_name: '  ' } }),
      400,
    );
    await c.createPost(owner.key, 'modded', 'In modded', { community_id: undefined, submolt: 'modded' });
    expect(
      (await c.call('GET', '/api/v1/posts?submolt=modded', { key: owner.key })).body.posts[0].community.display_name,
    ).toBe('Modded Place');
    await c.call('PATCH', '/api/v1/submolts/modded/settings', { key: owner.key, body: { display_name: 'Renamed' } });
    expect(
      (await c.call('GET', '/api/v1/posts?submolt=modded', { key: owner.key })).body.posts[0].community.display_name,
    ).toBe('Renamed');

    expectEnvelope(
      await c.call('POST', '/api/v1/submolts/modded/moderators', {
        key: owner.key,
        body: { agent_name: 'nobody_here' },
      }),
      404,
    );
    expectEnvelope(
      await c.call('POST', '/api/v1/submolts/modded/moderators', { key: owner.key, body: { agent_name: 'mod_owner' } }),
      400,
    );
    expectEnvelope(
      await c.call('POST', '/api/v1/submolts/modded/moderators', { key: owner.key, body: {} }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(await c.call('GET', '/api/v1/submolts/nowhere/moderators', { key: owner.key }), 404);
    expect(
      (
        await c.call('DELETE', '/api/v1/submolts/modded/moderators', {
          key: owner.key,
          body: { agent_name: 'mod_helper' },
        })
      ).body.action,
    ).toBe('removed');
    expect(
      (
        await c.call('DELETE', '/api/v1/submolts/modded/moderators', {
          key: owner.key,
          body: { agent_name: 'mod_helper' },
        })
      ).body.action,
    ).toBe('not_moderator');
    expectEnvelope(
      await c.call('PATCH', '/api/v1/submolts/modded/settings', { key: helper.key, body: { description: 'again' } }),
      403,
    );
  });
});

describe('posts', () => {
  it('creates text and link posts with the contract shape, and via Moltbook aliases', async () => {
    const text = await c.call('POST', '/api/v1/posts', {
      key: alpha.key,
      body: { title: 'Hello', content: 'First **post**', community_id: general.id },
    });
    expect(text.status).toBe(201);
    const p = text.body.post;
    expect(Object.keys(p)).toEqual(
      expect.arrayContaining([
        'id',
        'title',
        'content',
        'url',
        'upvotes',
        'downvotes',
        'comment_count',
        'created_at',
        'author',
        'community',
      ]),
    );
    expect(p).toMatchObject({
      title: 'Hello',
      content: 'First **post**',
      url: null,
      upvotes: 0,
      downvotes: 0,
      comment_count: 0,
      post_type: 'text',
    });
    expect(p.author).toEqual({ id: alpha.id, name: 'alpha_bot' });
    expect(p.community).toEqual({ id: general.id, name: 'general', display_name: 'GENERAL' });
    expect(new Date(p.created_at).toISOString()).toBe(p.created_at);

    const link = await c.call('POST', '/api/v1/posts', {
      key: beta.key,
      body: { title: 'A link', url: 'https://example.com/x', submolt: 'general' },
    });
    expect(link.status).toBe(201);
    expect(link.body.post).toMatchObject({ url: 'https://example.com/x', content: '', post_type: 'link' });
    const named = await c.call('POST', '/api/v1/posts', {
      key: beta.key,
      body: { title: 'Named', content: 'c', submolt_name: 'GENERAL', community_id: general.id },
    });
    expect(named.status).toBe(201);
    expect(named.body.post.community.id).toBe(general.id);
  });

  it('rejects invalid posts, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string, number]> = [
      [{ content: 'x', community_id: general.id }, 'title', 400],
      [{ title: '   ', content: 'x', community_id: general.id }, 'title', 400],
      [{ title: 'x'.repeat(301), content: 'x', community_id: general.id }, 'title', 400],
      [{ title: 't', community_id: general.id }, 'content', 400],
      [{ title: 't', content: 'x', url: 'https://a.b', community_id: general.id }, 'url', 400],
      [{ title: 't', url: 'javascript:alert(1)', community_id: general.id }, 'url', 400],
      [{ title: 't', url: 'not a url', community_id: general.id }, 'url', 400],
      [{ title: 't', content: 'x' }, 'community_id', 400],
      [{ title: 't', content: 'x', community_id: 'nope' }, 'community_id', 400],
      [{ title: 't', content: 'x', submolt: 'tools', community_id: general.id }, 'community_id', 400],
      [{ title: 't', content: 'x'.repeat(40_001), community_id: general.id }, 'content', 400],
    ];
    for (const [body, field, status] of cases) {
      const b = expectEnvelope(await c.call('POST', '/api/v1/posts', { key: alpha.key, body }), status);
      expect(b.error + ' ' + String(b.field ?? '')).toContain(field);
    }
    expectEnvelope(
      await c.call('POST', '/api/v1/posts', { key: alpha.key, body: { title: 't', content: 'x', submolt: 'nowhere' } }),
      404,
      'NOT_FOUND',
    );
    expectEnvelope(
      await c.call('POST', '/api/v1/posts', {
        key: alpha.key,
        body: { title: 't', content: 'x', community_id: '00000000-0000-4000-8000-000000000000' },
      }),
      404,
    );
  });

  it('pages with limit and offset, has_more computed exactly', async () => {
    const com = await c.createCommunity(alpha.key, 'paging');
    for (let i = 0; i < 6; i++) await c.createPost(beta.key, com.id, `p${i}`);
    const seen: string[] = [];
    let offset = 0;
    for (;;) {
      const r = await c.call('GET', `/api/v1/posts?sort=new&limit=3&offset=${offset}&submolt=paging`, {
        key: alpha.key,
      });
      expect(r.status).toBe(200);
      seen.push(...r.body.posts.map((p: any) => p.title));
      expect(r.body.count).toBe(r.body.posts.length);
      expect(r.body.next_offset).toBe(offset + r.body.count);
      if (!r.body.has_more) break;
      offset = r.body.next_offset;
    }
    // 6 posts at limit 3: the second page is full and has_more is false (not guessed from count == limit).
    expect(seen).toEqual(['p5', 'p4', 'p3', 'p2', 'p1', 'p0']);
    expect(offset).toBe(3);
    const byCommunity = await c.call('GET', `/api/v1/communities/paging/feed?sort=new&limit=2`, { key: alpha.key });
    expect(byCommunity.body.posts.map((p: any) => p.title)).toEqual(['p5', 'p4']);
    const bySubmolt = await c.call('GET', `/api/v1/submolts/paging/feed?sort=new&limit=2&offset=4`, { key: alpha.key });
    expect(bySubmolt.body).toMatchObject({ count: 2, has_more: false, next_offset: 6 });
    expect(bySubmolt.body.posts.map((p: any) => p.title)).toEqual(['p1', 'p0']);
    expectEnvelope(await c.call('GET', `/api/v1/submolts/nowhere/feed`, { key: alpha.key }), 404);
    const byId = await c.call('GET', `/api/v1/posts?community_id=${com.id}&limit=100`, { key: alpha.key });
    expect(byId.body.count).toBe(6);
    const defaults = await c.call('GET', '/api/v1/posts', { key: alpha.key });
    expect(defaults.status).toBe(200);
    expect(defaults.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(defaults.body.count).toBeLessThanOrEqual(25);
    for (const sort of ['hot', 'new', 'top', 'rising']) {
      expect((await c.call('GET', `/api/v1/posts?sort=${sort}`, { key: alpha.key })).status).toBe(200);
    }
  });

  it('rejects bad list parameters', async () => {
    for (const q of ['sort=best', 'limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'community_id=xyz']) {
      const b = expectEnvelope(await c.call('GET', `/api/v1/posts?${q}`, { key: alpha.key }), 400, 'VALIDATION_ERROR');
      expect(b.error).toContain(q.split('=')[0]);
    }
    expectEnvelope(await c.call('GET', `/api/v1/posts?submolt=nowhere`, { key: alpha.key }), 404);
    expectEnvelope(await c.call('GET', `/api/v1/posts?submolt=general&community=paging`, { key: alpha.key }), 400);
  });

  it('gets a post with the caller’s vote, and deletes only one’s own', async () => {
    const post = await c.createPost(alpha.key, general.id, 'To delete');
    await c.call('POST', `/api/v1/posts/${post.id}/upvote`, { key: beta.key });
    const got = await c.call('GET', `/api/v1/posts/${post.id}`, { key: beta.key });
    expect(got.body.post).toMatchObject({ id: post.id, upvotes: 1, userVote: 1 });
    expect((await c.call('GET', `/api/v1/posts/${post.id}`, { key: alpha.key })).body.post.userVote).toBe(null);
    const comment = await c.call('POST', `/api/v1/posts/${post.id}/comments`, {
      key: beta.key,
      body: { content: 'bye' },
    });
    expect(comment.status).toBe(201);
    expect(
      expectEnvelope(await c.call('DELETE', `/api/v1/posts/${post.id}`, { key: beta.key }), 403, 'FORBIDDEN').error,
    ).toBe('You can only delete your own posts');
    const del = await c.call('DELETE', `/api/v1/posts/${post.id}`, { key: alpha.key });
    expect(del.status).toBe(204);
    expectEnvelope(await c.call('GET', `/api/v1/posts/${post.id}`, { key: alpha.key }), 404, 'NOT_FOUND');
    expectEnvelope(await c.call('GET', `/api/v1/comments/${comment.body.comment.id}`, { key: alpha.key }), 404);
    expectEnvelope(await c.call('DELETE', `/api/v1/posts/${post.id}`, { key: alpha.key }), 404);
    const db = c.t.hamlet.platform.db.kysely;
    expect(
      await db
        .selectFrom('community_votes')
        .select('agent_id')
        .where('target_id', 'in', [post.id, comment.body.comment.id])
        .execute(),
    ).toEqual([]);
  });

  it('publishes community.post.created on the event bus', async () => {
    const seen: any[] = [];
    const off = c.t.hamlet.platform.events.subscribe('community.post.created', (p) => {
      seen.push(p);
    });
    const post = await c.createPost(beta.key, general.id, 'Evented');
    off();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      id: post.id,
      title: 'Evented',
      author: { name: 'beta' },
      community: { name: 'general' },
    });
  });
});

describe('comments', () => {
  it('nests replies by parent_id with a depth limit, and lists a sorted tree', async () => {
    const post = await c.createPost(alpha.key, general.id, 'Discuss');
    const top1 = (
      await c.call('POST', `/api/v1/posts/${post.id}/comments`, { key: beta.key, body: { content: 'first' } })
    ).body.comment;
    expect(top1).toMatchObject({
      post_id: post.id,
      parent_id: null,
      depth: 0,
      content: 'first',
      author: { id: beta.id, name: 'beta' },
      replies: [],
    });
    const top2 = (
      await c.call('POST', `/api/v1/posts/${post.id}/comments`, { key: alpha.key, body: { content: 'second' } })
    ).body.comment;
    let parent = top1.id;
    for (let d = 1; d <= 10; d++) {
      const r = await c.call('POST', `/api/v1/posts/${post.id}/comments`, {
        key: alpha.key,
        body: { content: `depth ${d}`, parent_id: parent },
      });
      expect(r.status).toBe(201);
      expect(r.body.comment.depth).toBe(d);
      parent = r.body.comment.id;
    }
    expect(
      expectEnvelope(
        await c.call('POST', `/api/v1/posts/${post.id}/comments`, {
          key: alpha.key,
          body: { content: 'too deep', parent_id: parent },
        }),
        400,
      ).error,
    ).toMatch(/at most 10 levels/);
    // top2 gets a vote so it sorts first under "top".
    await c.call('POST', `/api/v1/comments/${top2.id}/upvote`, { key: beta.key });
    const tree = await c.call('GET', `/api/v1/posts/${post.id}/comments?sort=top`, { key: beta.key });
    expect(tree.body.comments.map((x: any) => x.content)).toEqual(['second', 'first']);
    let node = tree.body.comments[1];
    for (let d = 1; d <= 10; d++) {
      expect(node.replies).toHaveLength(1);
      node = node.replies[0];
      expect(node.depth).toBe(d);
    }
    expect(tree.body.count).toBe(12);
    const newest = await c.call('GET', `/api/v1/posts/${post.id}/comments?sort=new&limit=3`, { key: beta.key });
    // Limit counts comments in depth-first order: a reply is never shown without its parent.
    expect(newest.body.comments.map((x: any) => x.content)).toEqual(['second', 'first']);
    expect(newest.body.comments[1].replies[0].content).toBe('depth 1');
    expect(newest.body.count).toBe(3);
    expect(newest.body.comments[0].replies).toEqual([]);
    expect((await c.call('GET', `/api/v1/posts/${post.id}`, { key: beta.key })).body.post.comment_count).toBe(12);
    const inList = async () =>
      (await c.call('GET', '/api/v1/communities/general/feed?sort=new&limit=100', { key: beta.key })).body.posts.find(
        (p: any) => p.id === post.id,
      );
    expect((await inList()).comment_count).toBe(12);
    await c.call('POST', `/api/v1/posts/${post.id}/comments`, { key: beta.key, body: { content: 'one more' } });
    expect((await inList()).comment_count).toBe(13);
    expect(
      (await c.call('GET', `/api/v1/posts/${post.id}/comments?sort=controversial`, { key: beta.key })).status,
    ).toBe(200);
  });

  it('rejects bad comments and replies to another post', async () => {
    const p1 = await c.createPost(alpha.key, general.id, 'One');
    const p2 = await c.createPost(alpha.key, general.id, 'Two');
    const onP1 = (await c.call('POST', `/api/v1/posts/${p1.id}/comments`, { key: beta.key, body: { content: 'x' } }))
      .body.comment;
    expectEnvelope(
      await c.call('POST', `/api/v1/posts/${p2.id}/comments`, {
        key: beta.key,
        body: { content: 'y', parent_id: onP1.id },
      }),
      400,
    );
    expectEnvelope(
      await c.call('POST', `/api/v1/posts/${p2.id}/comments`, {
        key: beta.key,
        body: { content: 'y', parent_id: '00000000-0000-4000-8000-000000000000' },
      }),
      404,
    );
    expectEnvelope(
      await c.call('POST', `/api/v1/posts/${p2.id}/comments`, { key: beta.key, body: { content: '  ' } }),
      400,
    );
    expectEnvelope(
      await c.call('POST', `/api/v1/posts/${p2.id}/comments`, { key: beta.key, body: {} }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await c.call('POST', `/api/v1/posts/${p2.id}/comments`, { key: beta.key, body: { content: 'x'.repeat(10_001) } }),
      400,
    );
    expectEnvelope(
      await c.call('POST', `/api/v1/posts/00000000-0000-4000-8000-000000000000/comments`, {
        key: beta.key,
        body: { content: 'x' },
      }),
      404,
    );
    expectEnvelope(
      await c.call('GET', `/api/v1/posts/00000000-0000-4000-8000-000000000000/comments`, { key: beta.key }),
      404,
    );
    expectEnvelope(
      await c.call('GET', `/api/v1/posts/${p1.id}/comments?sort=oldest`, { key: beta.key }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(await c.call('GET', `/api/v1/posts/${p1.id}/comments?limit=501`, { key: beta.key }), 400);
  });

  it('gets a comment, and soft-deletes only one’s own', async () => {
    const post = await c.createPost(alpha.key, general.id, 'Soft');
    const cm = (
      await c.call('POST', `/api/v1/posts/${post.id}/comments`, { key: beta.key, body: { content: 'regret' } })
    ).body.comment;
    const reply = (
      await c.call('POST', `/api/v1/posts/${post.id}/comments`, {
        key: alpha.key,
        body: { content: 'reply', parent_id: cm.id },
      })
    ).body.comment;
    expect((await c.call('GET', `/api/v1/comments/${cm.id}`, { key: alpha.key })).body.comment.content).toBe('regret');
    expectEnvelope(await c.call('DELETE', `/api/v1/comments/${cm.id}`, { key: alpha.key }), 403, 'FORBIDDEN');
    expect((await c.call('DELETE', `/api/v1/comments/${cm.id}`, { key: beta.key })).status).toBe(204);
    const got = (await c.call('GET', `/api/v1/comments/${cm.id}`, { key: alpha.key })).body.comment;
    expect(got).toMatchObject({ content: '[deleted]', is_deleted: true });
    const tree = await c.call('GET', `/api/v1/posts/${post.id}/comments`, { key: alpha.key });
    expect(tree.body.comments[0].replies[0].id).toBe(reply.id);
  });
});

describe('feed and search', () => {
  it('shows posts of subscribed communities and followed agents', async () => {
    const reader = await c.register('reader');
    const writer = await c.register('writer');
    const quiet = await c.createCommunity(writer.key, 'quiet');
    const loud = await c.createCommunity(writer.key, 'loud');
    const inQuiet = await c.createPost(writer.key, quiet.id, 'in quiet');
    const inLoud = await c.createPost(alpha.key, loud.id, 'in loud');
    expect((await c.call('GET', '/api/v1/feed', { key: reader.key })).body.posts).toEqual([]);
    await c.call('POST', '/api/v1/communities/loud/subscribe', { key: reader.key });
    let feed = await c.call('GET', '/api/v1/feed?sort=new', { key: reader.key });
    expect(feed.body.posts.map((p: any) => p.id)).toEqual([inLoud.id]);
    await c.call('POST', '/api/v1/agents/writer/follow', { key: reader.key });
    feed = await c.call('GET', '/api/v1/feed?sort=new', { key: reader.key });
    expect(feed.body.posts.map((p: any) => p.id)).toEqual([inLoud.id, inQuiet.id]);
    expect(feed.body).toMatchObject({ success: true, count: 2, has_more: false, next_offset: 2 });
    expectEnvelope(await c.call('GET', '/api/v1/feed?sort=worst', { key: reader.key }), 400);
  });

  it('searches titles, content and comments case-insensitively, wildcards literal', async () => {
    const post = await c.createPost(alpha.key, general.id, 'Zebra Crossing', { content: 'stripes 100% here' });
    await c.call('POST', `/api/v1/posts/${post.id}/comments`, { key: beta.key, body: { content: 'I love ZEBRAS' } });
    const r = await c.call('GET', '/api/v1/search?q=zebra', { key: beta.key });
    expect(r.body.results.map((x: any) => x.type).sort()).toEqual(['comment', 'post']);
    const postsOnly = await c.call('GET', '/api/v1/search?q=zebra&type=posts', { key: beta.key });
    expect(postsOnly.body.results).toHaveLength(1);
    expect(postsOnly.body.results[0]).toMatchObject({ type: 'post', id: post.id, title: 'Zebra Crossing' });
    expect((await c.call('GET', '/api/v1/search?q=100%25', { key: beta.key })).body.count).toBe(1);
    expect(
      (await c.call('GET', '/api/v1/search?q=%25', { key: beta.key })).body.results.every((x: any) =>
        (x.content + (x.title ?? '')).includes('%'),
      ),
    ).toBe(true);
    expectEnvelope(await c.call('GET', '/api/v1/search', { key: beta.key }), 400, 'VALIDATION_ERROR');
    expectEnvelope(await c.call('GET', '/api/v1/search?q=x&limit=51', { key: beta.key }), 400);
  });
});

describe('pins', () => {
  it('lists a community’s pinned posts first (at most 3), paged as one list with the ranked rest', async () => {
    const owner = await c.register('pin_owner');
    const stranger = await c.register('pin_stranger');
    const com = await c.createCommunity(owner.key, 'pinning');
    const posts = [];
    for (let i = 0; i < 6; i++) posts.push(await c.createPost(stranger.key, com.id, `n${i}`));
    const titles = async (q: string) =>
      (await c.call('GET', `/api/v1/posts?submolt=pinning&sort=new${q}`, { key: owner.key })).body;
    expect((await titles('')).posts.map((p: any) => p.title)).toEqual(['n5', 'n4', 'n3', 'n2', 'n1', 'n0']);

    expectEnvelope(await c.call('POST', `/api/v1/posts/${posts[0].id}/pin`, { key: stranger.key }), 403, 'FORBIDDEN');
    expect((await c.call('POST', `/api/v1/posts/${posts[0].id}/pin`, { key: owner.key, body: {} })).body.action).toBe(
      'pinned',
    );
    expect((await c.call('POST', `/api/v1/posts/${posts[0].id}/pin`, { key: owner.key })).body.action).toBe(
      'already_pinned',
    );
    await c.call('POST', `/api/v1/posts/${posts[1].id}/pin`, { key: owner.key });
    const all = await titles('');
    expect(all.posts.map((p: any) => p.title)).toEqual(['n0', 'n1', 'n5', 'n4', 'n3', 'n2']);
    expect(all.posts.map((p: any) => p.is_pinned)).toEqual([true, true, false, false, false, false]);
    // Paging walks the same combined list.
    const p1 = await titles('&limit=3');
    const p2 = await titles('&limit=3&offset=3');
    expect([...p1.posts, ...p2.posts].map((p: any) => p.title)).toEqual(['n0', 'n1', 'n5', 'n4', 'n3', 'n2']);
    expect([p1.has_more, p2.has_more]).toEqual([true, false]);
    expect((await titles('&limit=1&offset=1')).posts.map((p: any) => p.title)).toEqual(['n1']);
    // The global list is not reordered by pins.
    expect((await c.call('GET', `/api/v1/posts/${posts[0].id}`, { key: owner.key })).body.post.is_pinned).toBe(true);

    await c.call('POST', `/api/v1/posts/${posts[2].id}/pin`, { key: owner.key });
    const fourth = expectEnvelope(await c.call('POST', `/api/v1/posts/${posts[3].id}/pin`, { key: owner.key }), 400);
    expect(fourth.error).toBe('A community can pin at most 3 posts');
    expect((await c.call('DELETE', `/api/v1/posts/${posts[0].id}/pin`, { key: owner.key })).body.action).toBe(
      'unpinned',
    );
    expect((await c.call('DELETE', `/api/v1/posts/${posts[0].id}/pin`, { key: owner.key })).body.action).toBe(
      'not_pinned',
    );
    expect((await titles('')).posts.map((p: any) => p.title)).toEqual(['n1', 'n2', 'n5', 'n4', 'n3', 'n0']);
    expectEnvelope(
      await c.call('POST', `/api/v1/posts/00000000-0000-4000-8000-000000000000/pin`, { key: owner.key }),
      404,
    );
  });
});
