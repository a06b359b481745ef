// Tool input schemas derived from the services' own request schemas: each service publishes
// its OpenAPI document at /docs/json (built from the TypeBox schema every route declares), and a
// tool's input is that route's path parameters, query parameters and body properties in one
// object. Read once per service address and kept.
import type { ToolRoute } from './catalog.js';

type JsonSchema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
  description?: string;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/** A tool's input schema and how to split a call's arguments back into path, query and body. */
export interface ToolShape {
  inputSchema: {
    type: 'object';
    properties: Record<string, JsonSchema>;
    required?: string[];
    additionalProperties?: boolean;
  };
  pathParams: string[];
  queryParams: string[];
  /** The body is the arguments' remaining properties, or (for non-object bodies) the `body` argument. */
  bodyAs: 'none' | 'properties' | 'body';
}

const documents = new Map<string, Promise<{ paths: Record<string, Record<string, Operation>> }>>();

async function openApiOf(baseUrl: string) {
  let doc = documents.get(baseUrl);
  if (!doc) {
    doc = fetch(`${baseUrl}/docs/json`).then(async (res) => {
      if (!res.ok) throw new Error(`${baseUrl}/docs/json answered ${res.status}`);
      return (await res.json()) as { paths: Record<string, Record<string, Operation>> };
    });
    doc.catch(() => documents.delete(baseUrl));
    documents.set(baseUrl, doc);
  }
  return doc;
}

export async function shapeOf(route: ToolRoute, baseUrl: string): Promise<ToolShape> {
  const doc = await openApiOf(baseUrl);
  const op = doc.paths[route.path]?.[route.method.toLowerCase()];
  if (!op) throw new Error(`${route.service} offers no ${route.method} ${route.path}`);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const pathParams: string[] = [];
  const queryParams: string[] = [];
  for (const p of op.parameters ?? []) {
    if (p.in !== 'path' && p.in !== 'query') continue;
    properties[p.name] = {
      ...(p.schema ?? { type: 'string' }),
      ...(p.description ? { description: p.description } : {}),
    };
    (p.in === 'path' ? pathParams : queryParams).push(p.name);
    // A query parameter with a default is optional to the caller, whatever the document says.
    if (p.in === 'path' || (p.required && p.schema?.default === undefined)) required.push(p.name);
  }
  const body = op.requestBody?.content?.['application/json']?.schema;
  let bodyAs: ToolShape['bodyAs'] = 'none';
  if (body && body.type === 'object' && body.properties && typeof body.properties === 'object') {
    bodyAs = 'properties';
    Object.assign(properties, body.properties);
    for (const name of (body.required as string[] | undefined) ?? []) if (!required.includes(name)) required.push(name);
  } else if (body) {
    bodyAs = 'body';
    properties.body = body;
  }
  const open = bodyAs === 'properties' && body?.additionalProperties !== false;
  return {
    inputSchema: {
      type: 'object',
      properties,
      ...(required.length ? { required } : {}),
      ...(open ? {} : { additionalProperties: false }),
    },
    pathParams,
    queryParams,
    bodyAs,
  };
}

/** Splits a tool call's arguments into the request the route expects. */
export function requestOf(
  route: ToolRoute,
  shape: ToolShape,
  args: Record<string, unknown>,
): { path: string; body?: unknown } {
  let path = route.path;
  for (const name of shape.pathParams) {
    const value = args[name];
    if (value === undefined || value === null || value === '') throw new ToolInputError(`${name} is required`);
    path = path.replace(`{${name}}`, pathSegment(name, value));
  }
  const query = new URLSearchParams();
  for (const name of shape.queryParams) {
    const value = args[name];
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value])
      query.append(name, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  if (query.size) path += `?${query}`;
  if (shape.bodyAs === 'body') return { path, body: args.body };
  if (shape.bodyAs === 'properties') {
    const taken = new Set([...shape.pathParams, ...shape.queryParams]);
    return { path, body: Object.fromEntries(Object.entries(args).filter(([k]) => !taken.has(k))) };
  }
  return { path };
}

export class ToolInputError extends Error {}

/**
 * A value as exactly one segment of a route's path. Percent-encoding keeps `/` (and `%2f`, as
 * `%252f`) inside the segment, but `.` and `..` are resolved away by every URL parser, even
 * encoded as `%2e`, and would reach another route of the service: they are refused.
 */
export function pathSegment(name: string, value: unknown): string {
  const text = String(value);
  if (text === '.' || text === '..')
    throw new ToolInputError(`${name} cannot be "${text}": it must name one item, not a path`);
  return encodeURIComponent(text);
}
