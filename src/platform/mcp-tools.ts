// What a service declares for the Hamlet MCP server (src/console/mcp): tools, each one route of
// its public API, and resources, each one GET of it. The MCP server iterates the services'
// declarations (ServiceDefinition.mcp) and names none; the input schemas are not written here but
// derived from the route's own request schema, so a tool accepts exactly what the service accepts.
export interface McpTool {
  /** Unique across services: by convention `<service>_<action>`. */
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route as the service's OpenAPI document names it, e.g. /v0/inboxes/{inbox_id}/messages. */
  path: string;
  description: string;
  /** Routes anyone may call (registration, public reads): no key of the service is needed. */
  public?: boolean;
}

/** A resource an agent can read: a fixed URI or a template, each one GET of the service. */
export interface McpResource {
  uri: string;
  /** The GET path; `{x}` placeholders are filled from the URI template's variables. */
  path: string;
  name: string;
  description: string;
  template?: boolean;
  public?: boolean;
}

export interface McpTools {
  tools: McpTool[];
  resources?: McpResource[];
}
