// Moltbook's only npm client (moltbook-http-mcp) on the wire, as the reference describes it:
// `Content-Type: application/json` and the Bearer key on every request (GET and DELETE
// included, without a body), `{}` as the body of parameterless POSTs, `/submolts` paths,
// `submolt` in post bodies, and the error text taken from the body's `error`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommunity, type Community } from './helpers.js';

let c: Community;
let key = '';
let otherKey = '';
let ownerKey = '';

/** The client's request function: always JSON content type; POST bodies default to {}. */
async function client(method: string, path: string, body?: object, auth = true): Promise<any> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (auth) headers.Authorization = `Bearer ${key}`;
  const init: RequestInit = { method, headers };
  const payload = method === 'POST' ? (body ?? {}) : body;
  if (payload != null) init.body = JSON.stringify(payload);
  const res = await fetch(`${c.base}/api/v1${path}`, init);
  const text = await res.text();
  const data = text ? JSON.parse(text) : null;
  if (!res.ok)
    throw Object.assign(new Error(data?.error || data?.message || `HTTP ${res.status}`), { status: res.status });
  return data;
}

beforeAll(async () => {
  c = await startCommunity();
  const other = await client('POST', '/agents/register', { name: 'mcp_other', description: 'second' }, false);
  otherKey = other.agent.api_key;
  const me = await client('POST', '/agents/register', { name: 'mcp_agent' }, false);
  key = me.agent.api_key;
  ownerKey = key;
});
afterAll(async () => {
  await c.t.destroy();
});

describe('moltbook-http-mcp requests', () => {
  it('agent tools: status, me, profile, update, follow, unfollow', async () => {
    expect((await client('GET', '/agents/status')).status).toBe('pending_claim');
    expect((await client('GET', '/agents/me')).agent.name).toBe('mcp_agent');
    expect((await client('GET', `/agents/profile?name=${encodeURIComponent('mcp_other')}`)).agent.description).toBe(
      'second',
    );
    const updated = await client('PATCH', '/agents/me', { description: 'updated', metadata: { via: 'mcp' } });
    expect(updated.agent).toMatchObject({ description: 'updated', metadata: { via: 'mcp' } });
    expect((await client('POST', '/agents/mcp_other/follow')).action).toBe('followed');
    expect((await client('DELETE', '/agents/mcp_other/follow')).action).toBe('unfollowed');
  });

  it('submolt, post, comment and vote tools', async () => {
    const created = await client('POST', '/submolts', {
      name: 'mcp',
      display_name: 'MCP',
      description: 'tools',
      allow_crypto: false,
    });
    expect(created.submolt.name).toBe('mcp');
    expect((await client('GET', '/submolts')).submolts.some((s: any) => s.name === 'mcp')).toBe(true);
    expect((await client('GET', '/submolts/mcp')).submolt.your_role).toBe('owner');
    expect((await client('DELETE', '/submolts/mcp/subscribe')).action).toBe('unsubscribed');
    expect((await client('POST', '/submolts/mcp/subscribe')).action).toBe('subscribed');

    const text = await client('POST', '/posts', { submolt: 'mcp', title: 'From the client', content: 'hello' });
    const link = await client('POST', '/posts', { submolt: 'mcp', title: 'A link', url: 'https://example.com/' });
    expect(link.post.post_type).toBe('link');
    const list = await client('GET', `/posts?${new URLSearchParams({ submolt: 'mcp', sort: 'new', limit: '5' })}`);
    expect(list.posts.map((p: any) => p.title)).toEqual(['A link', 'From the client']);
    expect((await client('GET', `/posts?`)).success).toBe(true);
    expect((await client('GET', `/posts/${text.post.id}`)).post.title).toBe('From the client');

    const comment = await client('POST', `/posts/${text.post.id}/comments`, { content: 'first' });
    await client('POST', `/posts/${text.post.id}/comments`, { content: 'reply', parent_id: comment.comment.id });
    const tree = await client('GET', `/posts/${text.post.id}/comments?sort=new`);
    expect(tree.comments[0].replies[0].content).toBe('reply');

    // Votes from the other agent, with the client's empty-object bodies.
    key = otherKey;
    expect((await client('POST', `/posts/${text.post.id}/upvote`)).action).toBe('upvoted');
    expect((await client('POST', `/posts/${text.post.id}/downvote`)).action).toBe('changed');
    expect((await client('POST', `/comments/${comment.comment.id}/upvote`)).message).toBe('Upvoted!');
    await expect(client('DELETE', `/posts/${text.post.id}`)).rejects.toThrow('You can only delete your own posts');
    const feed = await client('GET', `/feed?${new URLSearchParams({ sort: 'new', limit: '10' })}`);
    expect(feed.success).toBe(true);
    const found = await client('GET', `/search?${new URLSearchParams({ q: 'client', type: 'posts', limit: '5' })}`);
    expect(found.results[0].title).toBe('From the client');
  });

  it('own-content votes, deletes and unknown tools fail with the body’s error text', async () => {
    const post = await client('POST', '/posts', { submolt: 'mcp', title: 'Mine', content: 'x' });
    await expect(client('POST', `/posts/${post.post.id}/upvote`)).rejects.toThrow('Cannot vote on your own content');
    expect(await client('DELETE', `/posts/${post.post.id}`)).toBe(null); // 204, no body
    // Moderation tools: settings and moderators (the remove is a DELETE with a JSON body).
    key = ownerKey;
    expect(
      (await client('PATCH', '/submolts/mcp/settings', { description: 'new', theme_color: '#000000' })).submolt
        .theme_color,
    ).toBe('#000000');
    expect(
      (await client('POST', '/submolts/mcp/moderators', { agent_name: 'mcp_other', role: 'moderator' })).action,
    ).toBe('added');
    expect((await client('GET', '/submolts/mcp/moderators')).moderators).toHaveLength(2);
    expect((await client('DELETE', '/submolts/mcp/moderators', { agent_name: 'mcp_other' })).action).toBe('removed');
    key = otherKey;
    // Pins need the owner or a moderator of the community.
    const another = await client('POST', '/posts', { submolt: 'mcp', title: 'Pin me', content: 'x' });
    await expect(client('POST', `/posts/${another.post.id}/pin`)).rejects.toThrow(
      "Only the community's owner or a moderator can pin posts",
    );
    key = ownerKey;
    expect((await client('POST', `/posts/${another.post.id}/pin`)).action).toBe('pinned');
    expect((await client('DELETE', `/posts/${another.post.id}/pin`)).action).toBe('unpinned');
    // A path this server does not offer gets a 404 with a readable error.
    await expect(client('GET', '/agents/dm/inbox/everything')).rejects.toThrow('Endpoint not found');
    // Another agent's conversation id is "not found", exactly like one that does not exist.
    await expect(client('GET', '/agents/dm/conversations/00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      status: 404,
    });
    await expect(client('GET', '/agents/me', undefined, false)).rejects.toThrow('No authorization token provided');
  });
});
