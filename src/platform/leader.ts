// One leader per service across a cluster, for work every instance could do but only one
// must: schedules and automations that fire on a timer or on an event every instance hears
// (a home state change, a community post). Jobs need none of this: a queue hands each job
// to one worker. Webhooks and requests need none either: they arrive at one instance.
//
// Why a Redis lease and not BullMQ repeatable jobs or a PostgreSQL advisory lock:
// - Repeatable jobs would fit cron schedules alone; automations react to events and to
//   the home's own timers (delays, time patterns) kept in the leader's memory.
// - An advisory lock lives as long as one database session, so each service would hold one
//   pooled connection for good, and a half-open connection keeps the lock for minutes.
// - A Redis key with a time limit (SET NX PX), renewed while held, is the lease the cluster
//   already depends on (REDIS_URL is what makes Hamlet a cluster): a leader that dies or
//   loses Redis is replaced within one lease. A leader that cannot renew steps down on its
//   own before its lease runs out, so two instances never both believe they lead.
//
// Without REDIS_URL there is one process per storage, and it leads everything.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ioredis } from './optional-modules.js';
import type { Logger } from './logger.js';

export interface Leadership {
  /** Whether this process leads now; ask at the moment of acting (leadership can move). */
  isLeader(): boolean;
}

/** Renews only the holder's lease: another instance's key is left alone. */
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** A lease of LEASE_MS, renewed (or sought) three times per lease. */
const DEFAULT_LEASE_MS = 6000;

class Campaign implements Leadership {
  /** Real time (Date.now), not the injectable clock: leases live in Redis's time. */
  private validUntil = 0;
  private timer?: NodeJS.Timeout;
  private attempt?: Promise<void>;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly id: string,
    private readonly leaseMs: number,
    private readonly logger: Logger,
  ) {}

  isLeader(): boolean {
    return Date.now() < this.validUntil;
  }

  start(): void {
    const tick = () => {
      this.attempt = this.contend().finally(() => (this.attempt = undefined));
    };
    tick();
    this.timer = setInterval(tick, Math.max(50, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  /** Takes the lease when it is free, renews it when held. */
  private async contend(): Promise<void> {
    const wasLeader = this.isLeader();
    // Counted from before the command: the lease may have been set at any moment of the round trip.
    const asked = Date.now();
    try {
      const held = wasLeader
        ? (await this.redis.eval(RENEW, 1, this.key, this.id, String(this.leaseMs))) === 1
        : (await this.redis.set(this.key, this.id, 'PX', this.leaseMs, 'NX')) === 'OK';
      // Step down a little before the lease ends, so a clock drift cannot overlap two leaders.
      this.validUntil = held ? asked + this.leaseMs - Math.min(1000, this.leaseMs / 5) : 0;
    } catch (err) {
      // Unreachable Redis: keep leading until the lease would have run out, then stop.
      if (wasLeader) this.logger.warn({ err, key: this.key }, 'leader lease could not be renewed');
    }
    const leads = this.isLeader();
    if (leads !== wasLeader)
      this.logger.info({ key: this.key, leads }, leads ? 'this instance leads now' : 'this instance no longer leads');
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.attempt;
    if (!this.isLeader()) return;
    this.validUntil = 0;
    // Handing over at once: the next instance need not wait out the lease.
    await this.redis.eval(RELEASE, 1, this.key, this.id).catch(() => {});
  }
}

const alwaysLeader: Leadership = { isLeader: () => true };

/** The leaderships of one process, one per name (a service's name), each sought on first use. */
export class Leaders {
  /** This process, as the lease holders' value (seen in Redis by an operator). */
  readonly id = randomUUID();
  private redis?: Redis;
  private readonly campaigns = new Map<string, Campaign>();

  constructor(
    private readonly redisUrl: string | undefined,
    private readonly keyPrefix: string,
    private readonly logger: Logger,
    private readonly leaseMs = DEFAULT_LEASE_MS,
  ) {}

  of(name: string): Leadership {
    if (!this.redisUrl) return alwaysLeader;
    let campaign = this.campaigns.get(name);
    if (!campaign) {
      this.redis ??= this.connect(this.redisUrl);
      campaign = new Campaign(this.redis, `${this.keyPrefix}:leader:${name}`, this.id, this.leaseMs, this.logger);
      this.campaigns.set(name, campaign);
      campaign.start();
    }
    return campaign;
  }

  private connect(url: string): Redis {
    const { Redis: RedisClient } = ioredis();
    const redis = new RedisClient(url, { maxRetriesPerRequest: 1 });
    redis.on('error', (err) => this.logger.warn({ err }, 'redis (leader) error'));
    return redis;
  }

  async close(): Promise<void> {
    await Promise.all([...this.campaigns.values()].map((c) => c.stop()));
    this.campaigns.clear();
    this.redis?.disconnect();
  }
}
