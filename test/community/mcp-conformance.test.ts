// Conformance with Moltbook's npm client: the real `moltbook-http-mcp` package, run as its
// users run it (its bin over stdio), driven by the MCP SDK's Client, pointed at a started
// Hamlet by a preload that rewrites its constant production base URL (fixtures/
// moltbook-local-base.mjs). Every one of its tools is called, and must succeed; the test
// fails if the package gains a tool that is not called here.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommunity, type Community } from './helpers.js';

const require = createRequire(import.meta.url);
const packageDir = path.dirname(require.resolve('moltbook-http-mcp/package.json'));
const cli = path.join(
  packageDir,
  (require('moltbook-http-mcp/package.json') as { bin: Record<string, string> }).bin['moltbook-mcp'],
);
const preload = pathToFileURL(
  path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'moltbook-local-base.mjs'),
).href;

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

let c: Community;
let dir: string;
const clients: Client[] = [];
const called = new Set<string>();
let listed: string[] = [];

/** A client process acting with `key` (none for registration). */
async function connect(key: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', preload, cli, '--stdio'],
    // Its own empty directory, so the package's dotenv finds no .env of ours.
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', MOLTBOOK_API_KEY: key, MOLTBOOK_LOCAL_BASE: `${c.base}/api/v1` },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'hamlet-conformance', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** Calls a tool and returns the JSON it passed through; a tool error fails the test with its text. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: Array<{ type: string; text: string }>;
  };
  const text = result.content.map((p) => p.text).join('');
  if (result.isError) throw new Error(`${name} failed: ${text}`);
  called.add(name);
  return JSON.parse(text);
}

/** A call the server must refuse; returns the error text the tool reports. */
async function refused(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: Array<{ text: string }>;
  };
  expect(result.isError, `${name} should have failed`).toBe(true);
  return result.content.map((p) => p.text).join('');
}

let alice: Client;
let bob: Client;
let carol: Client;

beforeAll(async () => {
  c = await startCommunity({
    env: { HAMLET_RATE_COMMUNITY_DM_REQUESTS: '1000/1m', HAMLET_RATE_COMMUNITY_DM_MESSAGES: '1000/1m' },
  });
  dir = mkdtempSync(path.join(os.tmpdir(), 'hamlet-mcp-'));
  writeFileSync(path.join(dir, 'avatar.png'), PNG);
  writeFileSync(path.join(dir, 'banner.gif'), GIF);
  writeFileSync(path.join(dir, 'evil.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((cl) => cl.close().catch(() => {})));
  await c?.t.destroy();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('moltbook-http-mcp over MCP against Hamlet', () => {
  it('lists its 41 tools and registers agents (the one tool without a key)', async () => {
    const anonymous = await connect('');
    listed = (await anonymous.listTools()).tools.map((t) => t.name);
    expect(listed).toHaveLength(41);
    const keys: Record<string, string> = {};
    for (const name of ['mcp_alice', 'mcp_bob', 'mcp_carol']) {
      const r = await call(anonymous, 'moltbook_agent_register', { name, description: `I am ${name}` });
      expect(r.agent.api_key).toMatch(/^hamlet_community_/);
      expect(r.agent.claim_url).toMatch(/\/claim\/hamlet_claim_/);
      expect(r.status).toBe('pending_claim');
      keys[name] = r.agent.api_key;
    }
    [alice, bob, carol] = await Promise.all([connect(keys.mcp_alice), connect(keys.mcp_bob), connect(keys.mcp_carol)]);
  }, 60_000);

  it('agent tools: status, me, update, profile, avatar upload and removal, follow and unfollow', async () => {
    expect((await call(alice, 'moltbook_agent_status')).status).toBe('pending_claim');
    expect((await call(alice, 'moltbook_agent_me')).agent.name).toBe('mcp_alice');
    expect(
      (await call(alice, 'moltbook_agent_update', { description: 'updated', metadata: { via: 'mcp' } })).agent,
    ).toMatchObject({ description: 'updated', metadata: { via: 'mcp' } });
    expect((await call(alice, 'moltbook_agent_profile', { name: 'mcp_bob' })).agent.description).toBe('I am mcp_bob');
    const uploaded = await call(alice, 'moltbook_agent_avatar_upload', { file_path: path.join(dir, 'avatar.png') });
    expect(uploaded.avatar_url).toMatch(/\/media\/agents\/mcp_alice\/avatar\?v=/);
    const image = await fetch(uploaded.avatar_url);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
    expect(await refused(alice, 'moltbook_agent_avatar_upload', { file_path: path.join(dir, 'evil.svg') })).toMatch(
      /Only PNG, JPEG, GIF or WebP/,
    );
    expect((await call(alice, 'moltbook_agent_avatar_remove')).action).toBe('removed');
    expect((await call(alice, 'moltbook_agent_me')).agent.avatar_url).toBeNull();
    expect((await call(alice, 'moltbook_follow', { agent_name: 'mcp_bob' })).action).toBe('followed');
    expect((await call(alice, 'moltbook_unfollow', { agent_name: 'mcp_bob' })).action).toBe('unfollowed');
  });

  it('submolt tools: create, list, get, settings, avatar and banner, moderators, subscribe', async () => {
    expect(
      (
        await call(alice, 'moltbook_submolt_create', {
          name: 'mcptest',
          display_name: 'MCP Test',
          description: 'Tools at work',
        })
      ).submolt.name,
    ).toBe('mcptest');
    const list = await call(alice, 'moltbook_submolts_list');
    expect(list.submolts.map((s: any) => s.name)).toContain('mcptest');
    expect(list.submolts.map((s: any) => s.name)).toContain('general'); // seeded at start
    expect((await call(alice, 'moltbook_submolt_get', { name: 'mcptest' })).submolt).toMatchObject({
      display_name: 'MCP Test',
      your_role: 'owner',
    });
    expect(
      (
        await call(alice, 'moltbook_submolt_settings', {
          name: 'mcptest',
          description: 'New words',
          banner_color: '#112233',
          theme_color: '#445566',
        })
      ).submolt,
    ).toMatchObject({
      description: 'New words',
      banner_color: '#112233',
    });
    const avatar = await call(alice, 'moltbook_submolt_avatar_upload', {
      name: 'mcptest',
      file_path: path.join(dir, 'avatar.png'),
    });
    expect(avatar.submolt.avatar_url).toMatch(/\/media\/communities\/mcptest\/avatar\?v=/);
    const banner = await call(alice, 'moltbook_submolt_banner_upload', {
      name: 'mcptest',
      file_path: path.join(dir, 'banner.gif'),
    });
    expect(banner.submolt.banner_url).toMatch(/\/media\/communities\/mcptest\/banner\?v=/);
    expect((await fetch(banner.submolt.banner_url)).headers.get('content-type')).toBe('image/gif');
    // Only the owner or a moderator may change the images.
    expect(
      await refused(bob, 'moltbook_submolt_banner_upload', {
        name: 'mcptest',
        file_path: path.join(dir, 'banner.gif'),
      }),
    ).toMatch(/owner or a moderator/);
    expect(
      (
        await call(alice, 'moltbook_submolt_moderator_add', {
          name: 'mcptest',
          agent_name: 'mcp_bob',
          role: 'moderator',
        })
      ).action,
    ).toBe('added');
    expect((await call(alice, 'moltbook_submolt_moderators_list', { name: 'mcptest' })).moderators).toHaveLength(2);
    expect(
      (await call(alice, 'moltbook_submolt_moderator_remove', { name: 'mcptest', agent_name: 'mcp_bob' })).action,
    ).toBe('removed');
    expect((await call(bob, 'moltbook_submolt_subscribe', { name: 'mcptest' })).action).toBe('subscribed');
    expect((await call(bob, 'moltbook_submolt_unsubscribe', { name: 'mcptest' })).action).toBe('unsubscribed');
  });

  it('post, comment, vote, pin, feed and search tools', async () => {
    const post = (
      await call(alice, 'moltbook_post_create', {
        submolt: 'mcptest',
        title: 'Hello from MCP',
        content: 'A post through moltbook-http-mcp',
      })
    ).post;
    expect(post.submolt).toEqual({ id: post.community.id, name: 'mcptest', display_name: 'MCP Test' });
    const doomed = (
      await call(alice, 'moltbook_post_create', {
        submolt: 'mcptest',
        title: 'Short-lived',
        url: 'https://example.com/',
      })
    ).post;
    const listed = await call(bob, 'moltbook_posts_list', { submolt: 'mcptest', sort: 'new', limit: 10 });
    expect(listed.posts.map((p: any) => p.id)).toEqual([doomed.id, post.id]);
    expect((await call(bob, 'moltbook_post_get', { post_id: post.id })).post.title).toBe('Hello from MCP');
    expect((await call(bob, 'moltbook_post_upvote', { post_id: post.id })).action).toBe('upvoted');
    expect((await call(bob, 'moltbook_post_downvote', { post_id: post.id })).action).toBe('changed');
    const comment = (await call(bob, 'moltbook_comment_add', { post_id: post.id, content: 'Nice post' })).comment;
    expect(comment.submolt.name).toBe('mcptest');
    await call(alice, 'moltbook_comment_add', { post_id: post.id, content: 'Thanks', parent_id: comment.id });
    const tree = await call(alice, 'moltbook_comments_list', { post_id: post.id, sort: 'new' });
    expect(tree.comments[0].replies[0].content).toBe('Thanks');
    expect((await call(alice, 'moltbook_comment_upvote', { comment_id: comment.id })).action).toBe('upvoted');
    expect((await call(alice, 'moltbook_post_pin', { post_id: post.id })).action).toBe('pinned');
    expect((await call(alice, 'moltbook_post_unpin', { post_id: post.id })).action).toBe('unpinned');
    expect(await call(alice, 'moltbook_post_delete', { post_id: doomed.id })).toBeNull(); // 204
    await call(bob, 'moltbook_follow', { agent_name: 'mcp_alice' });
    expect((await call(bob, 'moltbook_feed', { sort: 'new', limit: 5 })).posts.map((p: any) => p.id)).toEqual([
      post.id,
    ]);
    const found = await call(bob, 'moltbook_search', { q: 'Hello from', type: 'posts', limit: 5 });
    expect(found.posts.map((p: any) => p.id)).toEqual([post.id]);
    expect(found.results[0].submolt.name).toBe('mcptest');
  });

  it('DM tools: request, check, requests, approve, send, conversations, conversation, reject', async () => {
    const request = await call(alice, 'moltbook_dm_request', {
      to: 'mcp_bob',
      message: 'Hi Bob, my human has a question.',
    });
    const id = request.conversation_id;
    const check = await call(bob, 'moltbook_dm_check');
    expect(check).toMatchObject({ has_activity: true, requests: { count: 1 } });
    expect(check.requests.items[0]).toMatchObject({
      conversation_id: id,
      from: { name: 'mcp_alice' },
      message_preview: 'Hi Bob, my human has a question.',
    });
    expect((await call(bob, 'moltbook_dm_requests')).requests.items.map((r: any) => r.conversation_id)).toEqual([id]);
    // Carol cannot answer a request that is not hers, nor read the conversation.
    expect(await refused(carol, 'moltbook_dm_approve', { conversation_id: id })).toMatch(/not found/i);
    expect((await call(bob, 'moltbook_dm_approve', { conversation_id: id })).action).toBe('approved');
    expect(
      (
        await call(alice, 'moltbook_dm_send', {
          conversation_id: id,
          message: 'When is the meeting?',
          needs_human_input: true,
        })
      ).sent,
    ).toMatchObject({
      content: 'When is the meeting?',
      needs_human_input: true,
    });
    const inbox = await call(bob, 'moltbook_dm_conversations');
    expect(inbox.conversations.items[0]).toMatchObject({
      conversation_id: id,
      with_agent: { name: 'mcp_alice' },
      unread_count: 2,
      you_initiated: false,
    });
    const read = await call(bob, 'moltbook_dm_conversation', { conversation_id: id });
    expect(read.messages.map((m: any) => m.content)).toEqual([
      'Hi Bob, my human has a question.',
      'When is the meeting?',
    ]);
    expect((await call(bob, 'moltbook_dm_conversations')).total_unread).toBe(0);
    expect(await refused(carol, 'moltbook_dm_conversation', { conversation_id: id })).toMatch(/not found/i);

    const unwanted = await call(carol, 'moltbook_dm_request', { to: 'mcp_alice', message: 'Buy my tokens, please!' });
    expect(
      (await call(alice, 'moltbook_dm_reject', { conversation_id: unwanted.conversation_id, block: true })).action,
    ).toBe('blocked');
    expect(await refused(carol, 'moltbook_dm_request', { to: 'mcp_alice', message: 'Buy my tokens, again!' })).toMatch(
      /does not accept chat requests from you/,
    );
  });

  it('every listed tool was called successfully', () => {
    expect([...called].sort()).toEqual([...listed].sort());
  });
});
