// n8n's instance-level MCP server, as n8n 2.8.4 serves it: POST /mcp-server/http (MCP
// streamable HTTP, stateless) with the MCP API key as a bearer token, its three workflow tools
// (mcp/tools.ts); 401 with n8n's `Unauthorized: …` and a Bearer challenge, 403 `MCP access is
// disabled` until it is switched on. The switch and the key live where n8n's editor keeps
// them, under /rest/mcp (answers wrapped in `{data}` as n8n's REST API does); Hamlet has no
// editor sessions, so those routes take the workflow API key (X-N8N-API-KEY).
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../../platform/http.js';
import { badRequest, HttpError } from '../../../platform/errors.js';
import type { Keys } from '../../../platform/keys.js';
import { answerMcp, mcpAllowListFor } from '../../../platform/mcp-http.js';
import type { Platform } from '../../../platform/service.js';
import type { McpAccess } from '../mcp/access.js';
import type { McpToolDeps } from '../mcp/tools.js';
import type { InstanceOwner } from '../projects/owner.js';
import type { WorkflowStore } from '../store/index.js';
import type { WorkflowWrites } from '../workflows/service.js';
import { authHook } from './auth.js';
import { notFoundError, requireObjectBody } from './common.js';
import { SUPPORTED_TRIGGERS } from '../mcp/trigger-info.js';

const JsonRpc = Type.Object(
  {},
  { additionalProperties: true, description: 'A JSON-RPC 2.0 message (MCP streamable HTTP)' },
);
const Message = Type.Object({ message: Type.String() });
const Data = (description: string) =>
  Type.Object({ data: Type.Object({}, { additionalProperties: true, description }) });

export interface McpServerDeps {
  access: McpAccess;
  owner: InstanceOwner;
  store: WorkflowStore;
  writes: WorkflowWrites;
  tools: Omit<McpToolDeps, 'projectId'>;
}

/** n8n's 401: its message with the reason, and the Bearer challenge. */
function unauthorized(reply: FastifyReply, details?: string): FastifyReply {
  return reply
    .code(401)
    .header('www-authenticate', 'Bearer realm="n8n MCP Server"')
    .send({ message: `Unauthorized${details ? `: ${details}` : ''}` });
}

/** Why a bearer header is refused, in n8n's words; undefined when it carries the current key. */
async function refusal(access: McpAccess, header: string | undefined): Promise<{ details?: string } | undefined> {
  if (!header) return { details: 'Authorization header not sent' };
  if (!header.startsWith('Bearer')) return { details: 'Invalid authorization header format - Missing Bearer prefix' };
  const m = /^Bearer\s+(.+)$/i.exec(header);
  if (!m) return { details: 'Invalid authorization header format - Malformed Bearer token' };
  const token = m[1];
  if (token.split('.').length !== 3) return { details: 'jwt malformed' };
  // A well-formed key that is not the current one (rotated away, or never issued here).
  return (await access.verify(token)) ? undefined : {};
}

export function mcpServerRoutes(app: App, platform: Platform, keys: Keys, d: McpServerDeps): void {
  const allowed = mcpAllowListFor(platform, 'workflow');
  const tags = ['instance MCP'];

  app.head(
    '/mcp-server/http',
    { schema: { summary: 'MCP auth discovery: 401 with the Bearer challenge', tags } },
    async (_req, reply) => unauthorized(reply),
  );

  app.post(
    '/mcp-server/http',
    {
      schema: {
        summary:
          "n8n's instance-level MCP server (streamable HTTP): search_workflows, get_workflow_details, execute_workflow",
        tags,
        body: JsonRpc,
        response: { 200: JsonRpc, 401: Message, 403: Message },
      },
    },
    async (req: FastifyRequest, reply: FastifyReply) => {
      const refused = await refusal(d.access, req.headers.authorization);
      if (refused) return unauthorized(reply, refused.details);
      if (!(await d.access.enabled())) return reply.code(403).send({ message: 'MCP access is disabled' });
      // Loaded with the first MCP request, not at start (platform/mcp-http.ts says why).
      const [{ McpServer }, { registerWorkflowMcpTools }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/mcp.js'),
        import('../mcp/tools.js'),
      ]);
      const server = new McpServer({ name: 'n8n MCP Server', version: '1.0.0' });
      registerWorkflowMcpTools(server, { ...d.tools, projectId: d.owner.projectId });
      await answerMcp(server, req, reply, req.body, allowed);
    },
  );

  // Stateless, as n8n's: no server-sent stream to open and no session to end.
  const notAllowed = async (_req: FastifyRequest, reply: FastifyReply) => {
    void reply.header('allow', 'POST');
    throw new HttpError(405, 'Method not allowed');
  };
  app.get('/mcp-server/http', { schema: { hide: true } }, notAllowed);
  app.delete('/mcp-server/http', { schema: { hide: true } }, notAllowed);

  void app.register(
    async (rest) => {
      rest.addHook('onRequest', authHook(keys));
      rest.patch(
        '/settings',
        {
          schema: {
            summary: 'Switch the instance-level MCP server on or off',
            tags,
            body: Type.Object({ mcpAccessEnabled: Type.Boolean() }),
            response: { 200: Data('{mcpAccessEnabled}') },
          },
        },
        async (req) => {
          const body = requireObjectBody(req.body);
          if (typeof body.mcpAccessEnabled !== 'boolean') throw badRequest('mcpAccessEnabled must be boolean');
          await d.access.setEnabled(body.mcpAccessEnabled);
          return { data: { mcpAccessEnabled: body.mcpAccessEnabled } };
        },
      );
      rest.get(
        '/api-key',
        {
          schema: {
            summary: 'The MCP API key (made and shown whole the first time, redacted after)',
            tags,
            response: {
              200: Data("n8n's ApiKey: {id, userId, label, apiKey, audience, scopes, createdAt, updatedAt}"),
            },
          },
        },
        async () => ({
          data: await d.access.getOrCreate(d.owner.userId),
        }),
      );
      rest.post(
        '/api-key/rotate',
        {
          schema: {
            summary: 'A new MCP API key (the old one stops working)',
            tags,
            response: { 200: Data("n8n's ApiKey, with the whole key") },
          },
        },
        async () => ({ data: await d.access.rotate(d.owner.userId) }),
      );
      rest.patch<{ Params: { workflowId: string } }>(
        '/workflows/:workflowId/toggle-access',
        {
          schema: {
            summary: "Set a workflow's availableInMCP",
            tags,
            params: Type.Object({ workflowId: Type.String() }),
            body: Type.Object({ availableInMCP: Type.Boolean() }),
            response: { 200: Data('{id, settings, versionId}') },
          },
        },
        async (req) => {
          const body = requireObjectBody(req.body);
          if (typeof body.availableInMCP !== 'boolean') throw badRequest('availableInMCP must be boolean');
          const row = req.params.workflowId.length <= 64 ? await d.store.getWorkflow(req.params.workflowId) : undefined;
          if (!row) throw notFoundError();
          if (body.availableInMCP) {
            if (row.active !== 1) throw badRequest('MCP access can only be set for published workflows');
            const nodes = JSON.parse(row.nodes) as Array<{ type: string; disabled?: boolean }>;
            if (!nodes.some((n) => n.type in SUPPORTED_TRIGGERS && n.disabled !== true)) {
              throw badRequest(
                `MCP access can only be set for published workflows with one of the following trigger nodes: ${Object.values(SUPPORTED_TRIGGERS).join(', ')}.`,
              );
            }
          }
          const settings = {
            ...(JSON.parse(row.settings) as Record<string, unknown>),
            availableInMCP: body.availableInMCP,
          };
          const next = await d.writes.patch(row, { settings });
          return { data: { id: next.id, settings: JSON.parse(next.settings), versionId: next.version_id } };
        },
      );
    },
    { prefix: '/rest/mcp' },
  );
}
