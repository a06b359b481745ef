// Attachments under threads and drafts, per inbox and organization-wide (also under a pod):
// JSON with a signed, expiring download_url, like the message attachment route.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../../platform/http.js';
import { DRAFT_LINK_PREFIX, draftAttachment, threadAttachment } from '../attachments/find.js';
import { notFoundError } from '../errors.js';
import type { AttachmentMeta } from '../messages/parse.js';
import type { DraftRow, ThreadRow } from '../store/index.js';
import { ownInbox, type MailContext } from './context.js';
import { DOWNLOAD_TTL_MS } from './downloads.js';
import { answers, AttachmentLink } from './responses.js';
import { ORG_AND_POD } from './scope.js';

const ThreadParams = Type.Object({ thread_id: Type.String(), attachment_id: Type.String() });
const InboxThreadParams = Type.Object({
  inbox_id: Type.String(),
  thread_id: Type.String(),
  attachment_id: Type.String(),
});
const DraftParams = Type.Object({ draft_id: Type.String(), attachment_id: Type.String() });
const InboxDraftParams = Type.Object({
  inbox_id: Type.String(),
  draft_id: Type.String(),
  attachment_id: Type.String(),
});

export function attachmentRoutes(app: App, ctx: MailContext): void {
  const { store, links, platform } = ctx;

  const link = (id: string, meta: AttachmentMeta) => {
    const exp = platform.clock.ms() + DOWNLOAD_TTL_MS;
    return {
      ...meta,
      download_url: links.url({ id, attachment: meta.attachment_id, exp }),
      expires_at: new Date(exp).toISOString(),
    };
  };

  /** A thread the caller may see; under /v0/inboxes/{inbox_id} it must also be that inbox's. */
  async function visibleThread(request: FastifyRequest, threadId: string, inboxId?: string): Promise<ThreadRow> {
    const thread = await store.threads.get(threadId);
    if (!thread || (inboxId && thread.inbox_id !== inboxId.toLowerCase())) throw notFoundError('Thread');
    await ownInbox(ctx, request, thread.inbox_id).catch(() => {
      throw notFoundError('Thread');
    });
    return thread;
  }

  async function visibleDraft(request: FastifyRequest, draftId: string, inboxId?: string): Promise<DraftRow> {
    const draft = await store.drafts.get(draftId);
    if (!draft || (inboxId && draft.inbox_id !== inboxId.toLowerCase())) throw notFoundError('Draft');
    await ownInbox(ctx, request, draft.inbox_id).catch(() => {
      throw notFoundError('Draft');
    });
    return draft;
  }

  async function ofThread(request: FastifyRequest, p: { thread_id: string; attachment_id: string; inbox_id?: string }) {
    const found = await threadAttachment(store, await visibleThread(request, p.thread_id, p.inbox_id), p.attachment_id);
    if (!found) throw notFoundError('Attachment');
    return link(found.message.id, found.meta);
  }

  async function ofDraft(request: FastifyRequest, p: { draft_id: string; attachment_id: string; inbox_id?: string }) {
    const draft = await visibleDraft(request, p.draft_id, p.inbox_id);
    const found = draftAttachment(draft, p.attachment_id);
    if (!found) throw notFoundError('Attachment');
    return link(DRAFT_LINK_PREFIX + draft.draft_id, found.meta);
  }

  app.get(
    '/v0/inboxes/:inbox_id/threads/:thread_id/attachments/:attachment_id',
    { schema: { params: InboxThreadParams, response: answers(AttachmentLink, 404) } },
    (request) => ofThread(request, request.params),
  );
  app.get(
    '/v0/inboxes/:inbox_id/drafts/:draft_id/attachments/:attachment_id',
    { schema: { params: InboxDraftParams, response: answers(AttachmentLink, 404) } },
    (request) => ofDraft(request, request.params),
  );
  for (const base of ORG_AND_POD) {
    app.get(
      `${base}/threads/:thread_id/attachments/:attachment_id`,
      { schema: { params: ThreadParams, response: answers(AttachmentLink, 404) } },
      (request) => ofThread(request, request.params),
    );
    app.get(
      `${base}/drafts/:draft_id/attachments/:attachment_id`,
      { schema: { params: DraftParams, response: answers(AttachmentLink, 404) } },
      (request) => ofDraft(request, request.params),
    );
  }
}
