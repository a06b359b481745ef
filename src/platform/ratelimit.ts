// Rate limits: every limit has a name and a default ("100/1h"); the operator overrides it with
// HAMLET_RATE_<NAME>=<max>/<window>, and HAMLET_RATE_LIMITS=off turns them all off (benchmarks,
// load tests). Counting is @fastify/rate-limit's, in memory or in Redis when REDIS_URL is set,
// so instances behind a load balancer share one count. In memory, windows are counted on the
// platform clock, so a frozen clock holds a window open and an advance past it resets it; a clock
// set back never makes a window longer than itself (Redis expires its keys in real time: with
// REDIS_URL, windows follow real time).
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import type { Clock } from './clock.js';
import { HttpError } from './errors.js';
import type { App } from './http.js';
import { bearerToken } from './http.js';
import { ioredis } from './optional-modules.js';
import { parseRateLimit, type RateLimitSetting } from './settings.js';

export interface LimitDeclaration {
  name: string;
  default: string;
  description: string;
}

/** Every limit any service declared in this process, for `hamlet rate-limits` and the docs. */
export const declaredLimits = new Map<string, LimitDeclaration>();

export type KeyGenerator = (request: FastifyRequest) => string;

/** Extra fields a service wants in its 429 body (e.g. Moltbook's retry_after_minutes). */
export type LimitDetails = (ctx: { ttlMs: number; max: number }) => Record<string, unknown>;

/** HAMLET_RATE_LIMITS and the HAMLET_RATE_<NAME> overrides (read in src/config.ts). */
export interface RateLimitSettings {
  enabled: boolean;
  /** Overrides by limit name, from HAMLET_RATE_<NAME>=<max>/<window>. */
  overrides: Record<string, RateLimitSetting>;
}

/** Where instances behind a load balancer share their counts (REDIS_URL), under the deployment's key prefix. */
export interface SharedCounts {
  redisUrl: string;
  prefix: string;
}

export class RateLimits {
  private redis?: Redis;

  constructor(
    private readonly settings: RateLimitSettings,
    private readonly clock: Clock,
    private readonly shared?: SharedCounts,
  ) {}

  get enabled(): boolean {
    return this.settings.enabled;
  }

  /** The limit in force for a name, or undefined when limits are off. */
  setting(name: string, fallback: string, description = ''): RateLimitSetting | undefined {
    declaredLimits.set(name, { name, default: fallback, description });
    if (!this.enabled) return undefined;
    return this.settings.overrides[name] ?? parseRateLimit(fallback)!;
  }

  /** Registers the counting plugin on an app; routes opt in with `config: limits.route(...)`. */
  async register(app: App): Promise<void> {
    if (!this.enabled) return;
    if (this.shared && !this.redis) {
      const { Redis: RedisClient } = ioredis();
      this.redis = new RedisClient(this.shared.redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1 });
      // A Redis hiccup must not crash the process; requests pass unlimited meanwhile (skipOnError).
      this.redis.on('error', () => {});
    }
    await app.register(rateLimit, {
      global: false,
      // Counted under the deployment's prefix (HAMLET_QUEUE_PREFIX), like its queues and channels.
      ...(this.redis && this.shared
        ? { redis: this.redis, nameSpace: `${this.shared.prefix}-rl:`, skipOnError: true }
        : { store: windowStoreOn(this.clock) }),
      errorResponseBuilder: (_request, context) => {
        const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
        return new HttpError(
          429,
          `Rate limit exceeded: ${context.max} requests per ${context.after} window; retry in ${seconds} s`,
          'rate_limited',
          {
            retry_after_seconds: seconds,
            limit: context.max,
          },
        );
      },
    });
  }

  /**
   * Route config for a named limit. `group` makes several routes share one count (e.g. all
   * "other requests" of a key). Returns {} when limits are off.
   */
  route(
    name: string,
    fallback: string,
    opts: { key?: KeyGenerator; description?: string; details?: LimitDetails } = {},
  ): { rateLimit?: RateLimitOptions } {
    const s = this.setting(name, fallback, opts.description);
    if (!s) return {};
    const details = opts.details;
    return {
      rateLimit: {
        max: s.max,
        timeWindow: s.windowMs,
        groupId: name,
        keyGenerator: opts.key ?? byClientAddress,
        ...(details
          ? {
              errorResponseBuilder: (_r: FastifyRequest, ctx: { ttl: number; max: number }) => {
                const seconds = Math.max(1, Math.ceil(ctx.ttl / 1000));
                return new HttpError(
                  429,
                  `Rate limit exceeded; retry in ${seconds} s`,
                  'rate_limited',
                  details({ ttlMs: ctx.ttl, max: ctx.max }),
                );
              },
            }
          : {}),
      },
    };
  }

  async close(): Promise<void> {
    this.redis?.disconnect();
  }
}

/**
 * In-memory counting that honours `groupId` across routes. The plugin's own memory store
 * gives every route a separate map, so a group such as "all other requests of a key" would
 * be counted per route; its Redis store shares by key and needs nothing like this.
 */
class SharedWindowStore {
  private static readonly MAX_KEYS = 100_000;
  private windows: Map<string, { current: number; ttl: number; start: number }>;

  constructor(
    private readonly clock: Clock,
    shared?: SharedWindowStore['windows'],
  ) {
    this.windows = shared ?? new Map();
  }

  incr(key: string, cb: (err: Error | null, res: { current: number; ttl: number }) => void, timeWindow: number): void {
    const now = this.clock.ms();
    let w = this.windows.get(key);
    if (!w || w.start + timeWindow <= now) {
      if (!w && this.windows.size >= SharedWindowStore.MAX_KEYS) this.windows.clear();
      w = { current: 0, ttl: timeWindow, start: now };
      this.windows.set(key, w);
    }
    SharedWindowStore.rewound(w, now);
    w.current++;
    w.ttl = timeWindow - (now - w.start);
    cb(null, { current: w.current, ttl: w.ttl });
  }

  read(key: string, cb: (err: Error | null, res: { current: number; ttl: number }) => void, timeWindow: number): void {
    const now = this.clock.ms();
    const w = this.windows.get(key);
    if (!w || w.start + timeWindow <= now) return cb(null, { current: 0, ttl: 0 });
    SharedWindowStore.rewound(w, now);
    cb(null, { current: w.current, ttl: timeWindow - (now - w.start) });
  }

  /**
   * A window that starts after now began before the clock was set back (a jump into the past,
   * a world restored with its earlier clock). Counted from its start it would stay shut for the
   * whole jump (a day back: a day's lock-out); it restarts now instead, its count kept, so a
   * caller over the limit waits one window at most.
   */
  private static rewound(w: { start: number }, now: number): void {
    if (w.start > now) w.start = now;
  }

  child(): SharedWindowStore {
    return new SharedWindowStore(this.clock, this.windows);
  }
}

/** The plugin builds its store with `new Store(options)`: a class that carries the clock. */
function windowStoreOn(clock: Clock) {
  return class extends SharedWindowStore {
    constructor() {
      super(clock);
    }
  };
}

export const byClientAddress: KeyGenerator = (request) => request.ip;

/** Counts per API key (its digest, never the key itself); requests without a key count per address. */
export const byBearerKey: KeyGenerator = (request) => {
  const token = bearerToken(request);
  return token ? 'k:' + createHash('sha256').update(token).digest('base64url').slice(0, 22) : 'ip:' + request.ip;
};
