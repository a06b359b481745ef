// /v0/inboxes: create (idempotent by client_id), list, search, get, update, delete.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import { randomBase62 } from '../../../platform/ids.js';
import { DomainError } from '../../../platform/errors.js';
import { podIdOf } from '../identity/scope.js';
import { scopeOf } from './scope.js';
import { ownInbox, type MailContext } from './context.js';
import { invalid } from '../errors.js';
import { inboxUsername } from '../addresses.js';
import { isDuplicate } from '../store/index.js';
import { cursorOf, limitOf, boolOf, pageOf, type Query } from './query.js';
import { inboxRecord } from '../messages/records.js';
import { answers, Deleted, Inbox, InboxList } from './responses.js';
import { InboxParams, ListQuery, nullable, SearchQuery } from './schemas.js';

const MetadataValue = Type.Union([Type.String({ maxLength: 256 }), Type.Number(), Type.Boolean()]);

const CreateInbox = Type.Union([
  Type.Object({
    username: nullable(Type.String({ minLength: 1, maxLength: 64 })),
    domain: nullable(Type.String({ minLength: 1, maxLength: 253 })),
    display_name: nullable(Type.String({ maxLength: 256 })),
    client_id: nullable(Type.String({ minLength: 1, maxLength: 256 })),
    metadata: nullable(Type.Record(Type.String({ maxLength: 256 }), MetadataValue, { maxProperties: 256 })),
  }),
  Type.Null(),
]);

const UpdateInbox = Type.Object({
  display_name: nullable(Type.String({ maxLength: 256 })),
  metadata: Type.Optional(
    Type.Union([
      Type.Record(Type.String({ maxLength: 256 }), Type.Union([MetadataValue, Type.Null()]), { maxProperties: 256 }),
      Type.Null(),
    ]),
  ),
});

export function inboxRoutes(app: App, ctx: MailContext): void {
  for (const base of ['/v0/inboxes', '/v0/pods/:pod_id/inboxes']) inboxRoutesAt(app, ctx, base);
}

/** The inbox routes under `base`: organization-wide, or one pod's (AgentMail's /v0/pods/{pod_id}/inboxes). */
function inboxRoutesAt(app: App, ctx: MailContext, base: string): void {
  const { store, platform } = ctx;

  app.post(base, { schema: { body: CreateInbox, response: answers(Inbox, 403, 409) } }, async (request) => {
    const body = request.body ?? {};
    const orgId = request.mailOrgId;
    const scope = scopeOf(request);
    if (request.mailKeyScope?.inboxId)
      throw new DomainError('forbidden', 'A key limited to one inbox cannot create inboxes', 'forbidden');
    if (body.client_id != null) {
      if (body.client_id.includes('@')) throw invalid('client_id', 'must not contain @');
      const existing = await store.inboxes.byClientId(orgId, body.client_id);
      if (existing) return inboxRecord(existing);
    }
    // An agent's unverified organization holds one inbox (agents/rules.ts); counted only for those.
    if (await ctx.agentRules.unverified(orgId))
      await ctx.agentRules.checkNewInbox(orgId, await store.inboxes.countOfOrg(orgId));
    const domains = ctx.domains();
    const domain = (body.domain ?? domains[0]).toLowerCase();
    if (!domains.includes(domain) && !(await ctx.customDomains.ownsVerified(orgId, domain)))
      throw invalid(
        'domain',
        `must be one of this server's mail domains (${domains.join(', ')}) or a verified domain of yours`,
        'INVALID_DOMAIN',
      );
    const username = body.username != null ? inboxUsername(body.username) : `agent-${randomBase62(10).toLowerCase()}`;
    const now = platform.clock.now().toISOString();
    const row = {
      inbox_id: `${username}@${domain}`,
      org_id: orgId,
      pod_id: scope.podId ?? podIdOf(orgId),
      display_name: body.display_name ?? null,
      client_id: body.client_id ?? null,
      metadata: body.metadata ? JSON.stringify(body.metadata) : null,
      created_at: now,
      updated_at: now,
    };
    try {
      await store.inboxes.insert(row);
    } catch (err) {
      if (!isDuplicate(err)) throw err;
      // The same client_id raced us: answer with the winner, as a repeat would get.
      if (body.client_id != null) {
        const winner = await store.inboxes.byClientId(orgId, body.client_id);
        if (winner) return inboxRecord(winner);
      }
      throw err;
    }
    return inboxRecord(row);
  });

  app.get(base, { schema: { querystring: ListQuery, response: answers(InboxList) } }, async (request) => {
    const q = request.query as Query;
    const limit = limitOf(q);
    const { podId, inboxId } = scopeOf(request);
    const rows = await store.inboxes.list(request.mailOrgId, {
      limit,
      cursor: cursorOf(q),
      ascending: boolOf(q, 'ascending'),
      podId,
      inboxId,
    });
    const { items, next_page_token } = pageOf(rows, limit, (r) => [r.created_at, r.inbox_id]);
    return {
      count: items.length,
      limit,
      ...(next_page_token ? { next_page_token } : {}),
      inboxes: items.map(inboxRecord),
    };
  });

  app.get(`${base}/search`, { schema: { querystring: SearchQuery, response: answers(InboxList) } }, async (request) => {
    const q = request.query as Query;
    const text = typeof q.q === 'string' ? q.q : '';
    if (!text) throw invalid('q', 'is required');
    const limit = limitOf(q);
    const { podId, inboxId } = scopeOf(request);
    const rows = await store.inboxes.list(request.mailOrgId, { limit, cursor: cursorOf(q), q: text, podId, inboxId });
    const { items, next_page_token } = pageOf(rows, limit, (r) => [r.created_at, r.inbox_id]);
    return {
      count: items.length,
      limit,
      ...(next_page_token ? { next_page_token } : {}),
      inboxes: items.map(inboxRecord),
    };
  });

  app.get(`${base}/:inbox_id`, { schema: { params: InboxParams, response: answers(Inbox, 404) } }, async (request) =>
    inboxRecord(await ownInbox(ctx, request, request.params.inbox_id)),
  );

  app.patch(
    `${base}/:inbox_id`,
    { schema: { params: InboxParams, body: UpdateInbox, response: answers(Inbox, 404) } },
    async (request) => {
      const inbox = await ownInbox(ctx, request, request.params.inbox_id);
      const body = request.body ?? {};
      if (body.display_name === undefined && body.metadata === undefined)
        throw invalid('display_name', 'give display_name or metadata to update');
      const set: { display_name?: string | null; metadata?: string | null; updated_at: string } = {
        updated_at: platform.clock.now().toISOString(),
      };
      if (body.display_name !== undefined) set.display_name = body.display_name;
      if (body.metadata === null) set.metadata = null;
      else if (body.metadata !== undefined) {
        if (!Object.keys(body.metadata).length) throw invalid('metadata', 'must not be empty: send null to clear it');
        // Merged: a key set to null is deleted.
        const merged: Record<string, unknown> = inbox.metadata ? JSON.parse(inbox.metadata) : {};
        for (const [k, v] of Object.entries(body.metadata)) {
          if (v === null) delete merged[k];
          else merged[k] = v;
        }
        if (Object.keys(merged).length > 256) throw invalid('metadata', 'holds at most 256 keys');
        set.metadata = Object.keys(merged).length ? JSON.stringify(merged) : null;
      }
      await store.inboxes.update(inbox.inbox_id, set);
      return inboxRecord({ ...inbox, ...set });
    },
  );

  app.delete(
    `${base}/:inbox_id`,
    { schema: { params: InboxParams, response: answers(Deleted('inbox_id'), 404) } },
    async (request) => {
      const inbox = await ownInbox(ctx, request, request.params.inbox_id);
      await store.inboxes.delete(inbox.inbox_id);
      return { deleted: true, inbox_id: inbox.inbox_id };
    },
  );
}
