// What every route module of the mail service needs, built once in index.ts.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, unauthorized } from '../../platform/errors.js';
import { bearerToken, type App } from '../../platform/http.js';
import { byBearerKey } from '../../platform/ratelimit.js';
import type { Platform } from '../../platform/service.js';
import type { MailCache } from './cache.js';
import type { MailSettings } from './settings.js';
import type { DownloadLinks } from './downloads.js';
import type { Drafts } from './drafts.js';
import { notFoundError } from './errors.js';
import type { Filing } from './filing.js';
import type { Sending } from './sending.js';
import type { InboxRow, Store } from './store.js';
import type { MailEvents } from './webhooks/events.js';

export interface MailContext {
  platform: Platform;
  store: Store;
  filing: Filing;
  sending: Sending;
  events: MailEvents;
  config: MailSettings;
  links: DownloadLinks;
  /** The service's mail domains, the configured ones first. */
  domains(): string[];
  sendLimit: SendLimit;
  cache: MailCache;
  drafts: Drafts;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The organization of the request's API key (set by the mail service's auth hook). */
    mailOrgId: string;
    /** The id of the request's API key (the WebSocket stream counts connections per key). */
    mailKeyId: string;
  }
}

/** A key's organization: its owner when it has one, else the key itself. */
const orgOfKey = (key: { id: string; ownerId: string | null }) => key.ownerId ?? key.id;

/** Every organization has one default pod; its id is derived, so it needs no table. */
export function podIdOf(orgId: string): string {
  const h = createHash('sha256').update(`pod:${orgId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Checks the bearer key on every /v0 route but download links (their URL is the credential). */
export function installAuth(app: App, platform: Platform): void {
  app.decorateRequest('mailOrgId', '');
  app.decorateRequest('mailKeyId', '');
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/v0') || request.url.startsWith('/v0/downloads/')) return;
    // The WebSocket stream also takes the key as ?api_key= (browsers cannot set headers).
    const queryKey = request.url.startsWith('/v0?') ? (request.query as { api_key?: string }).api_key : undefined;
    const token = bearerToken(request) ?? (typeof queryKey === 'string' ? queryKey : undefined);
    const key = await platform.keys.verify('mail', token);
    if (!key) throw unauthorized(token ? 'Invalid API key' : 'Missing API key: send Authorization: Bearer <key>');
    request.mailOrgId = orgOfKey(key);
    request.mailKeyId = key.id;
  });
}

/** The inbox named in a path if it belongs to the caller's organization; 404 otherwise. */
export async function ownInbox(ctx: MailContext, request: FastifyRequest, inboxId: string): Promise<InboxRow> {
  const id = inboxId.toLowerCase();
  let inbox = ctx.cache.inbox(id);
  if (!inbox) {
    inbox = await ctx.store.inbox(id);
    if (inbox) ctx.cache.setInbox(inbox);
  }
  if (!inbox || inbox.org_id !== request.mailOrgId) throw notFoundError('Inbox');
  return inbox;
}

type Limiter = (req: FastifyRequest, opts?: { increment?: boolean }) => Promise<{ isAllowed: boolean; isExceeded?: boolean; ttlInSeconds?: number; max?: number }>;

/**
 * The contract's two limits, each counted per key across all routes: requests per minute
 * (every /v0 request) and sends per day (accepted sends only; idempotent replays are free).
 */
class SendLimit {
  constructor(private readonly limiter?: Limiter) {}

  async check(request: FastifyRequest): Promise<void> {
    if (!this.limiter) return;
    const r = await this.limiter(request, { increment: false });
    // The peek reports the count so far: at the maximum, one more send would exceed it.
    if (!r.isAllowed && (r.isExceeded || (r.max !== undefined && (r as { remaining?: number }).remaining === 0))) throw tooMany(r.ttlInSeconds ?? 60, r.max, 'sends per day');
  }

  async count(request: FastifyRequest): Promise<void> {
    await this.limiter?.(request);
  }
}

const tooMany = (seconds: number, max: number | undefined, what: string) =>
  new HttpError(429, `Rate limit exceeded: at most ${max} ${what} per API key; retry in ${Math.max(1, seconds)} s`, 'rate_limit_exceeded', { limit: max, retry_after_seconds: Math.max(1, seconds) }, { 'retry-after': String(Math.max(1, seconds)) });

export async function installLimits(app: App, platform: Platform): Promise<SendLimit> {
  await platform.limits.register(app);
  const requests = platform.limits.setting('mail_requests', '1000/1m', 'API requests per key, all /v0 routes together');
  const sends = platform.limits.setting('mail_sends', '10000/1d', 'Sends, replies and forwards per key');
  if (!requests || !sends) return new SendLimit();
  const keyed = (prefix: string) => (r: FastifyRequest) => prefix + byBearerKey(r);
  const requestLimiter = app.createRateLimit({ max: requests.max, timeWindow: requests.windowMs, keyGenerator: keyed('mail-req:') }) as unknown as Limiter;
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/v0') || request.url.startsWith('/v0/downloads/')) return;
    const r = await requestLimiter(request);
    if (!r.isAllowed && r.isExceeded) throw tooMany(r.ttlInSeconds ?? 60, r.max, 'requests per minute');
  });
  return new SendLimit(app.createRateLimit({ max: sends.max, timeWindow: sends.windowMs, keyGenerator: keyed('mail-send:') }) as unknown as Limiter);
}

/**
 * Answers a list of one inbox from the cache when it can; otherwise builds it, caches the JSON
 * and answers. Keyed by the whole URL, so every filter and page has its own entry.
 */
export async function cachedList(ctx: MailContext, inboxId: string, request: FastifyRequest, reply: FastifyReply, build: () => Promise<unknown>) {
  let body = ctx.cache.list(inboxId, request.url);
  if (body === undefined) {
    body = Buffer.from(JSON.stringify(await build()));
    ctx.cache.setList(inboxId, request.url, body);
  }
  return reply.type('application/json; charset=utf-8').send(body);
}

