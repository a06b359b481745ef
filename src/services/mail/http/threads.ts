// Threads per inbox and across the organization: list with filters, get with a page of
// messages (newest page first, ascending within the page), delete.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../../platform/http.js';
import { cachedList, ownInbox, type MailContext } from './context.js';
import { inScope, ORG_AND_POD, scopeOf } from './scope.js';
import { HttpError } from '../../../platform/errors.js';
import { notFoundError } from '../errors.js';
import { highlights, termsOf } from './search.js';
import { boolOf, cursorOf, dateOf, excludedLabels, limitOf, listOf, pageOf, type Query } from './query.js';
import { messageRecord, threadItem } from '../messages/records.js';
import type { ThreadRow } from '../store/index.js';
import { answers, DeletedOrTrashed, ThreadLabels, ThreadList, ThreadWithMessages } from './responses.js';
import { DeleteQuery, InboxParams, PageQuery, SearchQuery, ThreadQuery } from './schemas.js';

const ThreadParams = Type.Object({ inbox_id: Type.String(), thread_id: Type.String() });
const OrgThreadParams = Type.Object({ thread_id: Type.String() });
const UpdateThread = Type.Object({
  add_labels: Type.Optional(
    Type.Union([Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 100 }), Type.Null()]),
  ),
  remove_labels: Type.Optional(
    Type.Union([Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 100 }), Type.Null()]),
  ),
});
/** Labels the service sets; a thread update may not add or remove them (AgentMail: 422). */
const SYSTEM_LABELS = new Set([
  'sent',
  'received',
  'bounced',
  'delivered',
  'spam',
  'blocked',
  'unauthenticated',
  'scheduled',
  'queued',
  'opened',
  'complained',
  'rejected',
]);
const MAX_THREAD_UPDATE = 100;

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
    const rows = await store.threads.list(inboxIds, filters(q), { limit, cursor: cursorOf(q) });
    const { items, next_page_token } = pageOf(rows, limit, (r) => [r.timestamp, r.thread_id]);
    return {
      count: items.length,
      limit,
      ...(next_page_token ? { next_page_token } : {}),
      threads: items.map((t) => threadItem(t, true)),
    };
  }

  async function withMessages(thread: ThreadRow, q: Query) {
    const limit = limitOf(q);
    const rows = await store.messages.pageOfThread(thread.thread_id, { limit, cursor: cursorOf(q) });
    const { items, next_page_token } = pageOf(rows, limit, (r) => [r.timestamp, r.id]);
    return {
      ...threadItem(thread, true),
      count: items.length,
      limit,
      ...(next_page_token ? { next_page_token } : {}),
      messages: items.reverse().map(messageRecord),
    };
  }

  async function search(inboxIds: string | string[], q: Query) {
    const terms = termsOf(q);
    const limit = limitOf(q);
    const rows = await store.threads.list(
      inboxIds,
      {
        terms,
        before: dateOf(q, 'before'),
        after: dateOf(q, 'after'),
        exclude: ['spam', 'blocked', 'unauthenticated', 'trash'],
      },
      { limit, cursor: cursorOf(q) },
    );
    const { items, next_page_token } = pageOf(rows, limit, (r) => [r.timestamp, r.thread_id]);
    return {
      count: items.length,
      limit,
      ...(next_page_token ? { next_page_token } : {}),
      threads: items.map((t) => {
        const item = threadItem(t, true);
        const h = highlights(terms, {
          from: item.senders,
          recipients: item.recipients,
          subject: item.subject,
          text: item.preview,
        });
        return Object.keys(h).length ? { ...item, highlights: h } : item;
      }),
    };
  }

  /** Adds and removes user labels on every message of a thread. */
  async function relabelThread(
    thread: ThreadRow,
    body: { add_labels?: string[] | null; remove_labels?: string[] | null },
  ) {
    const add = body.add_labels ?? [];
    const remove = body.remove_labels ?? [];
    const system = [...add, ...remove].find((l) => SYSTEM_LABELS.has(l));
    if (system)
      throw new HttpError(
        422,
        `The label "${system}" is set by the service and cannot be changed on a thread`,
        'unprocessable',
        { field: 'add_labels', code: 'SYSTEM_LABEL' },
      );
    if (thread.message_count >= MAX_THREAD_UPDATE)
      throw new HttpError(
        422,
        `Threads of ${MAX_THREAD_UPDATE} or more messages cannot be relabelled at once`,
        'unprocessable',
        { field: 'thread_id', code: 'THREAD_TOO_LARGE' },
      );
    return { thread_id: thread.thread_id, labels: await ctx.changes.relabelThread(thread.thread_id, add, remove) };
  }

  async function orgThread(request: FastifyRequest, threadId: string): Promise<ThreadRow> {
    const thread = await store.threads.get(threadId);
    const inbox = thread && (await ctx.inbox(thread.inbox_id));
    if (!thread || !inbox || !inScope(request, inbox)) throw notFoundError('Thread');
    return thread;
  }

  async function inboxThread(
    request: FastifyRequest,
    params: { inbox_id: string; thread_id: string },
  ): Promise<ThreadRow> {
    const inbox = await ownInbox(ctx, request, params.inbox_id);
    const thread = await store.threads.get(params.thread_id);
    if (!thread || thread.inbox_id !== inbox.inbox_id) throw notFoundError('Thread');
    return thread;
  }

  app.get(
    '/v0/inboxes/:inbox_id/threads',
    { schema: { params: InboxParams, querystring: ThreadQuery, response: answers(ThreadList, 404) } },
    async (request, reply) => {
      const inbox = await ownInbox(ctx, request, request.params.inbox_id);
      return cachedList(ctx, inbox.inbox_id, request, reply, () => listing(inbox.inbox_id, request.query));
    },
  );

  app.get(
    '/v0/inboxes/:inbox_id/threads/search',
    { schema: { params: InboxParams, querystring: SearchQuery, response: answers(ThreadList, 404) } },
    async (request) => {
      const inbox = await ownInbox(ctx, request, request.params.inbox_id);
      return search(inbox.inbox_id, request.query);
    },
  );

  app.patch(
    '/v0/inboxes/:inbox_id/threads/:thread_id',
    { schema: { params: ThreadParams, body: UpdateThread, response: answers(ThreadLabels, 404, 422) } },
    async (request) => relabelThread(await inboxThread(request, request.params), request.body ?? {}),
  );

  app.get(
    '/v0/inboxes/:inbox_id/threads/:thread_id',
    { schema: { params: ThreadParams, querystring: PageQuery, response: answers(ThreadWithMessages, 404) } },
    async (request) => withMessages(await inboxThread(request, request.params), request.query as Query),
  );

  app.delete(
    '/v0/inboxes/:inbox_id/threads/:thread_id',
    {
      schema: { params: ThreadParams, querystring: DeleteQuery, response: answers(DeletedOrTrashed('thread_id'), 404) },
    },
    async (request) => {
      const thread = await inboxThread(request, request.params);
      return {
        ...(await ctx.trash.thread(thread, boolOf(request.query, 'permanent') === true)),
        thread_id: thread.thread_id,
      };
    },
  );

  // Organization-wide, and one pod's (/v0/pods/{pod_id}/threads); a scoped key sees its pod's or inbox's.
  for (const base of ORG_AND_POD) orgThreadRoutes(base);

  function orgThreadRoutes(base: string) {
    app.get(
      `${base}/threads`,
      { schema: { querystring: ThreadQuery, response: answers(ThreadList, 404) } },
      async (request) => listing(await store.inboxes.idsOfScope(scopeOf(request)), request.query as Query),
    );

    app.get(
      `${base}/threads/search`,
      { schema: { querystring: SearchQuery, response: answers(ThreadList, 404) } },
      async (request) => search(await store.inboxes.idsOfScope(scopeOf(request)), request.query as Query),
    );

    app.patch(
      `${base}/threads/:thread_id`,
      { schema: { params: OrgThreadParams, body: UpdateThread, response: answers(ThreadLabels, 404, 422) } },
      async (request) => relabelThread(await orgThread(request, request.params.thread_id), request.body ?? {}),
    );

    app.get(
      `${base}/threads/:thread_id`,
      { schema: { params: OrgThreadParams, querystring: PageQuery, response: answers(ThreadWithMessages, 404) } },
      async (request) => withMessages(await orgThread(request, request.params.thread_id), request.query as Query),
    );

    app.delete(
      `${base}/threads/:thread_id`,
      {
        schema: {
          params: OrgThreadParams,
          querystring: DeleteQuery,
          response: answers(DeletedOrTrashed('thread_id'), 404),
        },
      },
      async (request) => {
        const thread = await orgThread(request, request.params.thread_id);
        return {
          ...(await ctx.trash.thread(thread, boolOf(request.query, 'permanent') === true)),
          thread_id: thread.thread_id,
        };
      },
    );
  }
}
