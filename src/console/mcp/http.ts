// The MCP endpoint on the console port: /mcp, streamable HTTP, stateless (each POST is one
// complete JSON-RPC exchange answered as JSON). It is not behind the admin key: an agent
// authenticates per service with its own keys (X-Hamlet-Keys, or one bearer key), and each
// tool acts with exactly those. Browsers' requests are held to the allow-list of
// platform/mcp-origins.ts (HAMLET_MCP_ALLOWED_ORIGINS, HAMLET_CONSOLE_URL).
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerMcp, mcpAllowListFor } from '../../platform/mcp-http.js';
import type { ConsoleContext, ConsoleModule } from '../context.js';
import { catalogOf } from './catalog.js';
import { KeyRing } from './keyring.js';
import type { McpOptions } from './server.js';
import { hamletVersion } from '../version.js';

const JsonRpc = Type.Object(
  {},
  { additionalProperties: true, description: 'A JSON-RPC 2.0 message (MCP streamable HTTP)' },
);
const Problem = Type.Object({ message: Type.String(), code: Type.Optional(Type.String()) });
const Refused = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    error: Type.Object({ code: Type.Integer(), message: Type.String() }),
    id: Type.Null(),
  },
  { description: 'Host or Origin not allowed (DNS-rebinding protection)' },
);

async function traceToolCall(
  ctx: ConsoleContext,
  call: Parameters<NonNullable<McpOptions['onToolCall']>>[0],
): Promise<void> {
  const keyId = (await ctx.platform.keys.verify(call.service, call.key))?.id ?? null;
  ctx.platform.trace.record({
    kind: 'mcp',
    service: call.service,
    keyId,
    method: 'tools/call',
    route: call.tool,
    path: `${call.method} ${call.path}`,
    status: call.status,
    durationMs: call.ms,
  });
}

export const mcpEndpoint: ConsoleModule = (app, ctx) => {
  const allowed = mcpAllowListFor(ctx.platform, 'console');
  const catalog = catalogOf(ctx.selected.map((s) => s.definition));
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    // Loaded with the first MCP request, not at start (platform/mcp-http.ts says why).
    const { createMcpServer } = await import('./server.js');
    const server = createMcpServer({
      baseUrl: (service) => ctx.client.baseUrl(service),
      keyHeaders: (service, key) => ctx.platform.directory.keyHeaders(service, key),
      catalog,
      keys: KeyRing.fromHeaders(request.headers),
      version: hamletVersion(),
      // The call itself is traced by the service as kind http; this entry says an agent made it through MCP.
      onToolCall: (call) => void traceToolCall(ctx, call),
    });
    await answerMcp(server, request, reply, request.body, allowed);
  };
  const schema = { response: { 200: JsonRpc, 400: Problem, 403: Refused, 405: Problem } };
  app.post(
    '/mcp',
    { schema: { ...schema, summary: 'MCP (streamable HTTP) for all the services', body: JsonRpc } },
    handle,
  );
  // Stateless: no server-initiated stream to open (GET) and no session to end (DELETE).
  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.code(405).header('allow', 'POST').send({
      message: 'Method not allowed: this MCP endpoint is stateless; POST JSON-RPC requests',
      code: 'method_not_allowed',
    });
  app.get('/mcp', { schema: { ...schema, summary: 'No server-sent stream in stateless mode (405)' } }, notAllowed);
  app.delete('/mcp', { schema: { ...schema, summary: 'No sessions to end in stateless mode (405)' } }, notAllowed);
};
