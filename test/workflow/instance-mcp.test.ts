// n8n's instance-level MCP server (issue 29): the bearer key and the on/off switch first (no
// header, a malformed or rotated key, switched off, a huge body), then its three tools driven
// by the MCP SDK's client as n8n 2.8.4 answers them.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  createWorkflow,
  manualSetWorkflow,
  startWorkflowServer,
  webhookWorkflow,
  type WorkflowTestServer,
} from './helpers.js';

let s: WorkflowTestServer;
let origin: string;
beforeAll(async () => {
  s = await startWorkflowServer();
  origin = new URL(s.url).origin;
}, 60_000);
afterAll(() => s?.stop());

const rest = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${origin}/rest/mcp${path}`, {
    method,
    headers: { 'x-n8n-api-key': s.key, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: await r.json().catch(() => undefined) };
};

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const post = (headers: Record<string, string>, body: unknown = initialize) =>
  fetch(`${origin}/mcp-server/http`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'hamlet-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${origin}/mcp-server/http`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

describe('instance MCP: access', () => {
  test('the key is made once and shown whole once; /rest/mcp needs the API key', async () => {
    expect((await fetch(`${origin}/rest/mcp/api-key`)).status).toBe(401);
    const first = await rest('GET', '/api-key');
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ label: 'MCP Server API Key', audience: 'mcp-server-api', scopes: [] });
    const key: string = first.body.data.apiKey;
    const claims = JSON.parse(Buffer.from(key.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ iss: 'n8n', aud: 'mcp-server-api', sub: first.body.data.userId });
    const again = await rest('GET', '/api-key');
    expect(again.body.data.apiKey).toBe(`******${key.slice(-4)}`);
    expect(again.body.data.id).toBe(first.body.data.id);
  });

  test('refusals: no header, no Bearer, malformed, unknown, rotated away, switched off', async () => {
    const key = (await rest('POST', '/api-key/rotate')).body.data.apiKey as string;
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'Unauthorized: Authorization header not sent'],
      [{ authorization: `Token ${key}` }, 'Unauthorized: Invalid authorization header format - Missing Bearer prefix'],
      [{ authorization: 'Bearer' }, 'Unauthorized: Invalid authorization header format - Malformed Bearer token'],
      [{ authorization: 'Bearer not-a-jwt' }, 'Unauthorized: jwt malformed'],
      [{ authorization: `Bearer ${key.slice(0, -2)}xx` }, 'Unauthorized'],
      [{ authorization: `Bearer ${'a.b.'.padEnd(8_000, 'c')}` }, 'Unauthorized'],
    ];
    for (const [headers, message] of cases) {
      const r = await post(headers);
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe('Bearer realm="n8n MCP Server"');
      expect(await r.json()).toEqual({ message });
    }
    expect((await fetch(`${origin}/mcp-server/http`, { method: 'HEAD' })).status).toBe(401);
    // Off until switched on, as n8n.
    const off = await post({ authorization: `Bearer ${key}` });
    expect(off.status).toBe(403);
    expect(await off.json()).toEqual({ message: 'MCP access is disabled' });
    expect((await rest('PATCH', '/settings', { mcpAccessEnabled: 'yes' })).status).toBe(400);
    expect((await rest('PATCH', '/settings', { mcpAccessEnabled: true })).body).toEqual({
      data: { mcpAccessEnabled: true },
    });
    expect((await post({ authorization: `Bearer ${key}` })).status).toBe(200);
    const next = (await rest('POST', '/api-key/rotate')).body.data.apiKey as string;
    expect((await post({ authorization: `Bearer ${key}` })).status).toBe(401);
    expect((await post({ authorization: `Bearer ${next}` })).status).toBe(200);
    // A body that is not JSON-RPC is the SDK's JSON-RPC error, not a 500.
    expect((await post({ authorization: `Bearer ${next}` }, '{"nope":')).status).toBe(400);
    expect(
      (
        await post(
          { authorization: `Bearer ${next}` },
          { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x'.repeat(100_000) } },
        )
      ).status,
    ).toBeLessThan(500);
  });
});

describe('instance MCP: tools', () => {
  let client: Client;
  let hookId: string;
  let hiddenId: string;
  beforeAll(async () => {
    await rest('PATCH', '/settings', { mcpAccessEnabled: true });
    const key = (await rest('POST', '/api-key/rotate')).body.data.apiKey as string;
    client = await connect(key);
    hookId = await createWorkflow(s, webhookWorkflow('mcp-tool-echo', 'mcp tool echo'), true);
    hiddenId = await createWorkflow(s, webhookWorkflow('mcp-hidden', 'mcp hidden'), true);
    expect(
      (await rest('PATCH', `/workflows/${hookId}/toggle-access`, { availableInMCP: true })).body.data,
    ).toMatchObject({ id: hookId, settings: { availableInMCP: true } });
  });
  afterAll(() => client?.close());

  test("lists n8n 2.8.4's three tools", async () => {
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([
      'execute_workflow',
      'get_workflow_details',
      'search_workflows',
    ]);
  });

  test('toggle-access refuses an unpublished workflow or one without a supported trigger', async () => {
    const manual = await createWorkflow(s, manualSetWorkflow('no mcp trigger'), false);
    expect((await rest('PATCH', `/workflows/${manual}/toggle-access`, { availableInMCP: true })).body).toEqual({
      message: 'MCP access can only be set for published workflows',
    });
    expect((await rest('PATCH', '/workflows/nope/toggle-access', { availableInMCP: true })).status).toBe(404);
  });

  test('search_workflows finds only published workflows available in MCP', async () => {
    const r: any = await client.callTool({ name: 'search_workflows', arguments: {} });
    expect(r.structuredContent.count).toBe(1);
    expect(r.structuredContent.data[0]).toMatchObject({
      id: hookId,
      name: 'mcp tool echo',
      active: true,
      canExecute: true,
      nodes: [
        { name: 'Webhook', type: 'n8n-nodes-base.webhook' },
        { name: 'Edit Fields', type: 'n8n-nodes-base.set' },
        { name: 'Respond', type: 'n8n-nodes-base.respondToWebhook' },
      ],
    });
    expect(r.structuredContent.data[0].scopes).toContain('workflow:execute');
    expect(
      ((await client.callTool({ name: 'search_workflows', arguments: { query: 'nothing like it' } })) as any)
        .structuredContent,
    ).toEqual({ data: [], count: 0 });
    expect(
      ((await client.callTool({ name: 'search_workflows', arguments: { projectId: 'another' } })) as any)
        .structuredContent.count,
    ).toBe(0);
    const bad: any = await client.callTool({ name: 'search_workflows', arguments: { limit: 201 } });
    expect(bad.isError).toBe(true);
  });

  test('get_workflow_details describes the trigger; a hidden or missing workflow is "Workflow not found"', async () => {
    const r: any = await client.callTool({ name: 'get_workflow_details', arguments: { workflowId: hookId } });
    expect(r.structuredContent.workflow).toMatchObject({
      id: hookId,
      active: true,
      isArchived: false,
      parentFolderId: null,
    });
    expect(r.structuredContent.triggerInfo).toContain('\t - Production path: /webhook/mcp-tool-echo');
    expect(r.structuredContent.triggerInfo).toContain(
      'Webhook is configured to respond using "Respond to Webhook" node.',
    );
    for (const workflowId of [hiddenId, 'nope', 'x'.repeat(10_000)]) {
      const miss: any = await client.callTool({ name: 'get_workflow_details', arguments: { workflowId } });
      expect(miss.isError).toBe(true);
      expect(miss.content[0].text).toContain('Workflow not found');
    }
  });

  test('execute_workflow runs the webhook trigger with the given body; refusals are {success:false, error}', async () => {
    const r: any = await client.callTool({
      name: 'execute_workflow',
      arguments: {
        workflowId: hookId,
        inputs: { type: 'webhook', webhookData: { method: 'POST', body: { msg: 'via mcp' } } },
      },
    });
    expect(r.structuredContent.success).toBe(true);
    expect(r.structuredContent.result.lastNodeExecuted).toBe('Respond');
    expect(JSON.stringify(r.structuredContent.result.runData)).toContain('via mcp');
    const exec = await s.api('GET', `/executions/${r.structuredContent.executionId}`);
    expect(exec.body).toMatchObject({ workflowId: hookId, mode: 'webhook', status: 'success' });
    const hidden: any = await client.callTool({ name: 'execute_workflow', arguments: { workflowId: hiddenId } });
    expect(hidden.structuredContent).toEqual({
      success: false,
      executionId: null,
      error:
        'Workflow is not available for execution via MCP. Enable access in the workflow settings to make it available.',
    });
    const missing: any = await client.callTool({ name: 'execute_workflow', arguments: { workflowId: 'nope' } });
    expect(missing.structuredContent.error).toBe("Workflow with ID 'nope' does not exist");
  });
});
