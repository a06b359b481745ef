// Webhook endpoints: production `/webhook/<path>` of active workflows, `/webhook-test/<path>`
// of any stored workflow (n8n's editor test URL; runs in mode manual), and
// `/webhook-waiting/<executionId>` that resumes an execution parked by Wait.
//
// Response modes of the Webhook node: `onReceived` answers at once (after the execution and
// its job are durably written); `lastNode` answers with the last node's data when the run
// ends; `responseNode` answers when Respond to Webhook runs (or 200 with an empty body if
// the run ends without reaching it, as n8n does).
import { validateHeaderName, validateHeaderValue } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../../platform/http.js';
import type { Item } from '../expressions/api.js';
import type { WebhookResponse } from '../engine/node-type.js';
import type { WorkflowNode } from '../engine/types.js';
import type { Runner } from '../executions/runner.js';
import type { ExecutionRow, WorkflowStore } from '../store/index.js';
import type { Activation } from '../triggers/activation.js';
import { matchDynamic, normalisePath, webhookRoutes, type WebhookTarget } from '../triggers/webhooks.js';
import type { PreparedWorkflow, WorkflowCache } from '../workflows/model.js';
import { nodeRegistry } from '../nodes/registry.js';
import { readPath } from '../nodes/util.js';
import { triggerKind } from '../workflows/triggers.js';
import { checkWebhookAuth } from './webhook-auth.js';
import { MultipartError } from './multipart.js';
import { webhookPayload, type WebhookPayload } from './webhook-body.js';

export interface WebhookDeps {
  activation: Activation;
  runner: Runner;
  store: WorkflowStore;
  cache: WorkflowCache;
  /** Resolves a node's credential (the Webhook node's authentication). */
  credential?(node: WorkflowNode, type: string): Promise<Record<string, unknown>>;
  nowS(): number;
  baseUrl(): string;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

function sendResponse(reply: FastifyReply, r: WebhookResponse) {
  // A header Node cannot send (a redirect to a URL with unencoded unicode) fails the answer, not
  // the run: 500 with Node's own message, as n8n answers (oracle: respond-1.1-redirect, unicode).
  for (const [k, v] of Object.entries(r.headers)) {
    try {
      validateHeaderName(k);
      validateHeaderValue(k, v);
    } catch (e) {
      return reply
        .code(500)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ code: 0, message: (e as Error).message }));
    }
  }
  reply.code(r.status);
  for (const [k, v] of Object.entries(r.headers)) reply.header(k, v);
  if (r.body === undefined || r.body === null) {
    if (!reply.getHeader('content-type')) reply.type('application/json; charset=utf-8');
    return reply.send('');
  }
  if (typeof r.body === 'string' || Buffer.isBuffer(r.body)) {
    if (!reply.getHeader('content-type')) reply.type('text/plain; charset=utf-8');
    return reply.send(r.body);
  }
  if (!reply.getHeader('content-type')) reply.type('application/json; charset=utf-8');
  return reply.send(JSON.stringify(r.body));
}

/**
 * The Webhook node's answer code (oracle: webhook-*-code): v1 reads `responseCode`; v2 reads
 * `options.responseCode.values.responseCode` ("customCode": `customCode`) and ignores a plain number there.
 */
function responseCode(node: WorkflowNode): number {
  const p = (node.parameters ?? {}) as { responseCode?: unknown; options?: { responseCode?: unknown } };
  if (Number(node.typeVersion ?? 1) < 2) return Number(p.responseCode ?? 200) || 200;
  const values = (p.options?.responseCode as { values?: { responseCode?: unknown; customCode?: unknown } } | undefined)
    ?.values;
  const code = values?.responseCode === 'customCode' ? values.customCode : values?.responseCode;
  return Number(code ?? 200) || 200;
}

/** A text answer goes out as n8n sends it (text/html), other values as JSON. */
function textOrJson(value: unknown): { headers: Record<string, string>; body: unknown } {
  return typeof value === 'string'
    ? { headers: { 'content-type': 'text/html; charset=utf-8' }, body: value }
    : { headers: {}, body: value };
}

function headerEntries(node: WorkflowNode): Record<string, string> {
  const entries = ((node.parameters as any)?.options?.responseHeaders?.entries ?? []) as Array<{
    name?: string;
    value?: string;
  }>;
  const out: Record<string, string> = {};
  for (const e of entries) if (e?.name) out[e.name.toLowerCase()] = String(e.value ?? '');
  return out;
}

/**
 * The path after `/<prefix>/`, percent-decoded once, from the raw URL (the router's own decoding
 * of a wildcard differs by version). A path that does not decode names no webhook: undefined.
 */
function pathAfter(req: FastifyRequest, prefix: string): string | undefined {
  const raw = req.url.slice(prefix.length + 2).split('?', 1)[0];
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

const notFound = (reply: FastifyReply, message: string, hint?: string) =>
  reply
    .code(404)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ code: 404, message, ...(hint ? { hint } : {}) }));

/**
 * For the app's `onBadUrl`: a URL the router cannot percent-decode names no webhook and no
 * route, so it is a 404 (in the webhook envelope under the webhook prefixes), never a 500.
 */
export function badUrlNotFound(request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?', 1)[0];
  if (/^\/webhook(-test|-waiting)?\//.test(path))
    return notFound(reply, `The requested webhook "${request.method} ${path}" is not registered.`);
  return reply
    .code(404)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ message: `Route ${request.method} ${path} not found` }));
}

/** Catch-alls under paths the workflows choose: hidden from /docs/json (no fixed shape to document). */
export function webhookEndpoints(app: App, d: WebhookDeps): void {
  const handle = async (req: FastifyRequest, reply: FastifyReply, test: boolean) => {
    const decoded = pathAfter(req, test ? 'webhook-test' : 'webhook');
    const method = req.method.toUpperCase();
    if (decoded === undefined)
      return notFound(reply, `The requested webhook "${method} ${req.url.split('?', 1)[0]}" is not registered.`);
    const path = normalisePath(decoded);
    let hit: { target: WebhookTarget; params: Record<string, string>; prepared: PreparedWorkflow } | undefined;
    if (test) hit = await findTestWebhook(d, method, path);
    else {
      const found = d.activation.webhooks.find(method, path);
      const prepared = found && d.activation.get(found.target.workflowId);
      if (found && prepared) hit = { ...found, prepared };
    }
    if (!hit) {
      const other = test ? [] : d.activation.webhooks.methodsFor(path);
      const message = other.length
        ? `This webhook is not registered for ${method} requests. Did you mean to make a ${other[0]} request?`
        : `The requested webhook "${method} ${path}" is not registered.`;
      return notFound(
        reply,
        message,
        test
          ? "Click the 'Execute workflow' button on the canvas, then try again."
          : "The workflow must be active for a production URL to run successfully. You can activate the workflow using the toggle in the top-right of the editor. Note that unlike test URL calls, production URL calls aren't shown on the canvas (only in the executions list)",
      );
    }
    const { target, params, prepared } = hit;
    const node = target.node;
    const denied = await checkWebhookAuth(node, req.headers, d.credential, d.nowS());
    if (denied) {
      for (const [k, v] of Object.entries(denied.headers)) reply.header(k, v);
      return reply
        .code(denied.status)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ code: denied.status, message: denied.message }));
    }
    let payload: WebhookPayload;
    try {
      payload =
        triggerKind(node) === 'webhook' && node.type === 'n8n-nodes-base.webhook'
          ? webhookPayload(req, node)
          : { body: req.body === undefined ? {} : req.body };
    } catch (e) {
      if (!(e instanceof MultipartError)) throw e;
      return reply
        .code(400)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ code: 400, message: `The multipart body could not be read: ${e.message}` }));
    }
    const item: Item = {
      json: {
        headers: req.headers,
        params,
        query: { ...(req.query as Record<string, unknown>) },
        body: payload.body,
        webhookUrl: `${d.baseUrl()}/${test ? 'webhook-test' : 'webhook'}/${path}`,
        executionMode: test ? 'test' : 'production',
      },
      ...(payload.binary ? { binary: payload.binary } : {}),
    };
    const p = (node.parameters ?? {}) as {
      responseMode?: string;
      responseData?: string;
      options?: { responseData?: string; responsePropertyName?: string };
    };
    const responseMode = p.responseMode ?? 'onReceived';
    const mode = test ? 'manual' : 'webhook';
    // Service triggers (e.g. a new mail) shape the request into their own items, or ignore it.
    const shape = nodeRegistry.get(node.type)?.fromWebhook;
    const startItems = shape ? shape(item, node) : [item];
    if (!startItems.length)
      return reply
        .code(200)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ message: 'Ignored' }));
    const start = { node: node.name, items: startItems, outputIndex: target.outputIndex };
    const code = responseCode(node);

    if (responseMode === 'onReceived') {
      await d.runner.enqueue({ prepared, mode, start });
      // options.responseData: a text to answer with (oracle: webhook-2-on-received-data), or noData.
      const custom = p.options?.responseData;
      const noData = p.responseData === 'noData' || custom === 'noData';
      const answer = noData
        ? { headers: {}, body: undefined }
        : custom
          ? textOrJson(custom)
          : { headers: {}, body: { message: 'Workflow was started' } };
      return sendResponse(reply, {
        status: code,
        headers: { ...answer.headers, ...headerEntries(node) },
        body: answer.body,
      });
    }

    let answer: ((r: WebhookResponse) => void) | undefined;
    const responded = new Promise<WebhookResponse>((resolve) => (answer = resolve));
    let sent = false;
    const respond = (r: WebhookResponse) => {
      if (sent) return;
      sent = true;
      answer!(r);
    };
    const run = d.runner.run({ prepared, mode, start, respond: responseMode === 'responseNode' ? respond : undefined });
    if (responseMode === 'responseNode') {
      const first = await Promise.race([responded, run.then(() => undefined)]);
      if (first) return sendResponse(reply, first);
      return sendResponse(reply, { status: 200, headers: {}, body: undefined });
    }
    // lastNode: the last node's data, as `responseData` says.
    const { outcome } = await run;
    // n8n answers a failed run with 500 (observed with the oracle).
    if (outcome.status !== 'success') {
      return sendResponse(reply, { status: 500, headers: {}, body: { message: 'Error in workflow' } });
    }
    const last = outcome.state.lastNodeExecuted;
    const runs = last ? outcome.state.runData[last] : undefined;
    const items = runs?.[runs.length - 1]?.data?.main[0] ?? [];
    const how = p.responseData ?? 'firstEntryJson';
    if (how === 'firstEntryJson' && items.length === 0) {
      return sendResponse(reply, {
        status: 500,
        headers: {},
        body: { code: 0, message: 'No item to return was found' },
      });
    }
    if (how === 'firstEntryJson' && p.options?.responsePropertyName) {
      // Only that field of the first item (oracle: webhook-2-property-name*).
      const answer = textOrJson(readPath(items[0]?.json, p.options.responsePropertyName));
      return sendResponse(reply, {
        status: code,
        headers: { ...answer.headers, ...headerEntries(node) },
        body: answer.body,
      });
    }
    const body =
      how === 'noData' ? undefined : how === 'allEntries' ? items.map((i) => i.json) : (items[0]?.json ?? {});
    return sendResponse(reply, { status: code, headers: headerEntries(node), body });
  };

  app.route({
    method: [...METHODS],
    url: '/webhook/*',
    schema: { hide: true },
    handler: (req, reply) => handle(req, reply, false),
  });
  app.route({
    method: [...METHODS],
    url: '/webhook-test/*',
    schema: { hide: true },
    handler: (req, reply) => handle(req, reply, true),
  });

  app.route({
    method: [...METHODS],
    // A wildcard, not `:executionId`: the router rejects a badly encoded parameter with 400
    // before the handler runs; here it is just an id that names no waiting execution.
    url: '/webhook-waiting/*',
    schema: { hide: true },
    handler: async (req, reply) => {
      const id = pathAfter(req, 'webhook-waiting') ?? req.url.slice('/webhook-waiting/'.length).split('?', 1)[0];
      const row = (await d.store.getExecution(id, true)) as ExecutionRow | undefined;
      if (!row || row.status !== 'waiting')
        return notFound(reply, `The execution "${id}" is not waiting for a webhook call.`);
      // As n8n's (oracle: engine-wait-webhook): the Webhook node's item, whose webhookUrl names
      // the waiting node's webhookId under /webhook/, and the answer "Workflow was started".
      const item: Item = {
        json: {
          headers: req.headers,
          params: {},
          query: { ...(req.query as Record<string, unknown>) },
          body: req.body ?? {},
          webhookUrl: `${d.baseUrl()}/webhook/${waitingWebhookId(row) ?? ''}`,
          executionMode: row.mode === 'manual' ? 'test' : 'production',
        },
      };
      await d.runner.resume(id, [item]);
      return reply
        .code(200)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ message: 'Workflow was started' }));
    },
  });
}

/** The webhookId of the node a waiting execution waits in (its last node), from the execution's own snapshot of the workflow. */
function waitingWebhookId(row: ExecutionRow): string | undefined {
  try {
    const last = (JSON.parse(row.data ?? '{}') as { resultData?: { lastNodeExecuted?: string } }).resultData
      ?.lastNodeExecuted;
    const nodes = (JSON.parse(row.workflow_data ?? '{}') as { nodes?: WorkflowNode[] }).nodes ?? [];
    return nodes.find((n) => n.name === last)?.webhookId;
  } catch {
    return undefined;
  }
}

/** Test URLs work for any stored workflow (there is no editor to "listen"): the first match wins. */
async function findTestWebhook(d: WebhookDeps, method: string, path: string) {
  for (let offset = 0; ; offset += 200) {
    const rows = await d.store.listWorkflows({ limit: 200, offset });
    for (const row of rows) {
      const prepared = d.cache.get(row);
      for (const node of prepared.definition.nodes) {
        if (node.disabled || triggerKind(node) !== 'webhook') continue;
        for (const r of webhookRoutes(node)) {
          if (r.method !== method) continue;
          const target: WebhookTarget = {
            workflowId: row.id,
            node,
            outputIndex: r.outputIndex,
            pattern: r.path.split('/'),
          };
          const m = r.path === path ? { target, params: {} } : matchDynamic([target], path);
          if (m) return { ...m, prepared };
        }
      }
    }
    if (rows.length < 200) return undefined;
  }
}
