// API keys under the organization, a pod or an inbox: create (the key is shown once), list,
// get, rename or change permissions, revoke. A key made under a scope is limited to it, and a
// scoped key can only make keys inside its own scope (http/scope.ts narrows the request).
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../../platform/http.js';
import { apiKeyRecord, createdKeyRecord } from '../api-keys/keys.js';
import { invalid } from '../errors.js';
import { ownInbox, type MailContext } from './context.js';
import { cursorOf, limitOf, pageOf, boolOf, type Query } from './query.js';
import { answers, Deleted, Int, Open, opt, Str } from './responses.js';
import { ALL_SCOPES, scopeOf } from './scope.js';
import { nullable } from './schemas.js';

const Permissions = Type.Record(Type.String({ pattern: '^[a-z_]{1,64}$' }), Type.Boolean(), { maxProperties: 64 });
const KeyFields = { name: nullable(Type.String({ minLength: 1, maxLength: 256 })), permissions: nullable(Permissions) };
const CreateKey = Type.Union([Type.Object({ ...KeyFields, public_key: Type.Optional(Type.Unknown()) }), Type.Null()]);
const UpdateKey = Type.Object(KeyFields);
const ApiKey = Open({ type: Str, api_key_id: Str, prefix: Str, name: Str, pod_id: opt(Str), inbox_id: opt(Str), created_at: Str, updated_at: Str });
const CreatedKey = Open({ api_key_id: Str, api_key: Str, prefix: Str, name: Str, pod_id: opt(Str), inbox_id: opt(Str), created_at: Str });
const KeyList = Open({ count: Int, next_page_token: opt(Str), api_keys: Type.Array(ApiKey) });
const KeyQuery = Type.Object({ limit: Type.Optional(Type.Unknown()), page_token: Type.Optional(Type.Unknown()), ascending: Type.Optional(Type.Unknown()), type: Type.Optional(Type.Unknown()) });

export function apiKeyRoutes(app: App, ctx: MailContext): void {
  const { apiKeys, store } = ctx;

  /** The request's scope; under /v0/inboxes/{inbox_id} the inbox must be visible and names its pod. */
  async function scope(request: FastifyRequest) {
    const s = scopeOf(request);
    const inboxId = (request.params as { inbox_id?: string }).inbox_id;
    const inbox = inboxId ? await ownInbox(ctx, request, inboxId) : s.inboxId ? await ctx.inbox(s.inboxId) : undefined;
    return { ...s, podOfInbox: inbox?.pod_id };
  }

  for (const base of ALL_SCOPES) {
    app.get(`${base}/api-keys`, { schema: { querystring: KeyQuery, response: answers(KeyList, 404) } }, async (request) => {
      const q = request.query as Query;
      const s = await scope(request);
      const limit = limitOf(q);
      // Only bearer keys are minted here (no public-key credentials): a filter on another type finds none.
      if (q.type !== undefined && q.type !== 'bearer') return { count: 0, api_keys: [] };
      const rows = await store.apiKeys.list(s, { limit, cursor: cursorOf(q), ascending: boolOf(q, 'ascending') });
      const { items, next_page_token } = pageOf(rows, limit, (r) => [r.created_at, r.api_key_id]);
      return { count: items.length, ...(next_page_token ? { next_page_token } : {}), api_keys: items.map(apiKeyRecord) };
    });

    app.post(`${base}/api-keys`, { schema: { body: CreateKey, response: answers(CreatedKey, 403, 404) } }, async (request) => {
      const body = request.body ?? {};
      if (body.public_key !== undefined) throw invalid('public_key', 'public-key credentials are not supported here; omit public_key to mint a bearer key', 'UNSUPPORTED');
      const { row, key } = await apiKeys.create(await scope(request), body, request.mailKeyScope?.permissions);
      return createdKeyRecord(row, key);
    });

    app.patch(`${base}/api-keys/:api_key_id`, { schema: { params: Type.Object({ api_key_id: Type.String() }), body: UpdateKey, response: answers(ApiKey, 404) } }, async (request) => {
      const row = await apiKeys.visible(await scope(request), request.params.api_key_id);
      return apiKeyRecord(await apiKeys.update(row, request.body ?? {}));
    });

    app.delete(`${base}/api-keys/:api_key_id`, { schema: { params: Type.Object({ api_key_id: Type.String() }), response: answers(Deleted('api_key_id'), 404) } }, async (request) => {
      const row = await apiKeys.visible(await scope(request), request.params.api_key_id);
      await apiKeys.revoke(row);
      return { deleted: true, api_key_id: row.api_key_id };
    });
  }

  app.get('/v0/api-keys/:api_key_id', { schema: { params: Type.Object({ api_key_id: Type.String() }), response: answers(ApiKey, 404) } }, async (request) =>
    apiKeyRecord(await apiKeys.visible(scopeOf(request), request.params.api_key_id)),
  );
}
