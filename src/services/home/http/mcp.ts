// HA's MCP server endpoint: /api/mcp, streamable HTTP (stateless: each POST is a complete
// JSON-RPC exchange answered as JSON), authenticated with the home's bearer tokens like every
// /api route. Built on the official @modelcontextprotocol/sdk server. Browsers' requests are held
// to the platform's MCP allow-list (Host and Origin; HAMLET_MCP_ALLOWED_ORIGINS, HAMLET_HOME_URL).
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../../platform/errors.js';
import type { App } from '../../../platform/http.js';
import { answerMcp, mcpAllowListFor } from '../../../platform/mcp-http.js';
import { HA_VERSION } from '../core/home.js';
import { bodyCheckedByHandler, INVALID_JSON } from './body.js';
import { TAGS, type HttpDeps } from './deps.js';
import { errorResponses } from './envelope.js';

const INSTRUCTIONS =
  'You are a voice assistant for a home. Answer questions about the world truthfully. When controlling the home, call the intent tools; ' +
  'prefer passing just the name and domain for a device, and just the area name and domain for an area. Use GetLiveContext to learn the current state of the home.';

const JsonRpc = Type.Object(
  {},
  { additionalProperties: true, description: 'A JSON-RPC 2.0 message (MCP streamable HTTP)' },
);

export function registerMcpRoutes(app: App, { home, persist, websocket }: HttpDeps): void {
  const allowed = mcpAllowListFor(websocket.platform, 'home');
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    // Loaded with the first MCP request, not at start (platform/mcp-http.ts says why).
    const [{ McpServer }, { registerHomeTools }] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/mcp.js'),
      import('../mcp/tools.js'),
    ]);
    const server = new McpServer({ name: 'home-assistant', version: HA_VERSION }, { instructions: INSTRUCTIONS });
    registerHomeTools(
      server,
      home,
      () => home.context(request.homeUserId),
      () => persist.commit(),
    );
    await answerMcp(server, request, reply, request.body === INVALID_JSON ? undefined : request.body, allowed);
  };
  const schema = {
    tags: TAGS,
    response: {
      200: JsonRpc,
      403: Type.Object(
        {},
        {
          additionalProperties: true,
          description: 'Host or Origin not allowed (DNS-rebinding protection): a JSON-RPC error',
        },
      ),
      ...errorResponses(400, 401, 405),
    },
  };
  app.post(
    '/api/mcp',
    {
      ...bodyCheckedByHandler(app),
      schema: { ...schema, summary: 'MCP (streamable HTTP): JSON-RPC requests to the Assist tools', body: JsonRpc },
    },
    handle,
  );
  // Stateless: no server-initiated stream to open (GET) and no session to end (DELETE); the
  // transport would hold a GET open forever, so these answer 405 as the MCP spec allows.
  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) => {
    void reply.header('allow', 'POST');
    throw new HttpError(405, 'Method not allowed');
  };
  app.get(
    '/api/mcp',
    { schema: { ...schema, summary: 'MCP (streamable HTTP): no server-sent stream in stateless mode (405)' } },
    notAllowed,
  );
  app.delete(
    '/api/mcp',
    { schema: { ...schema, summary: 'MCP (streamable HTTP): no sessions to end in stateless mode (405)' } },
    notAllowed,
  );
}
