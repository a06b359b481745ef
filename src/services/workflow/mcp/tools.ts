// The instance-level MCP server's tools as n8n 2.8.4 names and shapes them: search_workflows,
// get_workflow_details and execute_workflow, over the workflows that are active, not archived
// and have `settings.availableInMCP` (n8n's "Available in MCP"). Workflows start at their first
// enabled Schedule, Webhook, Form or Chat trigger with what n8n pins for it; a tool's refusal
// is n8n's words, as a tool error (search/details) or `{success: false, error}` (execute).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Clock } from '../../../platform/clock.js';
import type { Item } from '../expressions/api.js';
import type { WorkflowNode } from '../engine/types.js';
import type { Runner } from '../executions/runner.js';
import { nodeRegistry } from '../nodes/registry.js';
import type { WorkflowRow, WorkflowStore } from '../store/index.js';
import type { WorkflowCache } from '../workflows/model.js';
import { triggerDetails, SUPPORTED_TRIGGERS } from './trigger-info.js';

const MAX_RESULTS = 200;

/** What the owner may do with any workflow (n8n's global owner, personal project owner and workflow owner scopes). */
const OWNER_WORKFLOW_SCOPES = [
  'workflow:create',
  'workflow:delete',
  'workflow:execute',
  'workflow:execute-chat',
  'workflow:list',
  'workflow:move',
  'workflow:publish',
  'workflow:read',
  'workflow:share',
  'workflow:unpublish',
  'workflow:update',
];

export interface McpToolDeps {
  store: WorkflowStore;
  cache: WorkflowCache;
  runner: Runner;
  clock: Clock;
  timezone: string;
  /** The owner's project: a projectId filter naming another finds nothing. */
  projectId: string;
  baseUrl(): string;
  /** The `name` of an httpHeaderAuth credential (to say which header a webhook wants), when readable. */
  headerName(node: WorkflowNode): Promise<string | undefined>;
}

const parse = <T>(text: string | null, fallback: T): T => {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

const settingsOf = (row: WorkflowRow) => parse<Record<string, unknown> | null>(row.settings, null);
const inMcp = (row: WorkflowRow) => row.active === 1 && settingsOf(row)?.availableInMCP === true;

/** The first enabled trigger the MCP server can start (n8n's findMcpSupportedTrigger). */
function mcpTrigger(nodes: WorkflowNode[]): WorkflowNode | undefined {
  return nodes.find((n) => n.type in SUPPORTED_TRIGGERS && n.disabled !== true);
}

const nodeSchema = z.object({ name: z.string(), type: z.string() }).passthrough();

export function registerWorkflowMcpTools(server: McpServer, d: McpToolDeps): void {
  server.registerTool(
    'search_workflows',
    {
      description: 'Search for workflows with optional filters. Returns a preview of each workflow.',
      inputSchema: {
        limit: z
          .number()
          .int()
          .positive()
          .max(MAX_RESULTS)
          .optional()
          .describe(`Limit the number of results (max ${MAX_RESULTS})`),
        query: z.string().optional().describe('Filter by name or description'),
        projectId: z.string().optional(),
      },
      outputSchema: {
        data: z
          .array(
            z.object({
              id: z.string(),
              name: z.string().nullable(),
              description: z.string().nullable().optional(),
              active: z.boolean().nullable(),
              createdAt: z.string().nullable(),
              updatedAt: z.string().nullable(),
              triggerCount: z.number().nullable(),
              nodes: z.array(nodeSchema),
              scopes: z.array(z.string()),
              canExecute: z.boolean(),
            }),
          )
          .describe('List of workflows matching the query'),
        count: z.number().int().min(0).describe('Total number of workflows that match the filters'),
      },
      annotations: {
        title: 'Search Workflows',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async ({ limit = MAX_RESULTS, query, projectId }) => {
      const q = query?.toLowerCase();
      const matched = (await d.store.activeWorkflows())
        .filter(inMcp)
        .filter((w) => !q || w.name.toLowerCase().includes(q) || (w.description ?? '').toLowerCase().includes(q))
        .sort((a, b) => b.updated_at.localeCompare(a.updated_at) || a.id.localeCompare(b.id));
      // One owner, one project: another project id holds nothing.
      const visible = projectId && projectId !== d.projectId ? [] : matched;
      const data = visible.slice(0, Math.min(Math.max(1, limit), MAX_RESULTS)).map((w) => ({
        id: w.id,
        name: w.name,
        description: w.description,
        active: w.active_version_id !== null || w.active === 1,
        createdAt: w.created_at,
        updatedAt: w.updated_at,
        triggerCount: w.trigger_count,
        nodes: parse<WorkflowNode[]>(w.nodes, []).map((n) => ({ name: n.name, type: n.type })),
        scopes: OWNER_WORKFLOW_SCOPES,
        canExecute: true,
      }));
      const payload = { data, count: visible.length };
      return { structuredContent: payload, content: [{ type: 'text', text: JSON.stringify(payload) }] };
    },
  );

  server.registerTool(
    'get_workflow_details',
    {
      description: 'Get detailed information about a specific workflow including trigger details',
      inputSchema: { workflowId: z.string().describe('The ID of the workflow to retrieve') },
      outputSchema: {
        workflow: z
          .object({
            id: z.string(),
            name: z.string().nullable(),
            active: z.boolean(),
            nodes: z.array(nodeSchema),
            scopes: z.array(z.string()),
            canExecute: z.boolean(),
          })
          .passthrough(),
        triggerInfo: z.string(),
      },
      annotations: {
        title: 'Get Workflow Details',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async ({ workflowId }) => {
      const row = workflowId.length <= 64 ? await d.store.getWorkflow(workflowId) : undefined;
      if (!row || !settingsOf(row)?.availableInMCP) throw new Error('Workflow not found');
      // n8n describes the published version; an unpublished workflow has no nodes there.
      const nodes = row.active === 1 ? parse<WorkflowNode[]>(row.nodes, []) : [];
      const connections = row.active === 1 ? parse<Record<string, unknown>>(row.connections, {}) : {};
      const tags = ((await d.store.tagsOf([row.id])).get(row.id) ?? []).map((t) => ({ id: t.id, name: t.name }));
      const triggers = nodes.filter((n) => n.type in SUPPORTED_TRIGGERS && n.disabled !== true);
      const workflow = {
        id: row.id,
        name: row.name,
        active: row.active === 1,
        isArchived: false,
        versionId: row.version_id,
        triggerCount: row.trigger_count,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        settings: settingsOf(row),
        connections,
        nodes: nodes.map(({ credentials: _credentials, ...node }) => node),
        tags,
        meta: parse<unknown>(row.meta, null),
        parentFolderId: null,
        ...(row.description ? { description: row.description } : {}),
        scopes: OWNER_WORKFLOW_SCOPES,
        canExecute: true,
      };
      const payload = { workflow, triggerInfo: await triggerDetails(triggers, d.baseUrl(), d.headerName) };
      return { structuredContent: payload, content: [{ type: 'text', text: JSON.stringify(payload) }] };
    },
  );

  server.registerTool(
    'execute_workflow',
    {
      description:
        'Execute a workflow by ID. Before executing always ensure you know the input schema by first using the get_workflow_details tool and consulting workflow description',
      inputSchema: {
        workflowId: z.string().describe('The ID of the workflow to execute'),
        inputs: z
          .discriminatedUnion('type', [
            z.object({ type: z.literal('chat'), chatInput: z.string().describe('Input for chat-based workflows') }),
            z.object({
              type: z.literal('form'),
              formData: z.record(z.string(), z.unknown()).describe('Input data for form-based workflows'),
            }),
            z.object({
              type: z.literal('webhook'),
              webhookData: z
                .object({
                  method: z
                    .enum(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'])
                    .optional()
                    .default('GET')
                    .describe('HTTP method (defaults to GET)'),
                  query: z.record(z.string(), z.string()).optional().describe('Query string parameters'),
                  body: z
                    .record(z.string(), z.unknown())
                    .optional()
                    .describe('Request body data (main webhook payload)'),
                  headers: z
                    .record(z.string(), z.string())
                    .optional()
                    .describe('HTTP headers (e.g., authorization, content-type)'),
                })
                .describe('Input data for webhook-based workflows'),
            }),
          ])
          .optional()
          .describe('Inputs to provide to the workflow.'),
      },
      outputSchema: {
        success: z.boolean(),
        executionId: z.string().nullable().optional(),
        result: z.unknown().optional().describe('Workflow execution result data'),
        error: z.unknown().optional(),
      },
      annotations: {
        title: 'Execute Workflow',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: true,
      },
    },
    async ({ workflowId, inputs }) => {
      const output = await execute(d, workflowId, inputs).catch((err: Error) => ({
        success: false,
        executionId: null,
        error: err.message,
      }));
      return { structuredContent: output, content: [{ type: 'text', text: JSON.stringify(output) }] };
    },
  );
}

type Inputs =
  | { type: 'chat'; chatInput: string }
  | { type: 'form'; formData: Record<string, unknown> }
  | {
      type: 'webhook';
      webhookData: {
        method?: string;
        query?: Record<string, string>;
        body?: Record<string, unknown>;
        headers?: Record<string, string>;
      };
    }
  | undefined;

/** The items n8n pins on the trigger for a run started through MCP (its getPinDataForTrigger). */
function triggerItems(d: McpToolDeps, node: WorkflowNode, inputs: Inputs, timezone: string): Item[] {
  const type = SUPPORTED_TRIGGERS[node.type];
  if (type === 'Webhook Trigger') {
    const w = inputs?.type === 'webhook' ? inputs.webhookData : undefined;
    return [{ json: { headers: w?.headers ?? {}, query: w?.query ?? {}, body: w?.body ?? {} } }];
  }
  if (type === 'Chat Trigger')
    return inputs?.type === 'chat'
      ? [{ json: { sessionId: `mcp-session-${d.clock.ms()}`, action: 'sendMessage', chatInput: inputs.chatInput } }]
      : [{ json: {} }];
  if (type === 'Form Trigger')
    return inputs?.type === 'form'
      ? [{ json: { submittedAt: d.clock.now().toISOString(), formMode: 'mcp', ...inputs.formData } }]
      : [{ json: {} }];
  return (
    nodeRegistry.get(node.type)?.manualItems?.({ now: d.clock.now(), timezone, baseUrl: d.baseUrl() }) ?? [{ json: {} }]
  );
}

async function execute(d: McpToolDeps, workflowId: string, inputs: Inputs) {
  const row = workflowId.length <= 64 ? await d.store.getWorkflow(workflowId) : undefined;
  if (!row) throw new Error(`Workflow with ID '${workflowId}' does not exist`);
  if (!settingsOf(row)?.availableInMCP)
    throw new Error(
      'Workflow is not available for execution via MCP. Enable access in the workflow settings to make it available.',
    );
  const prepared = d.cache.get(row);
  const trigger = row.active === 1 ? mcpTrigger(prepared.definition.nodes) : undefined;
  if (!trigger)
    throw new Error(
      `Only workflows with the following trigger nodes can be executed: ${Object.values(SUPPORTED_TRIGGERS).join(', ')}.`,
    );
  const timezone = String(prepared.definition.settings?.timezone ?? d.timezone);
  const mode = SUPPORTED_TRIGGERS[trigger.type] === 'Webhook Trigger' ? 'webhook' : 'trigger';
  const { row: exec, outcome } = await d.runner.run({
    prepared,
    mode,
    start: { node: trigger.name, items: triggerItems(d, trigger, inputs, timezone) },
  });
  const data = parse<{ resultData?: { error?: unknown } } | null>(exec.data, null);
  const resultData = data?.resultData ?? {};
  return {
    success: outcome.status !== 'error' && !resultData.error,
    executionId: String(exec.id),
    result: resultData,
    error: resultData.error,
  };
}
