// The error envelope everywhere, and authorization on every route: no key, a bad key, and
// another agent's key on something it does not own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, startCommunity, type Community } from './helpers.js';

let c: Community;
let owner: { key: string; id: string; name: string };
let other: { key: string; id: string; name: string };
let ids: { post: string; comment: string; community: string };

beforeAll(async () => {
  c = await startCommunity();
  owner = await c.register('owner');
  other = await c.register('other');
  const com = await c.createCommunity(owner.key, 'owned');
  const post = await c.createPost(owner.key, com.id, 'Mine');
  const comment = (
    await c.call('POST', `/api/v1/posts/${post.id}/comments`, { key: owner.key, body: { content: 'mine too' } })
  ).body.comment;
  ids = { post: post.id, comment: comment.id, community: com.name };
});
afterAll(async () => {
  await c.t.destroy();
});

/** Every API route from the service's own OpenAPI document, with its parameters filled in. */
async function apiRoutes(): Promise<Array<{ method: string; path: string }>> {
  const doc = (await c.call('GET', '/docs/json')).body;
  const out: Array<{ method: string; path: string }> = [];
  for (const [path, ops] of Object.entries<Record<string, unknown>>(doc.paths)) {
    if (!path.startsWith('/api/v1/')) continue;
    for (const method of Object.keys(ops)) {
      const filled = path
        .replace('/agents/{name}', `/agents/${owner.name}`)
        .replace('{name}', ids.community)
        .replace('/comments/{id}', `/comments/${ids.comment}`)
        .replace('{id}', ids.post)
        .replace('{post_id}', ids.post);
      out.push({ method: method.toUpperCase(), path: filled });
    }
  }
  return out;
}

const sampleBody = {
  title: 't',
  content: 'c',
  community_id: '00000000-0000-4000-8000-000000000000',
  direction: 'up',
  name: 'zz_new',
};

describe('authentication on every route', () => {
  it('lists every route of the contract and Moltbook in its OpenAPI document', async () => {
    const routes = (await apiRoutes()).map((r) => `${r.method} ${r.path.replace(/[0-9a-f-]{36}/g, ':id')}`);
    for (const expected of [
      'GET /api/v1/posts',
      'POST /api/v1/posts',
      'GET /api/v1/posts/:id',
      'GET /api/v1/posts/:id/comments',
      'POST /api/v1/posts/:id/comments',
      'POST /api/v1/posts/:id/vote',
    ]) {
      expect(routes).toContain(expected);
    }
    expect(routes.length).toBeGreaterThan(30);
  });

  it('answers 401 in the envelope without a key, with a malformed header and with an unknown key', async () => {
    const routes = await apiRoutes();
    for (const { method, path } of routes) {
      if (path === '/api/v1/agents/register' || path === '/api/v1/health') continue;
      const body = method === 'GET' || method === 'DELETE' ? undefined : sampleBody;
      const none = expectEnvelope(await c.call(method, path, { body }), 401, 'UNAUTHORIZED');
      expect(none.error, `${method} ${path}`).toBe('No authorization token provided');
      expectEnvelope(
        await c.call(method, path, { body, headers: { authorization: 'Basic abc' } }),
        401,
        'UNAUTHORIZED',
      );
      const bad = expectEnvelope(
        await c.call(method, path, { body, key: 'hamlet_community_' + 'x'.repeat(32) }),
        401,
        'UNAUTHORIZED',
      );
      expect(bad.error).toBe('Invalid API key');
    }
    // Nothing was written by any of them.
    const db = c.t.hamlet.platform.db.kysely;
    expect((await db.selectFrom('community_posts').select('id').execute()).length).toBe(1);
    expect((await db.selectFrom('community_votes').select('agent_id').execute()).length).toBe(0);
  });

  it("refuses another agent's key on what it does not own, changing nothing", async () => {
    expectEnvelope(await c.call('DELETE', `/api/v1/posts/${ids.post}`, { key: other.key }), 403, 'FORBIDDEN');
    expectEnvelope(await c.call('DELETE', `/api/v1/comments/${ids.comment}`, { key: other.key }), 403, 'FORBIDDEN');
    // Votes are the owner's own content for the owner: refused for the owner.
    for (const path of [
      `/api/v1/posts/${ids.post}/vote`,
      `/api/v1/posts/${ids.post}/upvote`,
      `/api/v1/comments/${ids.comment}/downvote`,
    ]) {
      expectEnvelope(await c.call('POST', path, { key: owner.key, body: { direction: 'up' } }), 400);
    }
    expectEnvelope(
      await c.call('PATCH', `/api/v1/communities/${ids.community}/settings`, {
        key: other.key,
        body: { description: 'taken over' },
      }),
      403,
      'FORBIDDEN',
    );
    expectEnvelope(
      await c.call('POST', `/api/v1/submolts/${ids.community}/moderators`, {
        key: other.key,
        body: { agent_name: 'other' },
      }),
      403,
      'FORBIDDEN',
    );
    expect(
      (await c.call('GET', `/api/v1/communities/${ids.community}/moderators`, { key: other.key })).body.moderators,
    ).toEqual([{ name: 'owner', role: 'owner' }]);
    // PATCH /agents/me only ever touches the caller.
    await c.call('PATCH', '/api/v1/agents/me', { key: other.key, body: { description: 'changed' } });
    expect((await c.call('GET', '/api/v1/agents/me', { key: owner.key })).body.agent.description).toBe('I am owner');
    const post = await c.call('GET', `/api/v1/posts/${ids.post}`, { key: other.key });
    expect(post.body.post).toMatchObject({ title: 'Mine', comment_count: 1, upvotes: 0 });
    expect((await c.call('GET', `/api/v1/comments/${ids.comment}`, { key: other.key })).body.comment.content).toBe(
      'mine too',
    );
  });

  it('stops honouring a revoked key', async () => {
    const temp = await c.register('temp');
    expect((await c.call('GET', '/api/v1/agents/me', { key: temp.key })).status).toBe(200);
    await c.t.hamlet.platform.keys.revoke({ service: 'community', ownerId: temp.id });
    expectEnvelope(await c.call('GET', '/api/v1/agents/me', { key: temp.key }), 401);
  });
});

describe('the envelope for every failure', () => {
  it('unknown routes and methods', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/nothing'],
      ['POST', '/api/v1/posts/x/y/z'],
      ['PUT', '/api/v1/posts'],
      ['GET', '/'.repeat(1) + 'api/v2/posts'],
      ['GET', '/api/v1/../../etc/passwd'],
    ]) {
      const b = expectEnvelope(await c.call(method, path, { key: owner.key }), 404, 'NOT_FOUND');
      expect(b.error).toBe('Endpoint not found');
      expect(b.hint).toContain('does not exist');
    }
  });

  it('bad JSON, wrong content type, oversized bodies', async () => {
    expectEnvelope(await c.call('POST', '/api/v1/posts', { key: owner.key, raw: '{"title":' }), 400, 'BAD_REQUEST');
    expectEnvelope(
      await c.call('POST', '/api/v1/posts', {
        key: owner.key,
        raw: 'title=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
    );
    expectEnvelope(
      await c.call('POST', '/api/v1/posts', {
        key: owner.key,
        raw: JSON.stringify({ title: 't', content: 'x'.repeat(300_000) }),
      }),
      413,
    );
    expectEnvelope(await c.call('POST', '/api/v1/posts', { key: owner.key, raw: '[1,2]' }), 400, 'VALIDATION_ERROR');
  });

  it('bad UUIDs on every id route', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/posts/123'],
      ['DELETE', '/api/v1/posts/123'],
      ['GET', '/api/v1/posts/123/comments'],
      ['POST', '/api/v1/posts/123/comments'],
      ['POST', '/api/v1/posts/123/vote'],
      ['POST', '/api/v1/posts/123/upvote'],
      ['GET', '/api/v1/comments/zzz'],
      ['DELETE', '/api/v1/comments/zzz'],
      ['POST', '/api/v1/comments/zzz/downvote'],
      ['GET', `/api/v1/posts/${ids.post}x`],
    ]) {
      const b = expectEnvelope(
        await c.call(method, path, {
          key: other.key,
          body: method === 'POST' ? { content: 'x', direction: 'up' } : undefined,
        }),
        400,
        'VALIDATION_ERROR',
      );
      expect(b.error).toMatch(/params\.(id|post_id)/);
    }
  });

  it('never lets database text out: NUL characters and odd input are 4xx on both engines', async () => {
    const nul = await c.call('POST', '/api/v1/posts', {
      key: owner.key,
      body: { title: 'a\u0000b', content: 'x', submolt: 'owned' },
    });
    expect(expectEnvelope(nul, 400).error).toMatch(/NUL/);
    expectEnvelope(
      await c.call('POST', `/api/v1/posts/${ids.post}/comments`, { key: owner.key, body: { content: '\u0000' } }),
      400,
    );
    expectEnvelope(await c.call('GET', '/api/v1/search?q=%00', { key: owner.key }), 400);
    expectEnvelope(
      await c.call('PATCH', '/api/v1/agents/me', { key: owner.key, body: { metadata: { a: 'x\u0000' } } }),
      400,
    );
    expectEnvelope(
      await c.call('POST', '/api/v1/agents/register', { body: { name: 'nul_agent', description: '\u0000' } }),
      400,
    );
    for (const q of ["q=' OR 1=1 --", 'q=%E2%80%AE', 'q=' + 'z'.repeat(500)]) {
      expect((await c.call('GET', `/api/v1/search?${q}`, { key: owner.key })).status).toBe(200);
    }
    const emoji = await c.call('POST', '/api/v1/posts', {
      key: owner.key,
      body: { title: '🦞 lobster', content: "Robert'); DROP TABLE community_posts;--", submolt: 'owned' },
    });
    expect(emoji.status).toBe(201);
    expect(emoji.body.post.content).toBe("Robert'); DROP TABLE community_posts;--");
  });

  it('answers no request with a 500: every route, odd bodies and queries', async () => {
    const bodies = [
      'null',
      '"text"',
      '[]',
      '42',
      '{}',
      '{"title":{},"content":[],"community_id":7}',
      '{"direction":null,"name":["x"]}',
      '{"parent_id":"not-a-uuid","content":"x"}',
      '{"metadata":"x","display_name":""}',
    ];
    const queries = [
      '',
      '?limit=1e9',
      '?offset=9999999999',
      '?sort[]=hot',
      '?limit=&offset=',
      '?q=%FF',
      '?name=',
      '?submolt=' + 'x'.repeat(70),
    ];
    const statuses = new Set<number>();
    for (const { method, path } of await apiRoutes()) {
      if (path.endsWith('/rotate-key')) continue; // would retire the key the sweep uses
      for (const q of queries) {
        for (const raw of method === 'GET' || method === 'DELETE' ? [undefined] : bodies) {
          const r = await c.call(method, path + q, { key: other.key, raw });
          statuses.add(r.status);
          expect(r.status, `${method} ${path}${q} ${raw}`).toBeLessThan(500);
          if (r.status >= 400) expectEnvelope(r, r.status);
        }
      }
    }
    expect([...statuses].some((s) => s >= 400)).toBe(true);
  }, 180_000); // a few thousand requests
});
