// Calls to the sibling Hamlet services over their public HTTP APIs, as any client would
// (services meet where real services meet). The base URL and key come from the node's
// parameters (`baseUrl`, `apiKey`, e.g. `={{ $env.BLOG_KEY }}` with WORKFLOW_ENV_ALLOW), else
// from HAMLET_<SERVICE>_URL / HAMLET_<SERVICE>_API_KEY in the operator's environment.
import { NodeOperationError, type NodeContext } from '../engine/node-type.js';
import { eachItem } from './util.js';

export interface ServiceCall {
  service: 'blog' | 'mail' | 'community' | 'home';
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  itemIndex: number;
}

export async function callService(ctx: NodeContext, call: ServiceCall): Promise<Record<string, unknown>> {
  const upper = call.service.toUpperCase();
  // A URL from the workflow is user input and goes through the SSRF guard; the operator's own
  // configuration (HAMLET_<SERVICE>_URL, the configured port) may name this machine.
  const fromNode = String((await ctx.param('baseUrl', call.itemIndex, '')) ?? '');
  const base = (fromNode || ctx.services.serviceUrl(call.service) || '').replace(/\/$/, '');
  if (!base)
    throw new NodeOperationError(
      `No URL for the ${call.service} service: set the node's Base URL or HAMLET_${upper}_URL`,
    );
  const key = String(
    (await ctx.param('apiKey', call.itemIndex, '')) || ctx.services.env[`HAMLET_${upper}_API_KEY`] || '',
  );
  if (!key)
    throw new NodeOperationError(
      `No API key for the ${call.service} service: set the node's API Key or HAMLET_${upper}_API_KEY`,
    );
  const send = fromNode ? ctx.services.fetch : ctx.services.fetchTrusted;
  const res = await send(base + call.path, {
    method: call.method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json' },
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    /* keep the text */
  }
  if (!res.ok) {
    const b = body as { message?: string; error?: string | { message?: string } };
    const message =
      typeof b?.error === 'object'
        ? b.error?.message
        : (b?.error ?? b?.message ?? (typeof body === 'string' ? body : ''));
    throw new NodeOperationError(
      `The ${call.service} service answered ${res.status}: ${String(message).slice(0, 300)}`,
    );
  }
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : { data: body };
}

/** Runs a per-item service call, honouring continueOnFail. */
export async function perItem(ctx: NodeContext, fn: (i: number) => Promise<Record<string, unknown>>) {
  return [await eachItem(ctx, async (i) => ({ json: await fn(i), pairedItem: { item: i } }))];
}
