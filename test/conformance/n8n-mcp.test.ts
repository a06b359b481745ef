// Conformance with a real n8n client: the npm package `n8n-mcp` (installed on demand into a
// cache by scripts/clients/install.ts, not a devDependency: its optional better-sqlite3 would
// be a second native build in every `npm ci`; it runs on its sql.js fallback here), run as its
// stdio MCP server against this service (N8N_API_URL / N8N_API_KEY) and driven with the MCP
// SDK's client through every n8n_* management tool whose endpoints the service offers:
// workflows (create, get, list, full and partial update, activation, validate, autofix,
// delete), webhook test runs, executions, credentials, the audit, the health check, data
// tables, folders, evaluation test runs, the catalog, local version history and n8n's own
// instance-level MCP server (N8N_MCP_ACCESS_TOKEN: execute_workflow through n8n_test_workflow).
// Every n8n_* tool is called. Those that need n8n >= 2.34's MCP tools (agents, node resource
// exploration, column changes, native version history) get the answer a real n8n 2.8.4 gives
// n8n-mcp: its MCP server does not offer them (OFFICIAL_MCP_TOOL_UNAVAILABLE); a template
// deploy needs n8n.io, so it is checked to fail cleanly without network.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { binOf, ensureClient } from '../../scripts/clients/install.js';
import { startWorkflowServer, webhookWorkflow, type WorkflowTestServer } from '../workflow/helpers.js';

/** The n8n_* tools of n8n-mcp 2.87.0 that the tests below call. */
const CALLED = [
  'n8n_health_check',
  'n8n_create_workflow',
  'n8n_get_workflow',
  'n8n_list_workflows',
  'n8n_update_full_workflow',
  'n8n_update_partial_workflow',
  'n8n_validate_workflow',
  'n8n_autofix_workflow',
  'n8n_test_workflow',
  'n8n_executions',
  'n8n_manage_credentials',
  'n8n_audit_instance',
  'n8n_delete_workflow',
  'n8n_manage_datatable',
  'n8n_manage_folders',
  'n8n_evaluations',
  'n8n_list_catalog',
  'n8n_workflow_versions',
  'n8n_manage_agents',
  'n8n_explore_node_resources',
  'n8n_deploy_template',
];

let s: WorkflowTestServer;
let client: Client;
let mcpToken: string;
let toggleMcp: (id: string) => Promise<unknown>;

beforeAll(async () => {
  await ensureClient('n8n-mcp');
  s = await startWorkflowServer();
  // n8n's instance-level MCP server: switched on and its key made, as in n8n's settings page.
  const origin = new URL(s.url).origin;
  const rest = (method: string, path: string, body?: unknown) =>
    fetch(`${origin}/rest/mcp${path}`, {
      method,
      headers: { 'x-n8n-api-key': s.key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then((r) => r.json());
  await rest('PATCH', '/settings', { mcpAccessEnabled: true });
  mcpToken = (await rest('GET', '/api-key')).data.apiKey;
  toggleMcp = (id: string) => rest('PATCH', `/workflows/${id}/toggle-access`, { availableInMCP: true });
  const env = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined)) as Record<
    string,
    string
  >;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binOf('n8n-mcp', 'n8n-mcp', 'n8n-mcp')],
    env: {
      ...env,
      N8N_API_URL: s.url,
      N8N_API_KEY: s.key,
      N8N_MCP_ACCESS_TOKEN: mcpToken,
      // The service listens on loopback in tests; n8n-mcp refuses localhost in its default strict mode.
      WEBHOOK_SECURITY_MODE: 'moderate',
      N8N_MCP_TELEMETRY_DISABLED: 'true',
    },
    stderr: 'pipe',
  });
  client = new Client({ name: 'hamlet-conformance', version: '1.0.0' });
  await client.connect(transport);
}, 120_000);

afterAll(async () => {
  await client?.close();
  await s?.stop();
});

/** Calls a tool and returns its JSON answer; fails the test when the tool reports failure. */
async function tool(name: string, args: Record<string, unknown>, expectSuccess = true): Promise<any> {
  const r = (await client.callTool({ name, arguments: args })) as {
    content: Array<{ type: string; text?: string }>;
    isError?: boolean;
  };
  const text = r.content.find((c) => c.type === 'text')?.text ?? '';
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = { text };
  }
  if (expectSuccess)
    expect(body.success, `${name} ${JSON.stringify(args).slice(0, 200)} → ${text.slice(0, 1500)}`).toBe(true);
  return body;
}

describe('n8n-mcp against the service', () => {
  let workflowId: string;

  test('lists its tools; the management tools are all accounted for', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    const management = names.filter((n) => n.startsWith('n8n_'));
    expect([...management].sort()).toEqual([...CALLED].sort());
  });

  test('n8n_health_check', async () => {
    const h = await tool('n8n_health_check', {});
    expect(h.data.status).toBe('ok');
  });

  test('n8n_create_workflow, n8n_get_workflow, n8n_list_workflows', async () => {
    const wf = webhookWorkflow('mcp-echo', 'mcp echo');
    const created = await tool('n8n_create_workflow', {
      name: wf.name,
      nodes: wf.nodes,
      connections: wf.connections,
      settings: wf.settings,
    });
    workflowId = created.data.id;
    expect(workflowId).toMatch(/^[0-9A-Za-z]{16}$/);
    const got = await tool('n8n_get_workflow', { id: workflowId, mode: 'full' });
    expect(got.data.name).toBe('mcp echo');
    expect(got.data.nodes.map((n: any) => n.name)).toEqual(['Webhook', 'Edit Fields', 'Respond']);
    const listed = await tool('n8n_list_workflows', { limit: 50 });
    expect(listed.data.workflows.map((w: any) => w.id)).toContain(workflowId);
  });

  test('n8n_update_full_workflow and n8n_update_partial_workflow (rename, activate)', async () => {
    const wf = webhookWorkflow('mcp-echo', 'mcp echo v2');
    await tool('n8n_update_full_workflow', {
      id: workflowId,
      name: wf.name,
      nodes: wf.nodes,
      connections: wf.connections,
      settings: wf.settings,
    });
    expect((await s.api('GET', `/workflows/${workflowId}`)).body.name).toBe('mcp echo v2');
    await tool('n8n_update_partial_workflow', {
      id: workflowId,
      operations: [{ type: 'updateName', name: 'mcp echo v3' }, { type: 'activateWorkflow' }],
    });
    const now = (await s.api('GET', `/workflows/${workflowId}`)).body;
    expect(now.name).toBe('mcp echo v3');
    expect(now.active).toBe(true);
  });

  test('n8n_validate_workflow and n8n_autofix_workflow (preview) read the workflow', async () => {
    const v = await tool('n8n_validate_workflow', { id: workflowId });
    expect(v.data.workflowId ?? v.data.workflowName ?? v.data).toBeTruthy();
    await tool('n8n_autofix_workflow', { id: workflowId, applyFixes: false });
  });

  test('n8n_test_workflow runs the webhook; n8n_executions lists, gets and deletes its execution', async () => {
    const run = await tool('n8n_test_workflow', { workflowId, data: { msg: 'from mcp' }, httpMethod: 'POST' });
    expect(JSON.stringify(run.data)).toContain('from mcp');
    const list = await tool('n8n_executions', { action: 'list', workflowId });
    const execs = list.data.executions;
    expect(execs.length).toBeGreaterThan(0);
    const id = execs[0].id;
    const got = await tool('n8n_executions', { action: 'get', id, mode: 'full' });
    expect(JSON.stringify(got.data)).toContain('from mcp');
    await tool('n8n_executions', { action: 'delete', id });
    expect((await s.api('GET', `/executions/${id}`)).status).toBe(404);
  });

  test('n8n_manage_credentials: getSchema, create, list, get, update, delete', async () => {
    const schema = await tool('n8n_manage_credentials', { action: 'getSchema', type: 'httpHeaderAuth' });
    expect(JSON.stringify(schema.data)).toContain('value');
    const created = await tool('n8n_manage_credentials', {
      action: 'create',
      name: 'mcp header',
      type: 'httpHeaderAuth',
      data: { name: 'x-api-key', value: 'mcp-secret' },
    });
    const id = created.data.id;
    expect(JSON.stringify(created)).not.toContain('mcp-secret');
    expect((await tool('n8n_manage_credentials', { action: 'list' })).data.credentials.map((c: any) => c.id)).toContain(
      id,
    );
    expect((await tool('n8n_manage_credentials', { action: 'get', id })).data.name).toBe('mcp header');
    await tool('n8n_manage_credentials', {
      action: 'update',
      id,
      name: 'mcp header 2',
      data: { name: 'x-api-key', value: 'rotated' },
    });
    expect((await s.api('GET', `/credentials/${id}`)).body.name).toBe('mcp header 2');
    await tool('n8n_manage_credentials', { action: 'delete', id });
    expect((await s.api('GET', `/credentials/${id}`)).status).toBe(404);
  });

  test('n8n_audit_instance', async () => {
    await s.api('POST', '/credentials', { name: 'never used', type: 'httpBearerAuth', data: { token: 't' } });
    const audit = await tool('n8n_audit_instance', { categories: ['credentials', 'instance'] });
    // n8n-mcp renders n8n's report as markdown: our sections and their findings come through.
    expect(audit.data.report).toMatch(
      /### Credentials Risk Report\n- \*\*Credentials not used in any workflow:\*\*[^\n]*\n[^\n]*\n {2}- Affected: 1 items/,
    );
    expect(audit.data.report).toContain('### Instance Risk Report');
    expect(audit.data.summary.totalFindings).toBeGreaterThan(0);
  });

  test("n8n_test_workflow method direct runs through n8n's instance MCP (execute_workflow)", async () => {
    await toggleMcp(workflowId);
    const run = await tool('n8n_test_workflow', { workflowId, method: 'direct' });
    expect(run).toMatchObject({ backend: 'official-mcp', officialTool: 'execute_workflow' });
    expect(run.data.success).toBe(true);
    expect((await s.api('GET', `/executions/${run.executionId}`)).body).toMatchObject({
      workflowId,
      status: 'success',
    });
    const h = await tool('n8n_health_check', { mode: 'diagnostic' });
    expect(JSON.stringify(h.data)).toContain('"toolCount":3');
  });

  test('n8n_manage_datatable: every public-API action; column actions answer as n8n 2.8.4 (no such MCP tool)', async () => {
    const created = await tool('n8n_manage_datatable', {
      action: 'createTable',
      name: 'mcp table',
      columns: [
        { name: 'name', type: 'string' },
        { name: 'score', type: 'number' },
      ],
    });
    const tableId = created.data.id;
    expect((await tool('n8n_manage_datatable', { action: 'listTables' })).data.tables.map((t: any) => t.id)).toContain(
      tableId,
    );
    expect(
      (await tool('n8n_manage_datatable', { action: 'getTable', tableId })).data.columns.map((c: any) => c.name),
    ).toEqual(['name', 'score']);
    expect(
      (await tool('n8n_manage_datatable', { action: 'updateTable', tableId, name: 'mcp table 2' })).data.name,
    ).toBe('mcp table 2');
    expect(
      (
        await tool('n8n_manage_datatable', {
          action: 'insertRows',
          tableId,
          data: [
            { name: 'a', score: 1 },
            { name: 'b', score: 2 },
          ],
          returnType: 'count',
        })
      ).data,
    ).toEqual({ success: true, insertedRows: 2 });
    const byName = (name: string) => ({ type: 'and', filters: [{ columnName: 'name', condition: 'eq', value: name }] });
    await tool('n8n_manage_datatable', { action: 'updateRows', tableId, filter: byName('a'), data: { score: 10 } });
    await tool('n8n_manage_datatable', {
      action: 'upsertRows',
      tableId,
      filter: byName('c'),
      data: { name: 'c', score: 3 },
    });
    const dry = await tool('n8n_manage_datatable', {
      action: 'deleteRows',
      tableId,
      filter: byName('b'),
      dryRun: true,
    });
    expect(dry.data.map((r: any) => r.name)).toEqual(['b']);
    await tool('n8n_manage_datatable', { action: 'deleteRows', tableId, filter: byName('b') });
    const rows = await tool('n8n_manage_datatable', { action: 'getRows', tableId, sortBy: 'score:desc', limit: 10 });
    expect(rows.data.rows.map((r: any) => [r.name, r.score])).toEqual([
      ['a', 10],
      ['c', 3],
    ]);
    const column = await tool(
      'n8n_manage_datatable',
      { action: 'addColumn', tableId, column: { name: 'extra', type: 'string' } },
      false,
    );
    expect(column).toMatchObject({ success: false, code: 'OFFICIAL_MCP_TOOL_UNAVAILABLE' });
    await tool('n8n_manage_datatable', { action: 'deleteTable', tableId });
    expect((await s.api('GET', `/data-tables/${tableId}`)).status).toBe(404);
  });

  test('n8n_manage_folders: create, list, get, rename, move, delete', async () => {
    const parent = (await tool('n8n_manage_folders', { action: 'create', name: 'Clients' })).data.id;
    const child = (await tool('n8n_manage_folders', { action: 'create', name: 'Acme', parentFolderId: parent })).data
      .id;
    const listed = await tool('n8n_manage_folders', { action: 'list', parentFolderId: parent });
    expect(listed.data.folders.map((f: any) => [f.id, f.path])).toEqual([[child, ['Clients', 'Acme']]]);
    expect((await tool('n8n_manage_folders', { action: 'get', folderId: parent })).data.totalSubFolders).toBe(1);
    expect((await tool('n8n_manage_folders', { action: 'rename', folderId: child, name: 'Acme Corp' })).data.name).toBe(
      'Acme Corp',
    );
    expect(
      (await tool('n8n_manage_folders', { action: 'move', folderId: child, parentFolderId: null })).data.parentFolderId,
    ).toBeNull();
    await tool('n8n_manage_folders', { action: 'delete', folderId: parent, transferToFolderId: '0' });
    expect((await s.api('GET', `/projects/personal/folders/${parent}`)).status).toBe(404);
  });

  test('n8n_evaluations: run over a data table, list_runs, get_run, list_cases, cancel of a finished run', async () => {
    const table = (await s.api('POST', '/data-tables', { name: 'eval set', columns: [{ name: 'q', type: 'string' }] }))
      .body.id;
    await s.api('POST', `/data-tables/${table}/rows`, { data: [{ q: 'x' }, { q: 'y' }] });
    const wf = (
      await tool('n8n_create_workflow', {
        name: 'mcp eval',
        nodes: [
          {
            id: 'e',
            name: 'Eval Trigger',
            type: 'n8n-nodes-base.evaluationTrigger',
            typeVersion: 4.6,
            position: [0, 0],
            parameters: { source: 'dataTable', dataTableId: { __rl: true, mode: 'id', value: table } },
          },
          { id: 'n', name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [200, 0], parameters: {} },
        ],
        connections: { 'Eval Trigger': { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
      })
    ).data.id;
    const run = await tool('n8n_evaluations', { action: 'run', workflowId: wf });
    const runId = run.data.id;
    await vi.waitFor(
      async () =>
        expect((await tool('n8n_evaluations', { action: 'get_run', workflowId: wf, runId })).data.status).toBe(
          'completed',
        ),
      { timeout: 30_000, interval: 100 },
    );
    expect(
      (await tool('n8n_evaluations', { action: 'list_runs', workflowId: wf })).data.testRuns.map((r: any) => r.id),
    ).toEqual([runId]);
    expect(
      (await tool('n8n_evaluations', { action: 'list_cases', workflowId: wf, runId })).data.testCases.map(
        (c: any) => c.inputs.q,
      ),
    ).toEqual(['x', 'y']);
    const cancel = await tool('n8n_evaluations', { action: 'cancel', workflowId: wf, runId }, false);
    expect(cancel.success).toBe(false);
    expect(JSON.stringify(cancel)).toContain('already finished');
  });

  test('n8n_list_catalog lists the personal project and the tags', async () => {
    const projects = await tool('n8n_list_catalog', { kind: 'projects' });
    expect(projects.data.items).toEqual([expect.objectContaining({ type: 'personal', personal: true })]);
    await s.api('POST', '/tags', { name: 'catalogued' });
    expect(
      (await tool('n8n_list_catalog', { kind: 'tags', query: 'catalog' })).data.items.map((t: any) => t.name),
    ).toEqual(['catalogued']);
  });

  test('n8n_workflow_versions: local history of the changes made through n8n-mcp; native needs n8n >= 2.34', async () => {
    const local = await tool('n8n_workflow_versions', { mode: 'list', workflowId });
    expect(local.data.versions.length).toBeGreaterThan(0);
    const native = await tool('n8n_workflow_versions', { mode: 'list', source: 'native', workflowId }, false);
    expect(native).toMatchObject({ success: false, code: 'OFFICIAL_MCP_TOOL_UNAVAILABLE' });
  });

  test("n8n_manage_agents and n8n_explore_node_resources: n8n 2.8.4's MCP server has no such tools", async () => {
    expect(await tool('n8n_manage_agents', { action: 'search' }, false)).toMatchObject({
      success: false,
      code: 'OFFICIAL_MCP_TOOL_UNAVAILABLE',
    });
    const explore = await tool(
      'n8n_explore_node_resources',
      {
        nodeType: 'n8n-nodes-base.slack',
        version: 2,
        methodName: 'getChannels',
        methodType: 'listSearch',
        credentialType: 'slackApi',
        credentialId: 'x',
      },
      false,
    );
    expect(explore).toMatchObject({ success: false, code: 'OFFICIAL_MCP_TOOL_UNAVAILABLE' });
  });

  test('n8n_deploy_template fails cleanly when n8n.io cannot be reached', async () => {
    const before = (await s.api('GET', '/workflows')).body.data.length;
    const r = await tool('n8n_deploy_template', { templateId: 1 }, false);
    if (r.success) expect((await s.api('GET', `/workflows/${r.data.workflowId}`)).status).toBe(200);
    else expect((await s.api('GET', '/workflows')).body.data.length).toBe(before);
  });

  test('n8n_update_partial_workflow deactivates; n8n_delete_workflow deletes', async () => {
    await tool('n8n_update_partial_workflow', { id: workflowId, operations: [{ type: 'deactivateWorkflow' }] });
    expect((await s.api('GET', `/workflows/${workflowId}`)).body.active).toBe(false);
    await tool('n8n_delete_workflow', { id: workflowId });
    expect((await s.api('GET', `/workflows/${workflowId}`)).status).toBe(404);
  });
});
