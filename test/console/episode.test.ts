// One evaluation episode from end to end, as an evaluator runs it: seed a scenario; an agent
// (the MCP SDK's Client) reads its mail, publishes a blog post about it, turns on a light and
// runs a workflow; the trace lists exactly those calls; a saved world comes back with the same
// hash after more actions; the diff from the seed lists exactly the agent's changes; reset
// empties the world.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import { waitFor } from '../helpers/wait.js';

const SCENARIO = `
name: episode
agents:
  - name: ada
    mail: true
    blog: { slug: ada }
    keys: [home, workflow]
  - name: bob
    mail: true
mail:
  - from: bob
    to: ada
    subject: The garden party
    text: The garden party moves to Saturday at four. Bring the lanterns.
workflows:
  - definition:
      name: Tidy up
      nodes:
        - { id: a, name: Start, type: n8n-nodes-base.manualTrigger, typeVersion: 1, position: [0, 0], parameters: {} }
        - id: b
          name: Note
          type: n8n-nodes-base.set
          typeVersion: 3.4
          position: [200, 0]
          parameters: { assignments: { assignments: [{ id: x, name: done, value: "yes", type: string }] } }
      connections: { Start: { main: [[{ node: Note, type: main, index: 0 }]] } }
      settings: {}
`;

let t: TestHamlet;
let console_: string;
let adminKey: string;

async function admin(method: string, path: string, body?: unknown, type = 'application/json'): Promise<any> {
  const res = await fetch(console_ + path, {
    method,
    headers: { authorization: `Bearer ${adminKey}`, ...(body !== undefined ? { 'content-type': type } : {}) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  return JSON.parse(text);
}

beforeAll(async () => {
  t = await startTestHamlet({
    services: ['blog', 'mail', 'community', 'home', 'workflow'],
    env: { HAMLET_CONSOLE: 'on', HAMLET_RATE_LIMITS: 'off' },
  });
  console_ = t.hamlet.console!.urls.web!;
  adminKey = (await t.hamlet.platform.keys.create('admin')).key;
}, 120_000);
afterAll(async () => t?.destroy());

describe('an evaluation episode', () => {
  it('seed, act through MCP, trace, save and load, diff, reset', async () => {
    // The seed: the scenario's keys come back for the agent.
    const seeded = await admin('POST', '/admin/api/world/seed', SCENARIO, 'text/yaml');
    const ada = seeded.agents.ada as Record<'mail' | 'blog' | 'home' | 'workflow', { key: string; inbox?: string }>;
    const seed = await admin('POST', '/admin/api/world/snapshots', { name: 'seed' });
    const since = t.hamlet.platform.clock.now().toISOString();

    // The agent's episode, through MCP with its own keys.
    const agent = new Client({ name: 'episode-agent', version: '1.0.0' });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(`${console_}/mcp`), {
        requestInit: {
          headers: { 'x-hamlet-keys': [ada.mail.key, ada.blog.key, ada.home.key, ada.workflow.key].join(',') },
        },
      }),
    );
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await agent.callTool({ name, arguments: args });
      const text = (r.content as Array<{ text: string }>)[0].text;
      expect(r.isError, `${name}: ${text}`).toBeFalsy();
      return JSON.parse(text);
    };
    const inbox = ada.mail.inbox!;
    const list = await call('mail_list_messages', { inbox_id: inbox });
    const party = list.messages.find((m: { subject: string }) => m.subject === 'The garden party');
    const mail = await call('mail_read_message', { inbox_id: inbox, message_id: party.message_id });
    await call('blog_publish', { title: 'News from my inbox', content: `Bob writes: ${mail.text.trim()}` });
    await call('home_call_service', { domain: 'light', service: 'turn_on', entity_id: 'light.kitchen' });
    const workflows = await call('workflow_list', {});
    const tidy = workflows.data.find((w: { name: string }) => w.name === 'Tidy up');
    await call('workflow_run', { id: tidy.id });
    await agent.close();

    // The trace lists exactly those calls: the MCP tool calls, and the API calls they made with the agent's keys.
    const tools = [
      'mail_list_messages',
      'mail_read_message',
      'blog_publish',
      'home_call_service',
      'workflow_list',
      'workflow_run',
    ];
    // (Each tool-call entry is recorded after its answer.)
    const mcp = await waitFor(
      async () => {
        const entries: any[] = (
          await admin('GET', `/admin/api/trace?kind=mcp&since=${encodeURIComponent(since)}&order=oldest&limit=100`)
        ).entries;
        return entries.length >= tools.length && entries;
      },
      { intervalMs: 100, message: 'a trace entry for each tool call' },
    );
    expect(mcp.map((e) => e.route)).toEqual(tools);
    const keyIds = new Set<string>();
    for (const [service, entry] of Object.entries(ada))
      keyIds.add((await t.hamlet.platform.keys.verify(service, entry.key))!.id);
    const http = (
      await admin('GET', `/admin/api/trace?kind=http&since=${encodeURIComponent(since)}&order=oldest&limit=100`)
    ).entries.filter((e: { keyId: string | null }) => e.keyId && keyIds.has(e.keyId));
    expect(http.map((e: { method: string; route: string }) => `${e.method} ${e.route}`)).toEqual([
      'GET /v0/inboxes/:inbox_id/messages',
      'GET /v0/inboxes/:inbox_id/messages/:message_id',
      'POST /api/publish',
      'POST /api/services/:domain/:service',
      'GET /api/v1/workflows',
      'POST /api/v1/workflows/:id/execute',
    ]);

    // The diff from the seed lists exactly the agent's changes, and nothing of the services it did not touch.
    const end = await admin('POST', '/admin/api/world/snapshots', { name: 'end' });
    const diff = await admin('GET', `/admin/api/world/diff?from=${seed.id}&to=${end.id}`);
    expect(diff.services.community).toEqual({ added: [], changed: [], removed: [] });
    // Per service, the tables that gained (+), changed (~) or lost (-) rows: the agent's post, the
    // light's new state with its recorded event, the execution; mail was only read.
    const touched = Object.fromEntries(
      Object.entries(
        diff.services as Record<
          string,
          { added: Array<{ table: string }>; changed: Array<{ table: string }>; removed: Array<{ table: string }> }
        >,
      ).map(([s, c]) => [
        s,
        [
          ...new Set([
            ...c.added.map((x) => `+${x.table}`),
            ...c.changed.map((x) => `~${x.table}`),
            ...c.removed.map((x) => `-${x.table}`),
          ]),
        ].sort(),
      ]),
    );
    expect(touched).toEqual({
      blog: ['+blog_posts'],
      community: [],
      home: ['+home_events', '+home_states', '~home_entities'],
      mail: [],
      platform: [],
      workflow: ['+workflow_executions'],
    });
    const rows = (s: string) =>
      [...diff.services[s].added, ...diff.services[s].changed, ...diff.services[s].removed] as Array<{
        table: string;
        row?: any;
        after?: any;
      }>;
    expect(rows('blog').some((c) => c.table === 'blog_posts' && c.row?.title === 'News from my inbox')).toBe(true);
    expect(rows('home').some((c) => JSON.stringify(c).includes('light.kitchen'))).toBe(true);
    expect(rows('workflow').some((c) => c.table === 'workflow_executions')).toBe(true);
    for (const s of ['blog', 'home', 'workflow', 'mail'])
      for (const c of diff.services[s].removed)
        throw new Error(`${s}: the agent removed nothing, yet ${c.table} lost a row`);

    // More actions, then the saved world comes back with the same hash.
    const homeKey = ada.home.key;
    await fetch(`${t.url('home')}/api/services/light/turn_off`, {
      method: 'POST',
      headers: { authorization: `Bearer ${homeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ entity_id: 'light.kitchen' }),
    });
    await fetch(`${t.url('blog')}/api/publish`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ada.blog.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'After the save', content: 'Gone after the load.' }),
    });
    expect((await admin('GET', '/admin/api/world/hash')).hash).not.toBe(end.hash);
    const restored = await admin('POST', `/admin/api/world/snapshots/${end.id}/restore`);
    expect(restored.hash).toBe(end.hash);
    const kitchen = await (
      await fetch(`${t.url('home')}/api/states/light.kitchen`, { headers: { authorization: `Bearer ${homeKey}` } })
    ).json();
    expect(kitchen.state).toBe('on');

    // Reset: an empty world, whose hash is the empty snapshot's.
    const reset = await admin('POST', '/admin/api/world/reset');
    const empty = await admin('POST', '/admin/api/world/snapshots', { name: 'empty' });
    expect(empty.rows).toBe(0);
    expect(reset.hash).toBe(empty.hash);
  }, 180_000);
});
