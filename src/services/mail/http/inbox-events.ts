// GET /v0/inboxes/{inbox_id}/events: AgentMail's log of label changes of an inbox's messages
// (label.added, label.removed), newest first unless ascending, paged by event id.
import type { App } from '../../../platform/http.js';
import type { InboxEventRow } from '../store/index.js';
import { ownInbox, type MailContext } from './context.js';
import { boolOf, cursorOf, limitOf, pageOf, type Query } from './query.js';
import { answers, Int, Open, opt, Str } from './responses.js';
import { InboxParams, ListQuery } from './schemas.js';
import { Type } from '@sinclair/typebox';

const InboxEvent = Open({
  organization_id: Str,
  pod_id: Str,
  inbox_id: Str,
  event_id: Str,
  event_type: Str,
  message_id: Str,
  label: Str,
  event_at: Str,
  created_at: Str,
});
const InboxEventList = Open({ count: Int, limit: Int, next_page_token: opt(Str), events: Type.Array(InboxEvent) });

export function inboxEventRoutes(app: App, ctx: MailContext): void {
  app.get(
    '/v0/inboxes/:inbox_id/events',
    { schema: { params: InboxParams, querystring: ListQuery, response: answers(InboxEventList, 404) } },
    async (request) => {
      const inbox = await ownInbox(ctx, request, request.params.inbox_id);
      const q = request.query as Query;
      const limit = limitOf(q);
      const rows = await ctx.store.inboxEvents.list(inbox.inbox_id, {
        limit,
        cursor: cursorOf(q),
        ascending: boolOf(q, 'ascending'),
      });
      const { items, next_page_token } = pageOf(rows, limit, (r) => [r.event_id, r.event_id]);
      const record = (e: InboxEventRow) => ({
        organization_id: inbox.org_id,
        pod_id: inbox.pod_id,
        inbox_id: e.inbox_id,
        event_id: e.event_id,
        event_type: e.event_type,
        message_id: e.message_id,
        label: e.label,
        event_at: e.event_at,
        created_at: e.event_at,
      });
      return { count: items.length, limit, ...(next_page_token ? { next_page_token } : {}), events: items.map(record) };
    },
  );
}
