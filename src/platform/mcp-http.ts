// Answers one MCP request over streamable HTTP in stateless mode (each POST a complete JSON-RPC
// exchange answered as JSON), for every MCP endpoint Hamlet serves (the home's /api/mcp, the
// console's /mcp). The server is made per request by the caller, with that request's rights.
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { FastifyReply, FastifyRequest } from 'fastify';

export async function answerMcp(server: { connect(t: Transport): Promise<void>; close(): Promise<void> }, request: FastifyRequest, reply: FastifyReply, body: unknown): Promise<void> {
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
