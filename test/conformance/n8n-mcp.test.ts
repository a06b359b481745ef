// Conformance with a real n8n client: the npm package `n8n-mcp` (installed on demand into a
// cache by scripts/clients/install.ts, not a devDependency: its optional better-sqlite3 would
// be a second native build in every `npm ci`; it runs on its sql.js fallback here), run as its
// stdio MCP server against this service (N8N_API_URL / N8N_API_KEY) and driven with the MCP
// SDK's client through every n8n_* management tool whose endpoints the service offers:
// workflows (create, get, list, full and partial update, activation, validate, autofix,
// delete), webhook test runs, executions, credentials, the audit and the health check.
// Tools for what the service does not have (data tables, folders, evaluations, n8n's own MCP
// server, node catalogs, templates from n8n.io) are not called; the list is checked so a new
// n8n_* tool in a later n8n-mcp shows up here.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { binOf, ensureClient } from '../../scripts/clients/install.js';
import { startWorkflowServer, webhookWorkflow, type WorkflowTestServer } from '../workflow/helpers.js';

/** n8n_* tools that need endpoints this service does not offer (n8n-mcp 2.87.0). */
const NOT_OFFERED = ['n8n_evaluations', 'n8n_manage_datatable', 'n8n_manage_folders', 'n8n_manage_agents', 'n8n_explore_node_resources', 'n8n_list_catalog', 'n8n_deploy_template', 'n8n_workflow_versions'];

let s: WorkflowTestServer;
let client: Client;

beforeAll(async () => {
  await ensureClient('n8n-mcp');
  s = await startWorkflowServer();
  const env = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binOf('n8n-mcp', 'n8n-mcp', 'n8n-mcp')],
    env: {
      ...env,
      N8N_API_URL: s.url,
      N8N_API_KEY: s.key,
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
  const r = (await client.callTool({ name, arguments: args })) as { content: Array<{ type: string; text?: string }>; isError?: boolean };
  const text = r.content.find((c) => c.type === 'text')?.text ?? '';
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = { text };
  }
  if (expectSuccess) expect(body.success, `${name} ${JSON.stringify(args).slice(0, 200)} → ${text.slice(0, 1500)}`).toBe(true);
  return body;
}

describe('n8n-mcp against the service', () => {
  let workflowId: string;

  test('lists its tools; the management tools are all accounted for', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    const management = names.filter((n) => n.startsWith('n8n_'));
    const called = ['n8n_health_check', 'n8n_create_workflow', 'n8n_get_workflow', 'n8n_list_workflows', 'n8n_update_full_workflow', 'n8n_update_partial_workflow', 'n8n_validate_workflow', 'n8n_autofix_workflow', 'n8n_test_workflow', 'n8n_executions', 'n8n_manage_credentials', 'n8n_audit_instance', 'n8n_delete_workflow'];
    expect([...management].sort()).toEqual([...called, ...NOT_OFFERED].sort());
  });

  test('n8n_health_check', async () => {
    const h = await tool('n8n_health_check', {});
    expect(h.data.status).toBe('ok');
  });

  test('n8n_create_workflow, n8n_get_workflow, n8n_list_workflows', async () => {
    const wf = webhookWorkflow('mcp-echo', 'mcp echo');
    const created = await tool('n8n_create_workflow', { name: wf.name, nodes: wf.nodes, connections: wf.connections, settings: wf.settings });
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
    await tool('n8n_update_full_workflow', { id: workflowId, name: wf.name, nodes: wf.nodes, connections: wf.connections, settings: wf.settings });
    expect((await s.api('GET', `/workflows/${workflowId}`)).body.name).toBe('mcp echo v2');
    await tool('n8n_update_partial_workflow', { id: workflowId, operations: [{ type: 'updateName', name: 'mcp echo v3' }, { type: 'activateWorkflow' }] });
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
    const created = await tool('n8n_manage_credentials', { action: 'create', name: 'mcp header', type: 'httpHeaderAuth', data: { name: 'x-api-key', value: 'mcp-secret' } });
    const id = created.data.id;
    expect(JSON.stringify(created)).not.toContain('mcp-secret');
    expect((await tool('n8n_manage_credentials', { action: 'list' })).data.credentials.map((c: any) => c.id)).toContain(id);
    expect((await tool('n8n_manage_credentials', { action: 'get', id })).data.name).toBe('mcp header');
    await tool('n8n_manage_credentials', { action: 'update', id, name: 'mcp header 2', data: { name: 'x-api-key', value: 'rotated' } });
    expect((await s.api('GET', `/credentials/${id}`)).body.name).toBe('mcp header 2');
    await tool('n8n_manage_credentials', { action: 'delete', id });
    expect((await s.api('GET', `/credentials/${id}`)).status).toBe(404);
  });

  test('n8n_audit_instance', async () => {
    await s.api('POST', '/credentials', { name: 'never used', type: 'httpBearerAuth', data: { token: 't' } });
    const audit = await tool('n8n_audit_instance', { categories: ['credentials', 'instance'] });
    // n8n-mcp renders n8n's report as markdown: our sections and their findings come through.
    expect(audit.data.report).toMatch(/### Credentials Risk Report\n- \*\*Credentials not used in any workflow:\*\*[^\n]*\n[^\n]*\n {2}- Affected: 1 items/);
    expect(audit.data.report).toContain('### Instance Risk Report');
    expect(audit.data.summary.totalFindings).toBeGreaterThan(0);
  });

  test('n8n_update_partial_workflow deactivates; n8n_delete_workflow deletes', async () => {
    await tool('n8n_update_partial_workflow', { id: workflowId, operations: [{ type: 'deactivateWorkflow' }] });
    expect((await s.api('GET', `/workflows/${workflowId}`)).body.active).toBe(false);
    await tool('n8n_delete_workflow', { id: workflowId });
    expect((await s.api('GET', `/workflows/${workflowId}`)).status).toBe(404);
  });
});
