// API keys under the organization, a pod or an inbox: create (the key is shown once), list,
// get, rename or change permissions, revoke. A key made under a scope is limited to it, and a
// scoped key can only make keys inside its own scope (http/scope.ts narrows the request).
// Two families, as AgentMail lists them: bearer keys, minted here, and the public-key
// credentials AgentID sign-ins mint (agentid/agentid.ts), read, renamed and revoked here too.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../../platform/http.js';
import { signInKeyRecord } from '../agentid/agentid.js';
import { apiKeyRecord, createdKeyRecord } from '../api-keys/keys.js';
import { invalid, notFoundError } from '../errors.js';
import type { ApiKeyRow, SignInKeyRow } from '../store/index.js';
import { ownInbox, type MailContext } from './context.js';
import { cursorOf, limitOf, pageOf, boolOf, type Query } from './query.js';
import { answers, Deleted, Int, Open, opt, Str } from './responses.js';
import { ALL_SCOPES, scopeOf } from './scope.js';
import { nullable } from './schemas.js';

const Permissions = Type.Record(Type.String({ pattern: '^[a-z_]{1,64}$' }), Type.Boolean(), { maxProperties: 64 });
const KeyFields = { name: nullable(Type.String({ minLength: 1, maxLength: 256 })), permissions: nullable(Permissions) };
const CreateKey = Type.Union([Type.Object({ ...KeyFields, public_key: Type.Optional(Type.Unknown()) }), Type.Null()]);
const UpdateKey = Type.Object(KeyFields);
// A public-key credential (an AgentID sign-in's) has no prefix.
const ApiKey = Open({
  type: Str,
  api_key_id: Str,
  prefix: opt(Str),
  name: Str,
  pod_id: opt(Str),
  inbox_id: opt(Str),
  created_at: Str,
  updated_at: Str,
});
const CreatedKey = Open({
  api_key_id: Str,
  api_key: Str,
  prefix: Str,
  name: Str,
  pod_id: opt(Str),
  inbox_id: opt(Str),
  created_at: Str,
});
const KeyList = Open({ count: Int, next_page_token: opt(Str), api_keys: Type.Array(ApiKey) });
const KeyQuery = Type.Object({
  limit: Type.Optional(Type.Unknown()),
  page_token: Type.Optional(Type.Unknown()),
  ascending: Type.Optional(Type.Unknown()),
  type: Type.Optional(Type.Unknown()),
});

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
    app.get(
      `${base}/api-keys`,
      { schema: { querystring: KeyQuery, response: answers(KeyList, 404) } },
      async (request) => {
        const q = request.query as Query;
        const s = await scope(request);
        const limit = limitOf(q);
        if (q.type !== undefined && q.type !== 'bearer' && q.type !== 'public_key')
          throw invalid('type', 'must be bearer or public_key');
        const opts = { limit, cursor: cursorOf(q), ascending: boolOf(q, 'ascending') };
        // Both families in one created_at order: a page of each, merged, cut to one page.
        const rows: Array<{ row: ApiKeyRow | SignInKeyRow; record: Record<string, unknown> }> = [
          ...(q.type === 'public_key'
            ? []
            : (await store.apiKeys.list(s, opts)).map((row) => ({ row, record: apiKeyRecord(row) }))),
          ...(q.type === 'bearer'
            ? []
            : (await store.agentId.keys(s, opts)).map((row) => ({ row, record: signInKeyRecord(row) }))),
        ];
        const order = opts.ascending ? 1 : -1;
        rows.sort(
          (a, b) =>
            order *
            (a.row.created_at.localeCompare(b.row.created_at) || a.row.api_key_id.localeCompare(b.row.api_key_id)),
        );
        const { items, next_page_token } = pageOf(rows, limit, (r) => [r.row.created_at, r.row.api_key_id]);
        return {
          count: items.length,
          ...(next_page_token ? { next_page_token } : {}),
          api_keys: items.map((r) => r.record),
        };
      },
    );

    app.post(
      `${base}/api-keys`,
      { schema: { body: CreateKey, response: answers(CreatedKey, 403, 404) } },
      async (request) => {
        const body = request.body ?? {};
        if (body.public_key !== undefined)
          throw invalid(
            'public_key',
            'public-key credentials are not supported here; omit public_key to mint a bearer key',
            'UNSUPPORTED',
          );
        const { row, key } = await apiKeys.create(await scope(request), body, request.mailKeyScope?.permissions);
        return createdKeyRecord(row, key);
      },
    );

    app.patch(
      `${base}/api-keys/:api_key_id`,
      {
        schema: { params: Type.Object({ api_key_id: Type.String() }), body: UpdateKey, response: answers(ApiKey, 404) },
      },
      async (request) => {
        const s = await scope(request);
        const signIn = await signInKey(s, request.params.api_key_id);
        if (signIn) return signInKeyRecord(await updateSignInKey(signIn, request.body ?? {}));
        const row = await apiKeys.visible(s, request.params.api_key_id);
        return apiKeyRecord(await apiKeys.update(row, request.body ?? {}));
      },
    );

    app.delete(
      `${base}/api-keys/:api_key_id`,
      { schema: { params: Type.Object({ api_key_id: Type.String() }), response: answers(Deleted('api_key_id'), 404) } },
      async (request) => {
        const s = await scope(request);
        const signIn = await signInKey(s, request.params.api_key_id);
        if (signIn) await store.agentId.deleteKey(signIn.api_key_id);
        else await apiKeys.revoke(await apiKeys.visible(s, request.params.api_key_id));
        return { deleted: true, api_key_id: request.params.api_key_id };
      },
    );
  }

  app.get(
    '/v0/api-keys/:api_key_id',
    { schema: { params: Type.Object({ api_key_id: Type.String() }), response: answers(ApiKey, 404) } },
    async (request) => {
      const signIn = await signInKey(scopeOf(request), request.params.api_key_id);
      return signIn
        ? signInKeyRecord(signIn)
        : apiKeyRecord(await apiKeys.visible(scopeOf(request), request.params.api_key_id));
    },
  );

  /** A sign-in key `scope` may see; undefined when the id is no sign-in key at all (then it may be a bearer key). */
  async function signInKey(
    s: { orgId: string; podId?: string; inboxId?: string },
    apiKeyId: string,
  ): Promise<SignInKeyRow | undefined> {
    const row = await store.agentId.key(apiKeyId);
    if (!row) return undefined;
    if (row.org_id !== s.orgId || (s.podId && row.pod_id !== s.podId) || (s.inboxId && row.inbox_id !== s.inboxId))
      throw notFoundError('API key');
    return row;
  }

  /** A sign-in key carries exactly provider_connect and provider_share_owner: only those change. */
  async function updateSignInKey(
    row: SignInKeyRow,
    input: { name?: string | null; permissions?: Record<string, boolean> | null },
  ): Promise<SignInKeyRow> {
    if (input.name == null && input.permissions == null)
      throw invalid('name', 'give name or permissions to update', 'REQUIRED');
    const other = Object.keys(input.permissions ?? {}).filter(
      (p) => p !== 'provider_connect' && p !== 'provider_share_owner',
    );
    if (other.length)
      throw invalid(
        'permissions',
        `a sign-in key carries only provider_connect and provider_share_owner (not ${other.join(', ')})`,
      );
    const set: Partial<SignInKeyRow> = { updated_at: ctx.platform.clock.now().toISOString() };
    if (input.name != null) set.name = input.name;
    if (input.permissions)
      set.permissions = JSON.stringify({
        ...(JSON.parse(row.permissions) as Record<string, boolean>),
        ...input.permissions,
      });
    await store.transaction((trx) => store.agentId.updateKey(row.api_key_id, set, trx));
    return { ...row, ...set };
  }
}
