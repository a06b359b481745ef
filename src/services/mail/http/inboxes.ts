// /v0/inboxes: create (idempotent by client_id), list, search, get, update, delete.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import { randomBase62 } from '../../../platform/ids.js';
import { podIdOf } from './auth.js';
import { ownInbox, type MailContext } from './context.js';
import { invalid } from '../errors.js';
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
  metadata: Type.Optional(Type.Union([Type.Record(Type.String({ maxLength: 256 }), Type.Union([MetadataValue, Type.Null()]), { maxProperties: 256 }), Type.Null()])),
});

const USERNAME = /^[a-z0-9](?:[a-z0-9._+-]{0,62}[a-z0-9])?$/;

export function inboxRoutes(app: App, ctx: MailContext): void {
  const { store, platform } = ctx;

  app.post('/v0/inboxes', { schema: { body: CreateInbox, response: answers(Inbox, 409) } }, async (request) => {
    const body = request.body ?? {};
    const orgId = request.mailOrgId;
    if (body.client_id != null) {
      if (body.client_id.includes('@')) throw invalid('client_id', 'must not contain @');
      const existing = await store.inboxes.byClientId(orgId, body.client_id);
      if (existing) return inboxRecord(existing);
    }
    const domains = ctx.domains();
    const domain = (body.domain ?? domains[0]!).toLowerCase();
    if (!domains.includes(domain)) throw invalid('domain', `must be one of this server's mail domains: ${domains.join(', ')}`, 'INVALID_DOMAIN');
    const username = body.username != null ? body.username.toLowerCase() : `agent-${randomBase62(10).toLowerCase()}`;
    if (!USERNAME.test(username)) throw invalid('username', 'may hold letters, digits, dot, dash, underscore and plus, and must start and end with a letter or digit', 'INVALID_EMAIL');
    const now = platform.clock.now().toISOString();
    const row = {
      inbox_id: `${username}@${domain}`,
      org_id: orgId,
      pod_id: podIdOf(orgId),
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

  app.get('/v0/inboxes', { schema: { querystring: ListQuery, response: answers(InboxList) } }, async (request) => {
    const q = request.query as Query;
    const limit = limitOf(q);
    const rows = await store.inboxes.list(request.mailOrgId, { limit, cursor: cursorOf(q), ascending: boolOf(q, 'ascending') });
    const { items, next_page_token } = pageOf(rows, limit, (r) => [r.created_at, r.inbox_id]);
    return { count: items.length, limit, ...(next_page_token ? { next_page_token } : {}), inboxes: items.map(inboxRecord) };
  });

  app.get('/v0/inboxes/search', { schema: { querystring: SearchQuery, response: answers(InboxList) } }, async (request) => {
    const q = request.query as Query;
    const text = typeof q.q === 'string' ? q.q : '';
    if (!text) throw invalid('q', 'is required');
    const limit = limitOf(q);
    const rows = await store.inboxes.list(request.mailOrgId, { limit, cursor: cursorOf(q), q: text });
    const { items, next_page_token } = pageOf(rows, limit, (r) => [r.created_at, r.inbox_id]);
    return { count: items.length, limit, ...(next_page_token ? { next_page_token } : {}), inboxes: items.map(inboxRecord) };
  });

  app.get('/v0/inboxes/:inbox_id', { schema: { params: InboxParams, response: answers(Inbox, 404) } }, async (request) =>
    inboxRecord(await ownInbox(ctx, request, request.params.inbox_id)),
  );

  app.patch('/v0/inboxes/:inbox_id', { schema: { params: InboxParams, body: UpdateInbox, response: answers(Inbox, 404) } }, async (request) => {
    const inbox = await ownInbox(ctx, request, request.params.inbox_id);
    const body = request.body ?? {};
    if (body.display_name === undefined && body.metadata === undefined) throw invalid('display_name', 'give display_name or metadata to update');
    const set: { display_name?: string | null; metadata?: string | null; updated_at: string } = { updated_at: platform.clock.now().toISOString() };
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
  });

  app.delete('/v0/inboxes/:inbox_id', { schema: { params: InboxParams, response: answers(Deleted('inbox_id'), 404) } }, async (request) => {
    const inbox = await ownInbox(ctx, request, request.params.inbox_id);
    await store.inboxes.delete(inbox.inbox_id);
    return { deleted: true, inbox_id: inbox.inbox_id };
  });
}
