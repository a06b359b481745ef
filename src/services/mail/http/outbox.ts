// GET /v0/outbox (a Hamlet extension, not AgentMail's): mail to other domains held while no
// relay is set, newest first, as a development mail catch-all (see outbox/outbox.ts). A key
// sees its organization's held mail (its pod's or inbox's when it is scoped). The platform's own
// mail (a blog's verification link, then its API key) belongs to no organization and is shown
// to the operator's key alone: an agent reading it could take over another agent's blog.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../../platform/http.js';
import type { MailContext } from './context.js';
import { notFoundError } from '../errors.js';
import { outboxItem } from '../outbox/outbox.js';
import { boolOf, cursorOf, limitOf, pageOf, type Query } from './query.js';
import { answers } from './responses.js';
import { ListQuery } from './schemas.js';
import type { OutboxViewer } from '../store/index.js';

const Str = Type.String();
const OutboxItem = Type.Object(
  {
    outbox_id: Str,
    status: Type.Literal('queued', {
      description: 'Waiting for a relay (HAMLET_SMTP_RELAY); sent when Hamlet starts with one',
    }),
    source: Type.Union([Type.Literal('inbox'), Type.Literal('platform')], {
      description:
        "inbox: sent from a Hamlet inbox; platform: Hamlet's own mail (blog verification), shown to the operator's key only",
    }),
    inbox_id: Type.Optional(Str),
    message_id: Str,
    from: Str,
    to: Type.Array(Str),
    subject: Type.Optional(Str),
    text: Type.Optional(Str),
    html: Type.Optional(Str),
    created_at: Str,
  },
  { additionalProperties: true, description: 'A message held in the outbox' },
);
const OutboxList = Type.Object(
  {
    count: Type.Integer(),
    limit: Type.Integer(),
    next_page_token: Type.Optional(Str),
    messages: Type.Array(OutboxItem),
  },
  { additionalProperties: true },
);
const Params = Type.Object({ outbox_id: Type.String() });
const EXTENSION = 'Hamlet extension (not in AgentMail): mail to other domains held while HAMLET_SMTP_RELAY is not set';

/** The request's key as an outbox reader. */
const viewerOf = (request: FastifyRequest): OutboxViewer => ({
  orgId: request.mailOrgId,
  podId: request.mailKeyScope?.podId,
  inboxId: request.mailKeyScope?.inboxId,
  operator: request.mailOperator,
});

export function outboxRoutes(app: App, ctx: MailContext): void {
  const { store } = ctx;

  app.get(
    '/v0/outbox',
    { schema: { summary: EXTENSION, querystring: ListQuery, response: answers(OutboxList) } },
    async (request) => {
      const q = request.query as Query;
      const limit = limitOf(q);
      const rows = await store.outbox.list({
        viewer: viewerOf(request),
        limit,
        cursor: cursorOf(q),
        ascending: boolOf(q, 'ascending'),
      });
      const { items, next_page_token } = pageOf(rows, limit, (r) => [r.created_at, r.outbox_id]);
      return {
        count: items.length,
        limit,
        ...(next_page_token ? { next_page_token } : {}),
        messages: items.map(outboxItem),
      };
    },
  );

  app.get(
    '/v0/outbox/:outbox_id',
    { schema: { summary: EXTENSION, params: Params, response: answers(OutboxItem, 404) } },
    async (request) => {
      const row = await store.outbox.visible(request.params.outbox_id, viewerOf(request));
      if (!row) throw notFoundError('Outbox message');
      return outboxItem(row);
    },
  );
}
