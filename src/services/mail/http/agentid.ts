// AgentID over HTTP (agentid/agentid.ts has the rules). AgentMail's routes under /v0: the
// provider catalog (list, search, get, its accounts, connect), the accounts, and an inbox's
// authorize. And AgentID's own side, which Hamlet plays for its world under /agentid (not in
// the OpenAPI document: no AgentMail SDK calls it): a provider registers itself, its sign-in
// page starts a sign-in for a waiting client, and the client finishes it with its public key.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../../../platform/errors.js';
import { bearerToken, type App } from '../../../platform/http.js';
import { orgOfKey } from '../identity/scope.js';
import { accountRecord, AgentId, AUTHORIZED, providerRecord, signInKeyRecord, type Actor } from '../agentid/agentid.js';
import { invalid, notFoundError } from '../errors.js';
import type { AccountRow, InboxRow } from '../store/index.js';
import { ownInbox, type MailContext } from './context.js';
import { boolOf, cursorOf, limitOf, pageOf, type Query } from './query.js';
import { answers, Int, Open, opt, Str } from './responses.js';
import { scopeOf } from './scope.js';

const Provider = Open({ provider_id: Str, name: opt(Str), updated_at: opt(Str) });
const Account = Open({
  account_id: Str,
  provider_id: Str,
  inbox_id: Str,
  pod_id: Str,
  organization_id: Str,
  first_signed_in_at: Str,
  last_signed_in_at: Str,
  sign_in_count: Int,
});
const ProviderList = Open({ count: Int, limit: Int, next_page_token: opt(Str), providers: Type.Array(Provider) });
const ProviderSearch = Open({ count: Int, limit: Int, providers: Type.Array(Provider) });
const AccountList = Open({ count: Int, limit: Int, next_page_token: opt(Str), accounts: Type.Array(Account) });
const ProviderAccounts = Open({
  provider: opt(Provider),
  count: Int,
  limit: Int,
  next_page_token: opt(Str),
  accounts: Type.Array(Account),
});
const Connected = Open({ api_key_id: Str, magic_url: Str, expires_at: Str });
const Authorized = Open({ api_key_id: Str, instructions: Str });

const Param = (name: string) => Type.Object({ [name]: Type.String({ minLength: 1, maxLength: 256 }) });
const Paging = { limit: Type.Optional(Type.Unknown()), page_token: Type.Optional(Type.Unknown()) };
const ConnectBody = Type.Union([
  Type.Object({
    inbox_id: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
    accept_disclosure: Type.Optional(Type.Boolean()),
  }),
  Type.Null(),
]);
const AuthorizeBody = Type.Object({
  auth_token: Type.String({ maxLength: 256 }),
  accept_disclosure: Type.Optional(Type.Boolean()),
});
const Url = Type.String({ maxLength: 2000, pattern: '^https?://' });
const RegisterBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  logo_url: Type.Optional(Url),
  terms_url: Type.Optional(Url),
  privacy_url: Type.Optional(Url),
  listed: Type.Optional(Type.Boolean()),
  owner_signup_limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
});
const StartBody = Type.Object({
  provider_id: Type.String({ minLength: 1, maxLength: 64 }),
  public_key: Type.Optional(Type.Unknown()),
});
const CompleteBody = Type.Union([Type.Object({ public_key: Type.Optional(Type.Unknown()) }), Type.Null()]);

/** Providers page by position in the popularity order: the token is the next offset. */
function offsetOf(q: Query): number {
  if (q.page_token === undefined || q.page_token === '') return 0;
  const n = Number(Buffer.from(String(q.page_token), 'base64url').toString('utf8'));
  if (!Number.isInteger(n) || n < 0) throw invalid('page_token', 'is not a valid page token');
  return n;
}
const offsetToken = (n: number) => Buffer.from(String(n)).toString('base64url');

export function agentIdRoutes(app: App, ctx: MailContext): AgentId {
  const agentId = new AgentId(ctx.store, ctx.platform.clock);
  const { store } = ctx;
  const actor = (request: FastifyRequest): Actor => ({
    keyId: request.mailKeyId,
    ...(request.mailKeyScope?.permissions ? { permissions: request.mailKeyScope.permissions } : {}),
  });
  const magicUrl = (token: string) => `${ctx.baseUrl()}/agentid/sign-ins/${token}`;

  /** Accounts with their provider's name, for the rows of one page. */
  async function withNames(rows: AccountRow[]) {
    const names = new Map<string, string>();
    for (const id of new Set(rows.map((r) => r.provider_id)))
      names.set(id, (await store.agentId.provider(id))?.name ?? '');
    return rows.map((r) => accountRecord(r, names.get(r.provider_id)));
  }

  async function accountsPage(request: FastifyRequest, providerId?: string) {
    const q = request.query as Query;
    const limit = limitOf(q);
    const rows = await store.agentId.accounts(
      { ...scopeOf(request), ...(providerId ? { providerId } : {}) },
      { limit, cursor: cursorOf(q), ascending: boolOf(q, 'ascending') },
    );
    const { items, next_page_token } = pageOf(rows, limit, (r) => [r.last_signed_in_at, r.account_id]);
    return {
      count: items.length,
      limit,
      ...(next_page_token ? { next_page_token } : {}),
      accounts: await withNames(items),
    };
  }

  app.get(
    '/v0/providers',
    { schema: { querystring: Type.Object(Paging), response: answers(ProviderList) } },
    async (request) => {
      const q = request.query as Query;
      const limit = limitOf(q);
      const offset = offsetOf(q);
      const rows = await store.agentId.listedProviders({ offset, limit });
      const items = rows.slice(0, limit);
      return {
        count: items.length,
        limit,
        ...(rows.length > limit ? { next_page_token: offsetToken(offset + limit) } : {}),
        providers: items.map(providerRecord),
      };
    },
  );

  app.get(
    '/v0/providers/search',
    {
      schema: {
        querystring: Type.Object({ q: Type.String({ maxLength: 200 }), limit: Type.Optional(Type.Unknown()) }),
        response: answers(ProviderSearch),
      },
    },
    async (request) => {
      const q = request.query as Query;
      const limit = limitOf(q);
      const prefix = String(q.q).trim();
      if (!prefix) throw invalid('q', 'name the start of a provider name', 'REQUIRED');
      const items = (await store.agentId.listedProviders({ offset: 0, limit, prefix })).slice(0, limit);
      return { count: items.length, limit, providers: items.map(providerRecord) };
    },
  );

  app.get(
    '/v0/providers/:provider_id',
    { schema: { params: Param('provider_id'), response: answers(Provider, 404) } },
    async (request) => providerRecord(await agentId.provider(request.params.provider_id)),
  );

  app.get(
    '/v0/providers/:provider_id/accounts',
    {
      schema: {
        params: Param('provider_id'),
        querystring: Type.Object({ ...Paging, ascending: Type.Optional(Type.Unknown()) }),
        response: answers(ProviderAccounts, 404),
      },
    },
    async (request) => {
      const provider = await agentId.provider(request.params.provider_id);
      return { provider: providerRecord(provider), ...(await accountsPage(request, provider.provider_id)) };
    },
  );

  app.post(
    '/v0/providers/:provider_id/connect',
    { schema: { params: Param('provider_id'), body: ConnectBody, response: answers(Connected, 403, 404) } },
    async (request) => {
      const inboxId = request.body?.inbox_id ?? request.mailKeyScope?.inboxId;
      if (!inboxId)
        throw invalid(
          'inbox_id',
          'name the inbox to sign in as (required unless the key is limited to one inbox)',
          'REQUIRED',
        );
      const inbox = await ownInbox(ctx, request, inboxId);
      const { key, token, expiresAt } = await agentId.connect(actor(request), request.params.provider_id, inbox);
      return { api_key_id: key.api_key_id, magic_url: magicUrl(token), expires_at: expiresAt };
    },
  );

  app.get(
    '/v0/accounts',
    {
      schema: {
        querystring: Type.Object({ ...Paging, ascending: Type.Optional(Type.Unknown()) }),
        response: answers(AccountList),
      },
    },
    async (request) => accountsPage(request),
  );

  app.get(
    '/v0/accounts/:account_id',
    { schema: { params: Param('account_id'), response: answers(Account, 404) } },
    async (request) => {
      const account = await store.agentId.account(request.params.account_id);
      const s = scopeOf(request);
      if (
        !account ||
        account.org_id !== s.orgId ||
        (s.podId && account.pod_id !== s.podId) ||
        (s.inboxId && account.inbox_id !== s.inboxId)
      )
        throw notFoundError('Account');
      return (await withNames([account]))[0];
    },
  );

  app.post(
    '/v0/inboxes/:inbox_id/authorize',
    { schema: { params: Param('inbox_id'), body: AuthorizeBody, response: answers(Authorized, 403, 404) } },
    async (request) => {
      const inbox: InboxRow = await ownInbox(ctx, request, request.params.inbox_id);
      return {
        api_key_id: await agentId.authorize(actor(request), inbox, request.body.auth_token),
        instructions: AUTHORIZED,
      };
    },
  );

  // AgentID's side. A provider registers with a mail key of the organization that runs it.
  app.post('/agentid/providers', { schema: { hide: true, body: RegisterBody } }, async (request, reply) => {
    const key = await ctx.platform.keys.verify('mail', bearerToken(request));
    if (!key) throw unauthorized('Registering a provider takes a mail API key: send Authorization: Bearer <key>');
    const row = await agentId.register(orgOfKey(key), request.body);
    return reply.code(201).send({ ...providerRecord({ ...row, listed: 1 }), listed: row.listed === 1 });
  });

  // The provider's sign-in page, for a client that waits: the token to show the agent.
  app.post('/agentid/sign-ins', { schema: { hide: true, body: StartBody } }, async (request, reply) => {
    const row = await agentId.start(request.body.provider_id, request.body.public_key);
    return reply
      .code(201)
      .send({ auth_token: row.token, provider_id: row.provider_id, status: row.status, expires_at: row.expires_at });
  });

  // The client polls its sign-in (or opens a connect's magic link) ...
  app.get('/agentid/sign-ins/:token', { schema: { hide: true, params: Param('token') } }, async (request) => {
    const row = await agentId.signIn(request.params.token);
    const provider = await agentId.provider(row.provider_id);
    return {
      provider: providerRecord(provider),
      status: row.status,
      ...(row.inbox_id && row.status !== 'waiting' ? { inbox_id: row.inbox_id } : {}),
      ...(row.api_key_id ? { api_key_id: row.api_key_id } : {}),
      expires_at: row.expires_at,
    };
  });

  // ... and finishes it once authorized, proving the public key it will sign in with.
  app.post(
    '/agentid/sign-ins/:token/complete',
    { schema: { hide: true, params: Param('token'), body: CompleteBody } },
    async (request) => {
      const { key, account } = await agentId.complete(request.params.token, request.body?.public_key);
      return { api_key: signInKeyRecord(key), account: accountRecord(account) };
    },
  );

  return agentId;
}
