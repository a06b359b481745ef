// The Hamlet MCP server: one server for all the services (the tools each declares). Each tool is one route of a
// service's public API, called over HTTP with the agent's own key for that service (KeyRing);
// resources read state (an inbox, a feed, the house) the same way. Used by the console's
// streamable HTTP endpoint (/mcp) and by `hamlet mcp` over stdio.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpCatalog, ResourceRoute, ToolRoute } from './catalog.js';
import type { KeyRing } from './keyring.js';
import { pathSegment, requestOf, shapeOf, ToolInputError } from './schemas.js';

export interface McpOptions {
  /** Where a service's HTTP API is reached, or undefined when it does not run. */
  baseUrl(service: string): string | undefined;
  /** The headers that carry a key to a service (each service declares its own; a bearer token by default). */
  keyHeaders(service: string, key: string): Record<string, string>;
  /** The services' tools and resources. */
  catalog: McpCatalog;
  keys: KeyRing;
  /** Keep keys that tool results hand out (stdio sessions; HTTP requests are stateless). */
  rememberKeys?: boolean;
  /** Told of every tool call that reached its service, for the trace (`key` is the agent's key for it, to look up its id). */
  onToolCall?(call: {
    tool: string;
    service: string;
    key?: string;
    method: string;
    path: string;
    status: number;
    ms: number;
  }): void;
  version: string;
}

const INSTRUCTIONS =
  'Hamlet runs a blog, a mailbox, a community, a smart home and a workflow engine. Each tool acts with your own key for its service: ' +
  'send your keys as X-Hamlet-Keys (or one as the bearer token). Registration tools need none and return the key to keep.';

/** The services a call can reach: those running, so an agent is never offered a tool that cannot work. */
const available = (opts: McpOptions) => opts.catalog.tools.filter((t) => opts.baseUrl(t.service));

export function createMcpServer(opts: McpOptions): Server {
  const server = new Server(
    { name: 'hamlet', version: opts.version },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: await Promise.all(
      available(opts).map(async (t) => ({
        name: t.name,
        description: `${t.description} (${t.service}: ${t.method} ${t.path}${t.public ? '' : `; needs your ${t.service} key`})`,
        inputSchema: (await shapeOf(t, opts.baseUrl(t.service)!)).inputSchema,
      })),
    ),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = available(opts).find((t) => t.name === request.params.name);
    if (!tool) return failure(`No tool named ${request.params.name}`);
    return callTool(tool, request.params.arguments ?? {}, opts);
  });

  const fixed = () => opts.catalog.resources.filter((r) => !r.template && opts.baseUrl(r.service));
  const templates = () => opts.catalog.resources.filter((r) => r.template && opts.baseUrl(r.service));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: fixed().map((r) => ({
      uri: r.uri,
      name: r.name,
      description: r.description,
      mimeType: 'application/json',
    })),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: templates().map((r) => ({
      uriTemplate: r.uri,
      name: r.name,
      description: r.description,
      mimeType: 'application/json',
    })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    for (const r of [...fixed(), ...templates()]) {
      const vars = matchTemplate(r.uri, uri);
      if (!vars) continue;
      const path = r.path.replace(/\{(\w+)\}/g, (_, name: string) => pathSegment(name, vars[name] ?? ''));
      const res = await call(r, path, 'GET', undefined, opts);
      if (res.status >= 400) throw new Error(`${r.service} answered ${res.status}: ${res.text}`);
      return { contents: [{ uri, mimeType: 'application/json', text: res.text }] };
    }
    throw new Error(`No resource ${uri}`);
  });
  return server;
}

async function callTool(tool: ToolRoute, args: Record<string, unknown>, opts: McpOptions): Promise<CallToolResult> {
  if (!tool.public && !opts.keys.get(tool.service)) {
    return failure(
      `${tool.name} needs your ${tool.service} key (hamlet_${tool.service}_…): send it in the X-Hamlet-Keys header or as the bearer token`,
    );
  }
  let req: { path: string; body?: unknown };
  try {
    req = requestOf(tool, await shapeOf(tool, opts.baseUrl(tool.service)!), args);
  } catch (err) {
    if (err instanceof ToolInputError) return failure(err.message);
    throw err;
  }
  const started = Date.now();
  const res = await call(tool, req.path, tool.method, req.body, opts);
  opts.onToolCall?.({
    tool: tool.name,
    service: tool.service,
    key: opts.keys.get(tool.service),
    method: tool.method,
    path: req.path.split('?')[0],
    status: res.status,
    ms: Date.now() - started,
  });
  if (opts.rememberKeys && res.status < 400 && res.json !== undefined) opts.keys.learnFrom(res.json);
  const text = res.text || `${res.status}`;
  return res.status >= 400
    ? failure(`${tool.service} answered ${res.status}: ${text}`)
    : { content: [{ type: 'text', text }] };
}

/** One HTTP call to a service with the agent's key for it (in the header that service reads). */
async function call(
  route: Pick<ToolRoute, 'service'> & { public?: boolean },
  path: string,
  method: string,
  body: unknown,
  opts: McpOptions,
) {
  const key = opts.keys.get(route.service);
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...(key ? opts.keyHeaders(route.service, key) : {}),
  };
  if (body !== undefined && method !== 'GET') headers['content-type'] = 'application/json';
  const res = await fetch(opts.baseUrl(route.service)! + path, {
    method,
    headers,
    body: body !== undefined && method !== 'GET' ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

const failure = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/** Variables of a `hamlet://…/{x}` template when `uri` matches it (a fixed URI matches itself). */
function matchTemplate(template: ResourceRoute['uri'], uri: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const m = new RegExp(`^${pattern}$`).exec(uri);
  if (!m) return undefined;
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
}
