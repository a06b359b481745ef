// /v0/inboxes/{id}/drafts (create, list, get, PATCH, DELETE, send) and org-wide /v0/drafts.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../../platform/http.js';
import { ownInbox, type MailContext } from './context.js';
import { inScope, ORG_AND_POD, scopeOf } from './scope.js';
import { draftRecord } from '../drafts/record.js';
import { notFoundError } from '../errors.js';
import { idempotent } from './idempotency.js';
import { boolOf, cursorOf, limitOf, pageOf, type Query } from './query.js';
import { isDuplicate, type DraftRow } from '../store/index.js';
import { Addresses, Attachment, DeleteQuery, DraftQuery, InboxParams, Label, nullable } from './schemas.js';
import { answers, DeletedOrTrashed, Draft, DraftList, SendResult } from './responses.js';

const Labels = nullable(Type.Array(Label, { maxItems: 50 }));
const Attachments = nullable(Type.Array(Attachment, { maxItems: 100 }));
const fields = {
  to: Addresses,
  cc: Addresses,
  bcc: Addresses,
  reply_to: Addresses,
  subject: nullable(Type.String({ maxLength: 4000 })),
  text: nullable(Type.String()),
  html: nullable(Type.String()),
  send_at: nullable(Type.String({ maxLength: 64 })),
};
const CreateDraft = Type.Union([
  Type.Object({
    ...fields,
    labels: Labels,
    attachments: Attachments,
    in_reply_to: nullable(Type.String({ maxLength: 1000 })),
    forward_of: nullable(Type.String({ maxLength: 1000 })),
    reply_all: nullable(Type.Boolean()),
    client_id: nullable(Type.String({ minLength: 1, maxLength: 256 })),
  }),
  Type.Null(),
]);
const UpdateDraft = Type.Object({
  ...fields,
  add_attachments: Attachments,
  remove_attachments: nullable(Type.Array(Type.String(), { maxItems: 100 })),
  add_labels: Labels,
  remove_labels: Labels,
});
const SendDraft = Type.Union([Type.Object({ add_labels: Labels, remove_labels: Labels }), Type.Null()]);
const DraftParams = Type.Object({ inbox_id: Type.String(), draft_id: Type.String() });

export function draftRoutes(app: App, ctx: MailContext): void {
  const { store, drafts } = ctx;

  async function ownDraft(request: FastifyRequest, params: { inbox_id: string; draft_id: string }): Promise<DraftRow> {
    const inbox = await ownInbox(ctx, request, params.inbox_id);
    const draft = await store.drafts.get(params.draft_id);
    if (!draft || draft.inbox_id !== inbox.inbox_id) throw notFoundError('Draft');
    return draft;
  }

  const list = async (where: { inboxId?: string; orgId?: string; inboxIds?: string[] }, q: Query) => {
    const limit = limitOf(q);
    const rows = await store.drafts.list(where, {
      limit,
      cursor: cursorOf(q),
      ascending: boolOf(q, 'ascending'),
      includeTrash: boolOf(q, 'include_trash') === true,
    });
    const { items, next_page_token } = pageOf(rows, limit, (r) => [r.updated_at, r.draft_id]);
    return {
      count: items.length,
      limit,
      ...(next_page_token ? { next_page_token } : {}),
      drafts: items.map((d) => draftRecord(d, false)),
    };
  };

  app.post(
    '/v0/inboxes/:inbox_id/drafts',
    { schema: { params: InboxParams, body: CreateDraft, response: answers(Draft, 404, 409, 413) } },
    async (request) => {
      const inbox = await ownInbox(ctx, request, request.params.inbox_id);
      const body = request.body ?? {};
      if (body.client_id != null) {
        const existing = await store.drafts.byClientId(inbox.org_id, body.client_id);
        if (existing) return draftRecord(existing, true);
      }
      try {
        return draftRecord(await drafts.create(inbox, body), true);
      } catch (err) {
        if (!isDuplicate(err) || body.client_id == null) throw err;
        const winner = await store.drafts.byClientId(inbox.org_id, body.client_id);
        if (winner) return draftRecord(winner, true);
        throw err;
      }
    },
  );

  app.get(
    '/v0/inboxes/:inbox_id/drafts',
    { schema: { params: InboxParams, querystring: DraftQuery, response: answers(DraftList, 404) } },
    async (request) => {
      const inbox = await ownInbox(ctx, request, request.params.inbox_id);
      return list({ inboxId: inbox.inbox_id }, request.query);
    },
  );

  // Organization-wide, and one pod's (/v0/pods/{pod_id}/drafts); a scoped key sees its pod's or inbox's.
  for (const base of ORG_AND_POD) {
    app.get(
      `${base}/drafts`,
      { schema: { querystring: DraftQuery, response: answers(DraftList, 404) } },
      async (request) => {
        const s = scopeOf(request);
        return list(
          s.podId || s.inboxId ? { inboxIds: await store.inboxes.idsOfScope(s) } : { orgId: request.mailOrgId },
          request.query,
        );
      },
    );

    app.get(
      `${base}/drafts/:draft_id`,
      { schema: { params: Type.Object({ draft_id: Type.String() }), response: answers(Draft, 404) } },
      async (request) => {
        const draft = await store.drafts.get(request.params.draft_id);
        const inbox = draft && (await ctx.inbox(draft.inbox_id));
        if (!draft || !inbox || !inScope(request, inbox)) throw notFoundError('Draft');
        return draftRecord(draft, true);
      },
    );
  }

  app.get(
    '/v0/inboxes/:inbox_id/drafts/:draft_id',
    { schema: { params: DraftParams, response: answers(Draft, 404) } },
    async (request) => draftRecord(await ownDraft(request, request.params), true),
  );

  app.patch(
    '/v0/inboxes/:inbox_id/drafts/:draft_id',
    { schema: { params: DraftParams, body: UpdateDraft, response: answers(Draft, 404, 413) } },
    async (request) => {
      const draft = await ownDraft(request, request.params);
      return draftRecord(await drafts.update(draft, request.body ?? {}), true);
    },
  );

  app.delete(
    '/v0/inboxes/:inbox_id/drafts/:draft_id',
    { schema: { params: DraftParams, querystring: DeleteQuery, response: answers(DeletedOrTrashed('draft_id'), 404) } },
    async (request) => {
      const draft = await ownDraft(request, request.params);
      return {
        ...(await ctx.trash.draft(draft, boolOf(request.query, 'permanent') === true)),
        draft_id: draft.draft_id,
      };
    },
  );

  app.post(
    '/v0/inboxes/:inbox_id/drafts/:draft_id/send',
    { schema: { params: DraftParams, body: SendDraft, response: answers(SendResult, 404, 409) } },
    async (request) => {
      const inbox = await ownInbox(ctx, request, request.params.inbox_id);
      const labels = { add: request.body?.add_labels ?? undefined, remove: request.body?.remove_labels ?? undefined };
      // The draft is looked up after the idempotency check: a repeat with the same
      // Idempotency-Key finds it gone (sending deletes it) and gets the first answer instead of a 404.
      return idempotent(ctx, request, inbox, `draft:${request.params.draft_id}`, labels, async () => {
        const draft = await store.drafts.get(request.params.draft_id);
        if (!draft || draft.inbox_id !== inbox.inbox_id) throw notFoundError('Draft');
        return drafts.prepareSend(inbox, draft, labels);
      });
    },
  );
}
