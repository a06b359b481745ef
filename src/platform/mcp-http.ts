// Answers one MCP request over streamable HTTP in stateless mode (each POST a complete JSON-RPC
// exchange answered as JSON), for every MCP endpoint Hamlet serves (the home's /api/mcp, the
// console's /mcp). The server is made per request by the caller, with that request's rights.
// A request whose Host or Origin the endpoint's allow-list refuses (mcp-origins.ts) gets 403
// with a JSON-RPC error saying why, before any server is involved.
//
// The MCP SDK (and zod, which it brings) is some 170 modules: the endpoints load it with their
// first request (here and in each endpoint's handler), not with the server's start.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkMcpOrigin, mcpAllowList, type McpAllowList } from './mcp-origins.js';
import type { Platform } from './service.js';

/** The allow-list of a service's MCP endpoint, from the platform's settings (HAMLET_MCP_ALLOWED_ORIGINS, HAMLET_HOST, HAMLET_<SERVICE>_URL). */
export function mcpAllowListFor(platform: Pick<Platform, 'config' | 'directory'>, service: string): McpAllowList {
  return mcpAllowList({
    allowedOrigins: platform.config.mcpAllowedOrigins,
    bindHost: platform.config.host,
    publicUrl: platform.directory.publicUrl(service),
  });
}

export async function answerMcp(
  server: { connect(t: Transport): Promise<void>; close(): Promise<void> },
  request: FastifyRequest,
  reply: FastifyReply,
  body: unknown,
  allowed: McpAllowList,
): Promise<void> {
  const verdict = checkMcpOrigin(allowed, request.headers);
  if (!verdict.ok) {
    // The SDK's own refusal has this shape (code -32000, id null).
    return void reply
      .code(403)
      .type('application/json')
      .send(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: verdict.message }, id: null }));
  }
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  // The SDK writes the answer on the raw response; Fastify must not send one too.
  reply.hijack();
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request.raw, reply.raw, body);
}
