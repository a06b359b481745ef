// Allow and block lists (send, receive, reply) of the organization, a pod or an inbox:
// list (by entry, ascending), add, get, remove. Receive lists are applied to incoming mail
// (lists/check.ts); send and reply lists are kept and listed.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../../platform/http.js';
import { invalid, notFoundError } from '../errors.js';
import { isAddress } from '../addresses.js';
import type { ListEntryRow, ListKey } from '../store/index.js';
import { ownInbox, type MailContext } from './context.js';
import { cursorOf, limitOf, pageOf, type Query } from './query.js';
import { answers, Deleted, Int, Open, opt, Str } from './responses.js';
import { ALL_SCOPES, scopeOf } from './scope.js';
import { PageQuery, nullable } from './schemas.js';

const Direction = Type.Union([Type.Literal('send'), Type.Literal('receive'), Type.Literal('reply')]);
const ListType = Type.Union([Type.Literal('allow'), Type.Literal('block')]);
const ListParams = Type.Object({ direction: Direction, list_type: ListType });
const EntryParams = Type.Object({ direction: Direction, list_type: ListType, entry: Type.String() });
const CreateEntry = Type.Object({
  entry: Type.String({ minLength: 1, maxLength: 320 }),
  reason: nullable(Type.String({ maxLength: 1000 })),
});
const Entry = Open({
  entry: Str,
  organization_id: Str,
  reason: opt(Str),
  direction: Str,
  list_type: Str,
  entry_type: Str,
  created_at: Str,
  pod_id: opt(Str),
  inbox_id: opt(Str),
});
const EntryList = Open({ count: Int, limit: Int, next_page_token: opt(Str), entries: Type.Array(Entry) });
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** An organization-wide entry is AgentMail's ListEntry; a pod's or an inbox's is a PodListEntry (with pod_id). */
function entryRecord(r: ListEntryRow) {
  return {
    entry: r.entry,
    organization_id: r.org_id,
    ...(r.reason ? { reason: r.reason } : {}),
    direction: r.direction,
    list_type: r.list_type,
    entry_type: r.entry_type,
    created_at: r.created_at,
    ...(r.pod_id ? { pod_id: r.pod_id } : {}),
    ...(r.inbox_id ? { inbox_id: r.inbox_id } : {}),
  };
}

export function listRoutes(app: App, ctx: MailContext): void {
  const { store } = ctx;

  async function listKey(request: FastifyRequest, params: { direction: string; list_type: string }): Promise<ListKey> {
    const s = scopeOf(request);
    if (s.inboxId) {
      const inbox = await ownInbox(ctx, request, s.inboxId);
      return {
        orgId: s.orgId,
        podId: inbox.pod_id,
        inboxId: inbox.inbox_id,
        direction: params.direction,
        listType: params.list_type,
      };
    }
    return {
      orgId: s.orgId,
      podId: s.podId ?? '',
      inboxId: '',
      direction: params.direction,
      listType: params.list_type,
    };
  }

  const changed = async (k: ListKey) => {
    if (k.direction === 'receive') await ctx.receiveLists.changed(k.orgId);
  };

  for (const base of ALL_SCOPES) {
    app.get(
      `${base}/lists/:direction/:list_type`,
      { schema: { params: ListParams, querystring: PageQuery, response: answers(EntryList, 404) } },
      async (request) => {
        const q = request.query as Query;
        const limit = limitOf(q);
        const k = await listKey(request, request.params);
        const rows = await store.lists.list(k, { limit, after: cursorOf(q)?.[0] });
        const { items, next_page_token } = pageOf(rows, limit, (r) => [r.entry, r.entry]);
        return {
          count: items.length,
          limit,
          ...(next_page_token ? { next_page_token } : {}),
          entries: items.map(entryRecord),
        };
      },
    );

    app.post(
      `${base}/lists/:direction/:list_type`,
      { schema: { params: ListParams, body: CreateEntry, response: answers(Entry, 404, 409) } },
      async (request) => {
        const k = await listKey(request, request.params);
        const entry = request.body.entry.trim().toLowerCase();
        const entryType = entry.includes('@') ? 'email' : 'domain';
        if (entryType === 'email' ? !isAddress(entry) : !DOMAIN.test(entry))
          throw invalid('entry', 'must be an email address or a domain name', 'INVALID_ENTRY');
        const row: ListEntryRow = {
          org_id: k.orgId,
          pod_id: k.podId,
          inbox_id: k.inboxId,
          direction: k.direction,
          list_type: k.listType,
          entry,
          entry_type: entryType,
          reason: request.body.reason ?? null,
          created_at: ctx.platform.clock.now().toISOString(),
        };
        await store.lists.insert(row);
        await changed(k);
        return entryRecord(row);
      },
    );

    app.get(
      `${base}/lists/:direction/:list_type/:entry`,
      { schema: { params: EntryParams, response: answers(Entry, 404) } },
      async (request) => {
        const row = await store.lists.get(await listKey(request, request.params), request.params.entry.toLowerCase());
        if (!row) throw notFoundError('List entry');
        return entryRecord(row);
      },
    );

    app.delete(
      `${base}/lists/:direction/:list_type/:entry`,
      { schema: { params: EntryParams, response: answers(Deleted('entry'), 404) } },
      async (request) => {
        const k = await listKey(request, request.params);
        const entry = request.params.entry.toLowerCase();
        if (!(await store.lists.delete(k, entry))) throw notFoundError('List entry');
        await changed(k);
        return { deleted: true, entry };
      },
    );
  }
}
