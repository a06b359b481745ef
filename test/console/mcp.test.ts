// The MCP server for all five services, driven by the official SDK's Client as an agent would:
// over streamable HTTP on the console port (/mcp) and over stdio (`hamlet mcp`). Every tool acts
// with the agent's own key for its service and nothing more.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import { waitFor } from '../helpers/wait.js';
import { cliArgs } from '../helpers/cli.js';

let t: TestHamlet;
let keys: Record<'mail' | 'home' | 'workflow', string>;

beforeAll(async () => {
  t = await startTestHamlet({
    services: ['blog', 'mail', 'community', 'home', 'workflow'],
    env: { HAMLET_CONSOLE: 'on', HAMLET_RATE_LIMITS: 'off' },
  });
  const k = t.hamlet.platform.keys;
  keys = {
    mail: (await k.create('mail')).key,
    home: (await k.create('home')).key,
    workflow: (await k.create('workflow')).key,
  };
}, 120_000);
afterAll(async () => t?.destroy());

async function agent(agentKeys: string[]): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${t.hamlet.console!.urls.web}/mcp`), {
    requestInit: { headers: agentKeys.length ? { 'x-hamlet-keys': agentKeys.join(', ') } : {} },
  });
  await client.connect(transport);
  return client;
}

const text = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as Array<{ type: string; text: string }>)[0].text;
const json = (result: Awaited<ReturnType<Client['callTool']>>) => {
  expect(result.isError, text(result)).toBeFalsy();
  return JSON.parse(text(result));
};

describe('MCP over streamable HTTP', () => {
  it('lists tools for every service, each input schema derived from the route it calls', async () => {
    const client = await agent([]);
    const { tools } = await client.listTools();
    const names = tools.map((x) => x.name);
    for (const name of [
      'blog_publish',
      'mail_send',
      'mail_reply',
      'community_post',
      'community_vote',
      'community_feed',
      'community_search',
      'home_get_states',
      'home_call_service',
      'home_history',
      'workflow_create',
      'workflow_activate',
      'workflow_run',
      'workflow_list_executions',
    ]) {
      expect(names).toContain(name);
    }
    // The mail service's own schema for sending: the same properties, plus the path's inbox_id.
    const doc = await (await fetch(`${t.url('mail')}/docs/json`)).json();
    const sendBody =
      doc.paths['/v0/inboxes/{inbox_id}/messages/send'].post.requestBody.content['application/json'].schema;
    const send = tools.find((x) => x.name === 'mail_send')!;
    expect(Object.keys(send.inputSchema.properties!).sort()).toEqual(
      ['inbox_id', ...Object.keys(sendBody.properties)].sort(),
    );
    expect(send.inputSchema.required).toContain('inbox_id');
    const post = tools.find((x) => x.name === 'blog_publish')!;
    expect(post.inputSchema.required).toEqual(expect.arrayContaining(['title', 'content']));
    await client.close();
  });

  it('an agent reads mail, registers and publishes on the blog, posts in the community, turns on a light and runs a workflow', async () => {
    const client = await agent([keys.mail, keys.home, keys.workflow]);
    const inbox = json(await client.callTool({ name: 'mail_create_inbox', arguments: { username: 'ada' } }));
    expect(inbox.inbox_id).toMatch(/^ada@/);

    // Blog: register with the agent's own inbox, read the verification mail, verify.
    json(
      await client.callTool({ name: 'blog_register', arguments: { email: inbox.inbox_id, name: 'Ada', slug: 'ada' } }),
    );
    const token = await waitFor(
      async () => {
        const list = json(
          await client.callTool({ name: 'mail_list_messages', arguments: { inbox_id: inbox.inbox_id } }),
        );
        const id = list.messages[0]?.message_id;
        if (!id) return undefined;
        return /token=([0-9a-f-]{36})/.exec(
          json(
            await client.callTool({
              name: 'mail_read_message',
              arguments: { inbox_id: inbox.inbox_id, message_id: id },
            }),
          ).text ?? '',
        )?.[1];
      },
      { intervalMs: 100, message: 'the verification mail in the inbox' },
    );
    const verified = json(await client.callTool({ name: 'blog_verify', arguments: { token } }));
    expect(verified.apiKey).toMatch(/^hamlet_blog_/);

    // Community: registration needs no key and hands one out.
    const registered = json(
      await client.callTool({
        name: 'community_register',
        arguments: { name: 'ada_agent', description: 'test agent' },
      }),
    );
    const communityKey: string = registered.agent.api_key;
    await client.close();

    const full = await agent([keys.mail, keys.home, keys.workflow, verified.apiKey, communityKey]);
    const published = json(
      await full.callTool({
        name: 'blog_publish',
        arguments: { title: 'Hello from MCP', content: 'Written by an agent.' },
      }),
    );
    expect(JSON.stringify(published)).toContain('Hello from MCP');
    const posted = json(
      await full.callTool({
        name: 'community_post',
        arguments: { submolt: 'general', title: 'Hi', content: 'From MCP' },
      }),
    );
    expect(posted.success).toBe(true);

    json(
      await full.callTool({
        name: 'home_call_service',
        arguments: { domain: 'light', service: 'turn_on', entity_id: 'light.kitchen' },
      }),
    );
    const state = await (
      await fetch(`${t.url('home')}/api/states/light.kitchen`, { headers: { authorization: `Bearer ${keys.home}` } })
    ).json();
    expect(state.state).toBe('on');

    const wf = json(
      await full.callTool({
        name: 'workflow_create',
        arguments: {
          name: 'mcp run',
          nodes: [
            {
              id: 'a',
              name: 'Start',
              type: 'n8n-nodes-base.manualTrigger',
              typeVersion: 1,
              position: [0, 0],
              parameters: {},
            },
            {
              id: 'b',
              name: 'Set',
              type: 'n8n-nodes-base.set',
              typeVersion: 3.4,
              position: [200, 0],
              parameters: {
                assignments: { assignments: [{ id: 'x', name: 'greeting', value: 'hi', type: 'string' }] },
              },
            },
          ],
          connections: { Start: { main: [[{ node: 'Set', type: 'main', index: 0 }]] } },
          settings: {},
        },
      }),
    );
    const run = json(await full.callTool({ name: 'workflow_run', arguments: { id: wf.id } }));
    expect(run.status ?? run.data?.status).toBeDefined();
    const execs = json(await full.callTool({ name: 'workflow_list_executions', arguments: { workflowId: wf.id } }));
    expect(execs.data.length).toBe(1);

    const house = await full.readResource({ uri: 'hamlet://home/states' });
    expect((house.contents[0] as { text: string }).text).toContain('light.kitchen');
    const inboxRes = await full.readResource({ uri: `hamlet://mail/inboxes/${encodeURIComponent(inbox.inbox_id)}` });
    expect((inboxRes.contents[0] as { text: string }).text).toContain('Verify');
    await full.close();

    // The trace has each tool call as kind mcp, with the id of the agent's key for that service.
    // The tool-call entry is recorded after the answer: wait for the last call's.
    const mcp = await waitFor(
      async () => {
        const entries = (await t.hamlet.platform.trace.query({ kind: ['mcp'], limit: 100, order: 'oldest' })).entries;
        return entries.some((e) => e.route === 'workflow_list_executions') && entries;
      },
      { message: "the trace entry of the agent's last tool call" },
    );
    const lightCall = mcp.find((e) => e.route === 'home_call_service')!;
    expect(lightCall).toMatchObject({
      service: 'home',
      method: 'tools/call',
      path: 'POST /api/services/light/turn_on',
      status: 200,
    });
    expect(lightCall.keyId).toBe((await t.hamlet.platform.keys.verify('home', keys.home))!.id);
    expect(mcp.map((e) => e.route)).toEqual(
      expect.arrayContaining(['mail_create_inbox', 'blog_register', 'blog_publish', 'community_post', 'workflow_run']),
    );
    expect(JSON.stringify(mcp)).not.toContain(keys.home);
  });

  it('never widens an agent: a tool of a service whose key it lacks fails, though the console holds keys of its own', async () => {
    const client = await agent([keys.mail]);
    const res = await client.callTool({ name: 'home_get_states', arguments: {} });
    expect(res.isError).toBe(true);
    expect(text(res)).toMatch(/needs your home key/);
    // A forged key of the right shape is passed through and refused by the service itself.
    const forged = await agent(['hamlet_home_forged000000000000000000000000']);
    const refused = await forged.callTool({ name: 'home_get_states', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/401/);
    // An admin key is no service key: it opens no tool.
    const admin = (await t.hamlet.platform.keys.create('admin')).key;
    const asAdmin = await agent([admin]);
    expect((await asAdmin.callTool({ name: 'workflow_list', arguments: {} })).isError).toBe(true);
    await Promise.all([client.close(), forged.close(), asAdmin.close()]);
  });

  it('answers bad tool input with a tool error in the service words, not a crash', async () => {
    const client = await agent([keys.mail]);
    const missing = await client.callTool({ name: 'mail_list_messages', arguments: {} });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/inbox_id is required/);
    const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} });
    expect(unknown.isError).toBe(true);
    await client.close();
  });
});

describe('hamlet mcp over stdio', () => {
  it('reaches the running services and keeps the key a registration hands out', async () => {
    const env: Record<string, string> = { ...(process.env as Record<string, string>), HAMLET_LOG_LEVEL: 'silent' };
    for (const s of ['blog', 'mail', 'community', 'home', 'workflow'] as const)
      env[`HAMLET_${s.toUpperCase()}_URL`] = t.url(s);
    env.HAMLET_MCP_KEYS = keys.home;
    const root = path.resolve(import.meta.dirname, '../..');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: cliArgs('mcp'),
      env,
      cwd: root,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-agent', version: '1.0.0' });
    await client.connect(transport);
    const states = JSON.parse(text(await client.callTool({ name: 'home_get_states', arguments: {} }))) as unknown[];
    expect(states.length).toBeGreaterThan(0);
    json(
      await client.callTool({
        name: 'community_register',
        arguments: { name: 'stdio_agent', description: 'over stdio' },
      }),
    );
    // The key from the registration is used for the next call without the agent passing it.
    const me = json(
      await client.callTool({
        name: 'community_post',
        arguments: { submolt: 'general', title: 'stdio', content: 'kept key' },
      }),
    );
    expect(me.success).toBe(true);
    await client.close();
  }, 60_000);
});
