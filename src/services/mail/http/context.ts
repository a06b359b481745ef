// What every route module of the mail service works with, built once in http/index.ts: the core the
// job handlers share, plus the HTTP-only parts (download links, the send quota, idempotent sends).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Platform } from '../../../platform/service.js';
import type { MailCore } from '../core.js';
import { notFoundError } from '../errors.js';
import type { IdempotentSends } from '../sending/idempotency.js';
import type { InboxRow } from '../store/index.js';
import type { DownloadLinks } from './downloads.js';
import type { Pods } from '../pods/pods.js';
import type { MailApiKeys } from '../api-keys/keys.js';
import { inScope } from './scope.js';
import type { SendLimit } from './limits.js';

export interface MailContext extends MailCore {
  platform: Platform;
  links: DownloadLinks;
  /** The service's mail domains, the configured ones first. */
  domains(): string[];
  sendLimit: SendLimit;
  sends: IdempotentSends;
  pods: Pods;
  apiKeys: MailApiKeys;
  /** The API's base URL as reachable from outside (download and magic links); known after listen. */
  baseUrl(): string;
}

/** The inbox named in a path if the caller may see it (its organization, key scope and route pod); 404 otherwise. */
export async function ownInbox(ctx: MailContext, request: FastifyRequest, inboxId: string): Promise<InboxRow> {
  const inbox = await ctx.inbox(inboxId.toLowerCase());
  if (!inbox || !inScope(request, inbox)) throw notFoundError('Inbox');
  return inbox;
}

/**
 * Answers a list of one inbox from the cache when it can; otherwise builds it, caches the JSON
 * and answers. Keyed by the whole URL, so every filter and page has its own entry.
 */
export async function cachedList(
  ctx: MailContext,
  inboxId: string,
  request: FastifyRequest,
  reply: FastifyReply,
  build: () => Promise<unknown>,
) {
  let body = ctx.cache.list(inboxId, request.url);
  if (body === undefined) {
    const generation = ctx.cache.generation(inboxId);
    body = Buffer.from(JSON.stringify(await build()));
    ctx.cache.setList(inboxId, request.url, body, generation);
  }
  return reply.type('application/json; charset=utf-8').send(body);
}
