// /v0/webhooks (also under a pod and an inbox): create (idempotent by client_id), list, get,
// update (PUT as the contract, PATCH as the SDK), delete, and the write-only custom delivery headers.
import { randomBytes } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../../platform/http.js';
import { randomBase62 } from '../../../platform/ids.js';
import { internalDestination } from '../../../platform/outbound.js';
import { ownInbox, type MailContext } from './context.js';
import { ALL_SCOPES } from './scope.js';
import { invalid, notFoundError } from '../errors.js';
import { boolOf, cursorOf, limitOf, pageOf, type Query } from './query.js';
import { webhookRecord } from '../messages/records.js';
import { isDuplicate, type WebhookRow } from '../store/index.js';
import { defaultEventTypes, EVENT_TYPES } from '../webhooks/events.js';
import { answers, Deleted, HeaderNames, Webhook, WebhookList } from './responses.js';
import { ListQuery, nullable } from './schemas.js';

const Ids = nullable(Type.Array(Type.String({ minLength: 1, maxLength: 320 }), { maxItems: 10 }));
const EventTypes = nullable(Type.Array(Type.String(), { maxItems: 20 }));
const Headers = nullable(
  Type.Record(Type.String({ minLength: 1, maxLength: 200 }), Type.String({ maxLength: 4000 }), { maxProperties: 50 }),
);

const CreateWebhook = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2000 }),
  event_types: EventTypes,
  inbox_ids: Ids,
  pod_ids: Ids,
  client_id: nullable(Type.String({ minLength: 1, maxLength: 256 })),
  enabled: nullable(Type.Boolean()),
  headers: Headers,
});
const UpdateWebhook = Type.Object({
  url: nullable(Type.String({ minLength: 1, maxLength: 2000 })),
  event_types: EventTypes,
  inbox_ids: Ids,
  pod_ids: Ids,
  add_inbox_ids: Ids,
  remove_inbox_ids: Ids,
  add_pod_ids: Ids,
  remove_pod_ids: Ids,
  client_id: nullable(Type.String({ minLength: 1, maxLength: 256 })),
  enabled: nullable(Type.Boolean()),
});
const UpdateHeaders = Type.Object({
  headers: Headers,
  remove_headers: nullable(Type.Array(Type.String(), { maxItems: 50 })),
});
const Params = Type.Object({ webhook_id: Type.String() });

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/; // an HTTP token
const SIGNING_HEADERS = /^(svix-|webhook-|content-type$|content-length$|host$)/i;

function checkUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw invalid('url', 'is not a valid URL', 'INVALID_URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw invalid('url', 'must be an http or https URL', 'INVALID_URL');
  return u.toString();
}

/**
 * Refuses a URL the SSRF guard would block on every delivery (loopback, private, link-local…),
 * unless the operator allows internal requests: a webhook that can never be delivered is
 * better refused at once than accepted and silently failing.
 */
async function checkDestination(url: string, allowInternal: boolean): Promise<string> {
  if (allowInternal) return url;
  const why = await internalDestination(new URL(url));
  if (why) {
    throw invalid(
      'url',
      `${why}: webhooks to internal addresses (loopback, private, link-local) are refused; the operator can allow them by setting HAMLET_ALLOW_INTERNAL_REQUESTS=1`,
      'INTERNAL_URL',
    );
  }
  return url;
}

function checkEventTypes(types: string[]): string[] {
  for (const t of types)
    if (!(EVENT_TYPES as readonly string[]).includes(t))
      throw invalid('event_types', `unknown event type "${t}"; known: ${EVENT_TYPES.join(', ')}`, 'INVALID_EVENT_TYPE');
  return [...new Set(types)];
}

function checkHeaders(headers: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) throw invalid(`headers.${name}`, 'is not a valid header name');
    if (SIGNING_HEADERS.test(name)) throw invalid(`headers.${name}`, 'is set by the service on every delivery');
    if (/[\r\n\0]/.test(value)) throw invalid(`headers.${name}`, 'must not contain line breaks');
  }
  return headers;
}

const listIn = (json: string | null) => (json ? (JSON.parse(json) as string[]) : []);
const listOut = (ids: string[]) => (ids.length ? JSON.stringify(ids) : null);

export function webhookRoutes(app: App, ctx: MailContext): void {
  for (const base of ALL_SCOPES) webhookRoutesAt(app, ctx, base);
}

/**
 * The webhook routes under `base`: the organization's, or a pod's or an inbox's (AgentMail's
 * /v0/pods/{pod_id}/webhooks, /v0/inboxes/{inbox_id}/webhooks): there a webhook is created
 * for that pod or inbox, and only webhooks that name it are listed and reached.
 */
function webhookRoutesAt(app: App, ctx: MailContext, base: string): void {
  const { store, platform } = ctx;

  /** The pod or inbox of the path (checked: the pod by the pods hook, the inbox here). */
  async function pathScope(request: FastifyRequest): Promise<{ podId?: string; inboxId?: string }> {
    const params = request.params as { pod_id?: string; inbox_id?: string };
    if (params.inbox_id) return { inboxId: (await ownInbox(ctx, request, params.inbox_id)).inbox_id };
    return params.pod_id ? { podId: params.pod_id } : {};
  }

  async function own(request: FastifyRequest, webhookId: string): Promise<WebhookRow> {
    const hook = await store.webhooks.get(webhookId);
    const within = await pathScope(request);
    if (!hook || hook.org_id !== request.mailOrgId) throw notFoundError('Webhook');
    if (
      (within.podId && !listIn(hook.pod_ids).includes(within.podId)) ||
      (within.inboxId && !listIn(hook.inbox_ids).includes(within.inboxId))
    )
      throw notFoundError('Webhook');
    return hook;
  }

  app.post(
    `${base}/webhooks`,
    { schema: { body: CreateWebhook, response: answers(Webhook, 404) } },
    async (request) => {
      const within = await pathScope(request);
      const body = {
        ...request.body,
        ...(within.podId ? { pod_ids: [within.podId] } : {}),
        ...(within.inboxId ? { inbox_ids: [within.inboxId] } : {}),
      };
      const orgId = request.mailOrgId;
      if (body.client_id != null) {
        const existing = await store.webhooks.byClientId(orgId, body.client_id);
        if (existing) return webhookRecord(existing);
      }
      const now = platform.clock.now().toISOString();
      const url = await checkDestination(checkUrl(body.url), platform.config.allowInternalRequests);
      const row: WebhookRow = {
        webhook_id: `ep_${randomBase62(24)}`,
        org_id: orgId,
        url,
        // Without event_types: every event (the project's decision), stored and echoed in full.
        event_types: JSON.stringify(body.event_types?.length ? checkEventTypes(body.event_types) : defaultEventTypes()),
        inbox_ids: listOut((body.inbox_ids ?? []).map((i) => i.toLowerCase())),
        pod_ids: listOut(body.pod_ids ?? []),
        secret: `whsec_${randomBytes(32).toString('base64')}`,
        enabled: body.enabled === false ? 0 : 1,
        client_id: body.client_id ?? null,
        headers: body.headers ? JSON.stringify(checkHeaders(body.headers)) : null,
        created_at: now,
        updated_at: now,
      };
      try {
        await store.webhooks.insert(row);
        await ctx.events.webhooksChanged(orgId);
      } catch (err) {
        if (!isDuplicate(err) || body.client_id == null) throw err;
        const winner = await store.webhooks.byClientId(orgId, body.client_id);
        if (winner) return webhookRecord(winner);
        throw err;
      }
      return webhookRecord(row);
    },
  );

  app.get(
    `${base}/webhooks`,
    { schema: { querystring: ListQuery, response: answers(WebhookList, 404) } },
    async (request) => {
      const q = request.query as Query;
      const limit = limitOf(q);
      const rows = await store.webhooks.list(
        request.mailOrgId,
        { limit, cursor: cursorOf(q), ascending: boolOf(q, 'ascending') },
        await pathScope(request),
      );
      const { items, next_page_token } = pageOf(rows, limit, (r) => [r.created_at, r.webhook_id]);
      return {
        count: items.length,
        limit,
        ...(next_page_token ? { next_page_token } : {}),
        webhooks: items.map(webhookRecord),
      };
    },
  );

  app.get(
    `${base}/webhooks/:webhook_id`,
    { schema: { params: Params, response: answers(Webhook, 404) } },
    async (request) => webhookRecord(await own(request, request.params.webhook_id)),
  );

  const update = async (
    request: FastifyRequest<{ Params: { webhook_id: string }; Body: typeof UpdateWebhook.static }>,
  ) => {
    const hook = await own(request, request.params.webhook_id);
    const body = request.body ?? {};
    const set: Partial<WebhookRow> = { updated_at: platform.clock.now().toISOString() };
    if (body.url != null) {
      set.url = await checkDestination(checkUrl(body.url), platform.config.allowInternalRequests);
      // Another receiver: what the old one did says nothing about it.
      if (set.url !== hook.url)
        Object.assign(set, {
          last_delivery_status: null,
          last_delivery_attempts: null,
          last_delivery_error: null,
          last_error_at: null,
        });
    }
    // A non-empty list replaces the set; an empty or missing one leaves it as it is.
    if (body.event_types?.length) set.event_types = JSON.stringify(checkEventTypes(body.event_types));
    if (body.enabled != null) set.enabled = body.enabled ? 1 : 0;
    if (body.client_id != null) set.client_id = body.client_id;
    let inboxes = body.inbox_ids != null ? body.inbox_ids.map((i) => i.toLowerCase()) : listIn(hook.inbox_ids);
    inboxes = [...new Set([...inboxes, ...(body.add_inbox_ids ?? []).map((i) => i.toLowerCase())])].filter(
      (i) => !(body.remove_inbox_ids ?? []).map((r) => r.toLowerCase()).includes(i),
    );
    let pods = body.pod_ids != null ? body.pod_ids : listIn(hook.pod_ids);
    pods = [...new Set([...pods, ...(body.add_pod_ids ?? [])])].filter((p) => !(body.remove_pod_ids ?? []).includes(p));
    if (inboxes.length > 10) throw invalid('inbox_ids', 'at most 10 inboxes per webhook');
    if (pods.length > 10) throw invalid('pod_ids', 'at most 10 pods per webhook');
    set.inbox_ids = listOut(inboxes);
    set.pod_ids = listOut(pods);
    try {
      await store.webhooks.update(hook.webhook_id, set);
      await ctx.events.webhooksChanged(hook.org_id);
    } catch (err) {
      if (isDuplicate(err)) throw invalid('client_id', 'is already used by another webhook', 'ALREADY_EXISTS');
      throw err;
    }
    return webhookRecord({ ...hook, ...set });
  };
  app.put(
    `${base}/webhooks/:webhook_id`,
    { schema: { params: Params, body: UpdateWebhook, response: answers(Webhook, 404) } },
    update,
  );
  app.patch(
    `${base}/webhooks/:webhook_id`,
    { schema: { params: Params, body: UpdateWebhook, response: answers(Webhook, 404) } },
    update,
  );

  app.delete(
    `${base}/webhooks/:webhook_id`,
    { schema: { params: Params, response: answers(Deleted('webhook_id'), 404) } },
    async (request) => {
      const hook = await own(request, request.params.webhook_id);
      await store.webhooks.delete(hook.webhook_id);
      await ctx.events.webhooksChanged(hook.org_id);
      return { deleted: true, webhook_id: hook.webhook_id };
    },
  );

  app.get(
    `${base}/webhooks/:webhook_id/headers`,
    { schema: { params: Params, response: answers(HeaderNames, 404) } },
    async (request) => {
      const hook = await own(request, request.params.webhook_id);
      return { header_names: Object.keys(hook.headers ? JSON.parse(hook.headers) : {}) };
    },
  );

  app.patch(
    `${base}/webhooks/:webhook_id/headers`,
    { schema: { params: Params, body: UpdateHeaders, response: answers(HeaderNames, 404) } },
    async (request) => {
      const hook = await own(request, request.params.webhook_id);
      const headers: Record<string, string> = hook.headers ? JSON.parse(hook.headers) : {};
      Object.assign(headers, checkHeaders(request.body?.headers ?? {}));
      for (const name of request.body?.remove_headers ?? []) delete headers[name];
      await store.webhooks.update(hook.webhook_id, {
        headers: Object.keys(headers).length ? JSON.stringify(headers) : null,
        updated_at: platform.clock.now().toISOString(),
      });
      await ctx.events.webhooksChanged(hook.org_id);
      return { header_names: Object.keys(headers) };
    },
  );
}
