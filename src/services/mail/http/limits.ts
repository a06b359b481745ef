// The contract's per-key limits on the mail API: requests per minute and sends per day.
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../../platform/errors.js';
import type { App } from '../../../platform/http.js';
import { byBearerKey } from '../../../platform/ratelimit.js';
import type { Platform } from '../../../platform/service.js';

type Limiter = (
  req: FastifyRequest,
  opts?: { increment?: boolean },
) => Promise<{ isAllowed: boolean; isExceeded?: boolean; ttlInSeconds?: number; max?: number }>;

/**
 * The contract's two limits, each counted per key across all routes: requests per minute
 * (every /v0 request) and sends per day (accepted sends only; idempotent replays are free).
 */
export class SendLimit {
  constructor(private readonly limiter?: Limiter) {}

  async check(request: FastifyRequest): Promise<void> {
    if (!this.limiter) return;
    const r = await this.limiter(request, { increment: false });
    // The peek reports the count so far: at the maximum, one more send would exceed it.
    if (!r.isAllowed && (r.isExceeded || (r.max !== undefined && (r as { remaining?: number }).remaining === 0)))
      throw tooMany(r.ttlInSeconds ?? 60, r.max, 'sends per day');
  }

  async count(request: FastifyRequest): Promise<void> {
    await this.limiter?.(request);
  }
}

const tooMany = (seconds: number, max: number | undefined, what: string) =>
  new HttpError(
    429,
    `Rate limit exceeded: at most ${max} ${what} per API key; retry in ${Math.max(1, seconds)} s`,
    'rate_limit_exceeded',
    { limit: max, retry_after_seconds: Math.max(1, seconds) },
    { 'retry-after': String(Math.max(1, seconds)) },
  );

export async function installLimits(app: App, platform: Platform): Promise<SendLimit> {
  await platform.limits.register(app);
  const requests = platform.limits.setting('mail_requests', '1000/1m', 'API requests per key, all /v0 routes together');
  const sends = platform.limits.setting('mail_sends', '10000/1d', 'Sends, replies and forwards per key');
  if (!requests || !sends) return new SendLimit();
  const keyed = (prefix: string) => (r: FastifyRequest) => prefix + byBearerKey(r);
  const requestLimiter = app.createRateLimit({
    max: requests.max,
    timeWindow: requests.windowMs,
    keyGenerator: keyed('mail-req:'),
  }) as unknown as Limiter;
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/v0') || request.url.startsWith('/v0/downloads/')) return;
    const r = await requestLimiter(request);
    if (!r.isAllowed && r.isExceeded) throw tooMany(r.ttlInSeconds ?? 60, r.max, 'requests per minute');
  });
  return new SendLimit(
    app.createRateLimit({
      max: sends.max,
      timeWindow: sends.windowMs,
      keyGenerator: keyed('mail-send:'),
    }),
  );
}
