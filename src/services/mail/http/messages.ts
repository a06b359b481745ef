// /v0/inboxes/{id}/messages: send (both the contract's and the SDK's route), list with
// filters, get, labels, delete, reply / reply-all / forward, attachments and raw downloads.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../../platform/http.js';
import { cachedList, ownInbox, type MailContext } from './context.js';
import { DOWNLOAD_TTL_MS } from './downloads.js';
import { notFoundError } from '../errors.js';
import { attachmentContent, type AttachmentMeta } from '../messages/parse.js';
import { DRAFT_LINK_PREFIX, draftAttachment } from '../attachments/find.js';
import { boolOf, cursorOf, dateOf, excludedLabels, limitOf, listOf, pageOf, type Query } from './query.js';
import { messageItem, messageRecord } from '../messages/records.js';
import { highlights, termsOf } from './search.js';
import { idempotent } from './idempotency.js';
import type { SendBody } from '../sending/sending.js';
import type { InboxRow, MessageRow } from '../store/index.js';
import {
  Addresses,
  Attachment,
  DeleteQuery,
  InboxParams,
  Label,
  MessageQuery,
  nullable,
  SearchQuery,
} from './schemas.js';
import {
  answers,
  AttachmentLink,
  BatchGot,
  BatchUpdated,
  DeletedOrTrashed,
  Message,
  MessageLabels,
  MessageList,
  RawLink,
  SendResult,
} from './responses.js';

const common = {
  reply_to: Addresses,
  text: nullable(Type.String()),
  html: nullable(Type.String()),
  labels: nullable(Type.Array(Label, { maxItems: 50 })),
  attachments: nullable(Type.Array(Attachment, { maxItems: 100 })),
  headers: nullable(
    Type.Record(Type.String({ minLength: 1, maxLength: 200 }), Type.String({ maxLength: 4000 }), {
      maxProperties: 100,
    }),
  ),
  track_opens: nullable(Type.Boolean()),
};
const SendSchema = Type.Object({
  to: Addresses,
  cc: Addresses,
  bcc: Addresses,
  subject: nullable(Type.String({ maxLength: 4000 })),
  ...common,
});
const ReplySchema = Type.Object({
  to: Addresses,
  cc: Addresses,
  bcc: Addresses,
  reply_all: nullable(Type.Boolean()),
  ...common,
});
const ReplyAllSchema = Type.Object({ ...common });
const UpdateLabels = Type.Object({
  add_labels: nullable(Type.Union([Label, Type.Array(Label, { maxItems: 100 })])),
  remove_labels: nullable(Type.Union([Label, Type.Array(Label, { maxItems: 100 })])),
});
const BatchGet = Type.Object({ message_ids: Type.Array(Type.String(), { maxItems: 500 }) });
const BatchUpdate = Type.Object({
  message_ids: Type.Array(Type.String(), { minItems: 1, maxItems: 50 }),
  add_labels: nullable(Type.Union([Label, Type.Array(Label, { maxItems: 100 })])),
  remove_labels: nullable(Type.Union([Label, Type.Array(Label, { maxItems: 100 })])),
});
const asList = (v: string | string[] | null | undefined) => (v == null ? [] : Array.isArray(v) ? v : [v]);

const MessageParams = Type.Object({ inbox_id: Type.String(), message_id: Type.String() });
const AttachmentParams = Type.Object({
  inbox_id: Type.String(),
  message_id: Type.String(),
  attachment_id: Type.String(),
});

/** JSON null means "not given" for every send field: the SDK and curl users send either. */
function dropNulls<T extends object>(body: T | null | undefined): SendBody {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body ?? {})) if (v !== null && v !== undefined) out[k] = v;
  return out;
}

export function messageRoutes(app: App, ctx: MailContext): void {
  const { store, sending, changes, platform, links } = ctx;

  async function ownMessage(
    request: FastifyRequest,
    inboxId: string,
    messageId: string,
  ): Promise<{ inbox: InboxRow; message: MessageRow }> {
    const inbox = await ownInbox(ctx, request, inboxId);
    const message = await store.messages.get(inbox.inbox_id, messageId);
    if (!message) throw notFoundError('Message');
    return { inbox, message };
  }

  const sendHandler = async (request: FastifyRequest<{ Params: { inbox_id: string }; Body: unknown }>) => {
    const inbox = await ownInbox(ctx, request, request.params.inbox_id);
    const body = dropNulls(request.body as SendBody);
    sending.validate(body);
    return idempotent(ctx, request, inbox, 'send', body, async () =>
      sending.writer(await sending.prepareSend(inbox, body)),
    );
  };
  app.post(
    '/v0/inboxes/:inbox_id/messages',
    { schema: { params: InboxParams, body: SendSchema, response: answers(SendResult, 404, 409, 413) } },
    sendHandler,
  );
  app.post(
    '/v0/inboxes/:inbox_id/messages/send',
    { schema: { params: InboxParams, body: SendSchema, response: answers(SendResult, 404, 409, 413) } },
    sendHandler,
  );

  app.post(
    '/v0/inboxes/:inbox_id/messages/:message_id/reply',
    { schema: { params: MessageParams, body: ReplySchema, response: answers(SendResult, 404, 409, 413) } },
    async (request) => {
      const { inbox, message } = await ownMessage(request, request.params.inbox_id, request.params.message_id);
      const body = dropNulls(request.body);
      return idempotent(ctx, request, inbox, `reply:${message.message_id}`, body, async () =>
        sending.writer(await sending.prepareReply(inbox, message, body, body.reply_all === true)),
      );
    },
  );

  app.post(
    '/v0/inboxes/:inbox_id/messages/:message_id/reply-all',
    { schema: { params: MessageParams, body: ReplyAllSchema, response: answers(SendResult, 404, 409, 413) } },
    async (request) => {
      const { inbox, message } = await ownMessage(request, request.params.inbox_id, request.params.message_id);
      const body = dropNulls(request.body);
      return idempotent(ctx, request, inbox, `reply-all:${message.message_id}`, body, async () =>
        sending.writer(await sending.prepareReply(inbox, message, body, true)),
      );
    },
  );

  app.post(
    '/v0/inboxes/:inbox_id/messages/:message_id/forward',
    { schema: { params: MessageParams, body: SendSchema, response: answers(SendResult, 404, 409, 413) } },
    async (request) => {
      const { inbox, message } = await ownMessage(request, request.params.inbox_id, request.params.message_id);
      const body = dropNulls(request.body);
      sending.validate(body);
      return idempotent(ctx, request, inbox, `forward:${message.message_id}`, body, async () =>
        sending.writer(await sending.prepareForward(inbox, message, body)),
      );
    },
  );

  app.get(
    '/v0/inboxes/:inbox_id/messages',
    { schema: { params: InboxParams, querystring: MessageQuery, response: answers(MessageList, 404) } },
    async (request, reply) => {
      const inbox = await ownInbox(ctx, request, request.params.inbox_id);
      return cachedList(ctx, inbox.inbox_id, request, reply, async () => {
        const q = request.query as Query;
        const limit = limitOf(q);
        const rows = await store.messages.list(
          inbox.inbox_id,
          {
            labels: listOf(q, 'labels', true),
            before: dateOf(q, 'before'),
            after: dateOf(q, 'after'),
            ascending: boolOf(q, 'ascending'),
            exclude: excludedLabels(q),
            from: listOf(q, 'from'),
            to: listOf(q, 'to'),
            subject: listOf(q, 'subject'),
          },
          { limit, cursor: cursorOf(q) },
        );
        const { items, next_page_token } = pageOf(rows, limit, (r) => [r.timestamp, r.id]);
        return {
          count: items.length,
          limit,
          ...(next_page_token ? { next_page_token } : {}),
          messages: items.map(messageItem),
        };
      });
    },
  );

  app.get(
    '/v0/inboxes/:inbox_id/messages/search',
    { schema: { params: InboxParams, querystring: SearchQuery, response: answers(MessageList, 404) } },
    async (request) => {
      const inbox = await ownInbox(ctx, request, request.params.inbox_id);
      const q = request.query as Query;
      const terms = termsOf(q);
      const limit = limitOf(q);
      const rows = await store.messages.list(
        inbox.inbox_id,
        {
          terms,
          before: dateOf(q, 'before'),
          after: dateOf(q, 'after'),
          exclude: ['spam', 'blocked', 'unauthenticated', 'trash'],
        },
        { limit, cursor: cursorOf(q) },
      );
      const { items, next_page_token } = pageOf(rows, limit, (r) => [r.timestamp, r.id]);
      return {
        count: items.length,
        limit,
        ...(next_page_token ? { next_page_token } : {}),
        messages: items.map((r) => {
          const item = messageItem(r);
          const h = highlights(terms, {
            from: [item.from],
            recipients: [...item.to, ...(item.cc ?? []), ...(item.bcc ?? [])],
            subject: item.subject,
            text: (r as { text_body?: string | null }).text_body,
          });
          return Object.keys(h).length ? { ...item, highlights: h } : item;
        }),
      };
    },
  );

  app.post(
    '/v0/inboxes/:inbox_id/messages/batch-update',
    { schema: { params: InboxParams, body: BatchUpdate, response: answers(BatchUpdated, 404) } },
    async (request) => {
      const inbox = await ownInbox(ctx, request, request.params.inbox_id);
      const add = asList(request.body.add_labels);
      const remove = asList(request.body.remove_labels);
      const updates = await changes.relabelBatch(inbox.inbox_id, request.body.message_ids, add, remove);
      return { limit: 50, count: updates.length, updates };
    },
  );

  app.post(
    '/v0/inboxes/:inbox_id/messages/batch-get',
    { schema: { params: InboxParams, body: BatchGet, response: answers(BatchGot, 404) } },
    async (request) => {
      const inbox = await ownInbox(ctx, request, request.params.inbox_id);
      const rows = await store.messages.byMessageIds(inbox.inbox_id, request.body.message_ids);
      return { limit: 500, count: rows.length, messages: rows.map(messageItem) };
    },
  );

  app.get(
    '/v0/inboxes/:inbox_id/messages/:message_id',
    { schema: { params: MessageParams, response: answers(Message, 404) } },
    async (request) => {
      const { message } = await ownMessage(request, request.params.inbox_id, request.params.message_id);
      return messageRecord(message);
    },
  );

  app.patch(
    '/v0/inboxes/:inbox_id/messages/:message_id',
    { schema: { params: MessageParams, body: UpdateLabels, response: answers(MessageLabels, 404) } },
    async (request) => {
      const { message } = await ownMessage(request, request.params.inbox_id, request.params.message_id);
      const add = asList(request.body?.add_labels);
      const remove = asList(request.body?.remove_labels);
      const labels = await changes.relabel(message, add, remove);
      return { message_id: message.message_id, labels };
    },
  );

  app.delete(
    '/v0/inboxes/:inbox_id/messages/:message_id',
    {
      schema: {
        params: MessageParams,
        querystring: DeleteQuery,
        response: answers(DeletedOrTrashed('message_id'), 404),
      },
    },
    async (request) => {
      const { message } = await ownMessage(request, request.params.inbox_id, request.params.message_id);
      return {
        ...(await ctx.trash.message(message, boolOf(request.query, 'permanent') === true)),
        message_id: message.message_id,
      };
    },
  );

  app.get(
    '/v0/inboxes/:inbox_id/messages/:message_id/attachments/:attachment_id',
    { schema: { params: AttachmentParams, response: answers(AttachmentLink, 404) } },
    async (request) => {
      const { message } = await ownMessage(request, request.params.inbox_id, request.params.message_id);
      const meta = (
        message.attachments ? (JSON.parse(message.attachments) as Array<{ attachment_id: string }>) : []
      ).find((a) => a.attachment_id === request.params.attachment_id);
      if (!meta) throw notFoundError('Attachment');
      const exp = platform.clock.ms() + DOWNLOAD_TTL_MS;
      return {
        ...meta,
        download_url: links.url({ id: message.id, attachment: meta.attachment_id, exp }),
        expires_at: new Date(exp).toISOString(),
      };
    },
  );

  app.get(
    '/v0/inboxes/:inbox_id/messages/:message_id/raw',
    { schema: { params: MessageParams, response: answers(RawLink, 404) } },
    async (request) => {
      const { message } = await ownMessage(request, request.params.inbox_id, request.params.message_id);
      const exp = platform.clock.ms() + DOWNLOAD_TTL_MS;
      return {
        message_id: message.message_id,
        size: message.size,
        download_url: links.url({ id: message.id, exp }),
        expires_at: new Date(exp).toISOString(),
      };
    },
  );

  app.get(
    '/v0/downloads/:token',
    { schema: { params: Type.Object({ token: Type.String() }), hide: true } },
    async (request, reply) => {
      const target = links.verify(request.params.token, platform.clock.ms());
      if (!target) throw notFoundError('Download link (it may have expired)');
      let found: { meta: AttachmentMeta; content: Buffer } | undefined;
      if (target.id.startsWith(DRAFT_LINK_PREFIX)) {
        // A draft's attachment: its bytes are in the draft (attachments/find.ts).
        const draft = await store.drafts.get(target.id.slice(DRAFT_LINK_PREFIX.length));
        found = draft && target.attachment ? draftAttachment(draft, target.attachment) : undefined;
      } else {
        const raw = await store.messages.raw(target.id);
        if (!raw) throw notFoundError('Message');
        if (!target.attachment)
          return reply
            .type('message/rfc822')
            .header('content-disposition', 'attachment; filename="message.eml"')
            .send(raw);
        found = await attachmentContent(raw, target.attachment);
      }
      if (!found) throw notFoundError('Attachment');
      const name = found.meta.filename ?? 'attachment';
      const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
      return reply
        .type(found.meta.content_type ?? 'application/octet-stream')
        .header(
          'content-disposition',
          `${found.meta.content_disposition ?? 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
        )
        .header('x-content-type-options', 'nosniff')
        .send(found.content);
    },
  );
}
