// The tools and resources the Hamlet MCP server offers: those the services declare
// (ServiceDefinition.mcp, in each service's mcp-tools.ts), each tagged with its service. The
// input schemas are not written here but derived from the route's own request schema (see
// schemas.ts), so a tool accepts exactly what the service accepts.
import type { McpResource, McpTool } from '../../platform/mcp-tools.js';
import type { ServiceDefinition } from '../../platform/service.js';

export interface ToolRoute extends McpTool {
  service: string;
}

export interface ResourceRoute extends McpResource {
  service: string;
}

export interface McpCatalog {
  tools: ToolRoute[];
  resources: ResourceRoute[];
}

/** The catalog of the given services, in their order; a tool name two services declare is refused. */
export function catalogOf(definitions: Array<Pick<ServiceDefinition, 'name' | 'mcp'>>): McpCatalog {
  const tools = definitions.flatMap(({ name, mcp }) => (mcp?.tools ?? []).map((t) => ({ ...t, service: name })));
  const resources = definitions.flatMap(({ name, mcp }) =>
    (mcp?.resources ?? []).map((r) => ({ ...r, service: name })),
  );
  const seen = new Set<string>();
  for (const { name, service } of tools) {
    if (seen.has(name)) throw new Error(`two services declare the MCP tool ${name} (one of them ${service})`);
    seen.add(name);
  }
  return { tools, resources };
}
