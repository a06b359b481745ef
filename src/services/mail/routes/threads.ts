// Threads per inbox and across the organization: list with filters, get with a page of
// messages (newest page first, ascending within the page), delete.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../../platform/http.js';
import { cachedList, ownInbox, type MailContext } from '../context.js';
import { notFoundError } from '../errors.js';
import { boolOf, cursorOf, dateOf, excludedLabels, limitOf, listOf, pageOf, type Query } from '../query.js';
import { messageRecord, threadItem } from '../records.js';
import type { ThreadRow } from '../store.js';

const InboxParams = Type.Object({ inbox_id: Type.String() });
const ThreadParams = Type.Object({ inbox_id: Type.String(), thread_id: Type.String() });
const OrgThreadParams = Type.Object({ thread_id: Type.String() });

export function threadRoutes(app: App, ctx: MailContext): void {
  const { store } = ctx;

  const filters = (q: Query) => ({
    labels: listOf(q, 'labels', true),
    before: dateOf(q, 'before'),
    after: dateOf(q, 'after'),
    ascending: boolOf(q, 'ascending'),
    exclude: excludedLabels(q),
    senders: listOf(q, 'senders'),
    recipients: listOf(q, 'recipients'),
    subject: listOf(q, 'subject'),
  });

  async function listing(inboxIds: string | string[], q: Query) {
    const limit = limitOf(q);
    const rows = await store.listThreads(inboxIds, filters(q), { limit, cursor: cursorOf(q) });
    const { items, next_page_token } = pageOf(rows, limit, (r) => [r.timestamp, r.thread_id]);
    return { count: items.length, limit, ...(next_page_token ? { next_page_token } : {}), threads: items.map((t) => threadItem(t, true)) };
  }

  async function withMessages(thread: ThreadRow, q: Query) {
    const limit = limitOf(q);
    const rows = await store.threadMessages(thread.thread_id, { limit, cursor: cursorOf(q) });
    const { items, next_page_token } = pageOf(rows, limit, (r) => [r.timestamp, r.id]);
    return {
      ...threadItem(thread, true),
      count: items.length,
      limit,
      ...(next_page_token ? { next_page_token } : {}),
      messages: items.reverse().map(messageRecord),
    };
  }

  async function orgThread(request: FastifyRequest, threadId: string): Promise<ThreadRow> {
    const thread = await store.thread(threadId);
    const inbox = thread && (await store.inbox(thread.inbox_id));
    if (!thread || !inbox || inbox.org_id !== request.mailOrgId) throw notFoundError('Thread');
    return thread;
  }

  async function inboxThread(request: FastifyRequest, params: { inbox_id: string; thread_id: string }): Promise<ThreadRow> {
    const inbox = await ownInbox(ctx, request, params.inbox_id);
    const thread = await store.thread(params.thread_id);
    if (!thread || thread.inbox_id !== inbox.inbox_id) throw notFoundError('Thread');
    return thread;
  }

  app.get('/v0/inboxes/:inbox_id/threads', { schema: { params: InboxParams } }, async (request, reply) => {
    const inbox = await ownInbox(ctx, request, request.params.inbox_id);
    return cachedList(ctx, inbox.inbox_id, request, reply, () => listing(inbox.inbox_id, request.query as Query));
  });

  app.get('/v0/inboxes/:inbox_id/threads/:thread_id', { schema: { params: ThreadParams } }, async (request) =>
    withMessages(await inboxThread(request, request.params), request.query as Query),
  );

  app.delete('/v0/inboxes/:inbox_id/threads/:thread_id', { schema: { params: ThreadParams } }, async (request) => {
    const thread = await inboxThread(request, request.params);
    await store.deleteThread(thread.thread_id, thread.inbox_id);
    return { deleted: true, thread_id: thread.thread_id };
  });

  app.get('/v0/threads', async (request) => listing(await store.orgInboxIds(request.mailOrgId), request.query as Query));

  app.get('/v0/threads/:thread_id', { schema: { params: OrgThreadParams } }, async (request) =>
    withMessages(await orgThread(request, request.params.thread_id), request.query as Query),
  );

  app.delete('/v0/threads/:thread_id', { schema: { params: OrgThreadParams } }, async (request) => {
    const thread = await orgThread(request, request.params.thread_id);
    await store.deleteThread(thread.thread_id, thread.inbox_id);
    return { deleted: true, thread_id: thread.thread_id };
  });
}
