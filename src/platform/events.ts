// The platform event bus: services meet here only where real services meet (a new mail,
// a state change, a new post), and caches invalidate through it so that the same code
// works across instances. In-process by default; Redis pub/sub when REDIS_URL is set.
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { Logger } from './logger.js';
import { ioredis } from './optional-modules.js';
import type { Topic } from './topics.js';

export type EventHandler<T = any> = (payload: T) => void | Promise<void>;

export interface EventBus {
  publish<T>(topic: Topic<T>, payload: T): Promise<void>;
  /** Returns an unsubscribe function. Handlers must not throw; errors are logged. */
  subscribe<T>(topic: Topic<T>, handler: EventHandler<T>): () => void;
  /**
   * Called after the bus may have lost messages: its Redis subscription dropped and is back.
   * Whatever this instance keeps in memory on the strength of the bus (caches, the home's
   * states) may be stale then and must be read again. Never called on the in-process bus.
   */
  onGap(handler: () => void): () => void;
  close(): Promise<void>;
}

function safeInvoke(handler: EventHandler, payload: unknown, logger?: Logger) {
  try {
    const r = handler(payload);
    if (r && typeof r.catch === 'function') {
      r.catch((err) => logger?.error({ err }, 'event handler failed'));
    }
  } catch (err) {
    logger?.error({ err }, 'event handler failed');
  }
}

// The emitters below only hold the handlers: publish calls them through safeInvoke, which
// catches a rejected promise. The cast (same function, so `off` still finds it) fits the
// emitter's void-returning listener type.
const asListener = (handler: EventHandler) => handler as (payload: unknown) => void;

export class LocalEventBus implements EventBus {
  private readonly emitter = new EventEmitter();

  constructor(private readonly logger?: Logger) {
    this.emitter.setMaxListeners(0);
  }

  async publish<T>(topic: string, payload: T): Promise<void> {
    for (const handler of this.emitter.listeners(topic)) safeInvoke(handler as EventHandler, payload, this.logger);
  }

  subscribe<T>(topic: string, handler: EventHandler<T>): () => void {
    this.emitter.on(topic, asListener(handler));
    return () => this.emitter.off(topic, asListener(handler));
  }

  onGap(): () => void {
    return () => {};
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

/** Redis pub/sub: every instance, this one included, hears every publish. */
export class RedisEventBus implements EventBus {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly local = new EventEmitter();
  private readonly channelPrefix: string;

  private readonly gapHandlers = new Set<() => void>();
  /** The subscriber connection was lost since it was last ready: what was published meanwhile never reached us. */
  private lost = false;

  constructor(
    url: string,
    private readonly logger?: Logger,
    prefix = 'hamlet:',
  ) {
    // ioredis is loaded only in queue mode: the in-process bus (and quick commands) never pay for it.
    const { Redis: RedisClient } = ioredis();
    this.pub = new RedisClient(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
    // Named, so an operator (or a test) can tell the subscriber connections apart in CLIENT LIST.
    this.sub = new RedisClient(url, { lazyConnect: false, connectionName: `${prefix.replace(/[^\w.-]/g, '')}-events` });
    this.channelPrefix = prefix;
    this.local.setMaxListeners(0);
    this.sub.on('message', (channel: string, message: string) => {
      const topic = channel.slice(this.channelPrefix.length);
      let payload: unknown;
      try {
        payload = JSON.parse(message);
      } catch {
        return;
      }
      for (const handler of this.local.listeners(topic)) safeInvoke(handler as EventHandler, payload, this.logger);
    });
    this.pub.on('error', (err) => logger?.warn({ err }, 'redis publisher error'));
    this.sub.on('error', (err) => logger?.warn({ err }, 'redis subscriber error'));
    this.sub.on('close', () => {
      if (!this.closed) this.lost = true;
    });
    // ioredis subscribes to every channel again on 'ready'; a PING sent after those commands is
    // answered after them, so once it is, new messages arrive and the gap is over: time to catch up.
    this.sub.on('ready', () => {
      if (!this.lost) return;
      this.lost = false;
      this.sub
        .ping()
        .then(() => {
          logger?.warn('redis subscription restored after a drop: reloading what the missed events may have changed');
          for (const handler of this.gapHandlers) safeInvoke(handler, undefined, this.logger);
        })
        .catch(() => (this.lost = true));
    });
  }

  onGap(handler: () => void): () => void {
    this.gapHandlers.add(handler);
    return () => this.gapHandlers.delete(handler);
  }

  async publish<T>(topic: string, payload: T): Promise<void> {
    await this.pub.publish(this.channelPrefix + topic, JSON.stringify(payload));
  }

  subscribe<T>(topic: string, handler: EventHandler<T>): () => void {
    if (this.local.listenerCount(topic) === 0)
      this.sub
        .subscribe(this.channelPrefix + topic)
        .catch((err: unknown) => this.commandFailed('subscribe', topic, err));
    this.local.on(topic, asListener(handler));
    return () => {
      this.local.off(topic, asListener(handler));
      if (this.local.listenerCount(topic) === 0)
        this.sub
          .unsubscribe(this.channelPrefix + topic)
          .catch((err: unknown) => this.commandFailed('unsubscribe', topic, err));
    };
  }

  /**
   * A (un)subscribe still waiting for the connection when the bus closes is refused with
   * "Connection is closed": expected then (a short CLI command closes right after opening,
   * before Redis answered), worth a warning otherwise. Never an unhandled rejection.
   */
  private commandFailed(command: string, topic: string, err: unknown): void {
    if (!this.closed) this.logger?.warn({ err, topic }, `redis ${command} failed`);
  }

  private closed = false;

  async close(): Promise<void> {
    this.closed = true;
    this.gapHandlers.clear();
    this.local.removeAllListeners();
    this.pub.disconnect();
    this.sub.disconnect();
  }
}

export function createEventBus(redisUrl: string | undefined, logger?: Logger, prefix?: string): EventBus {
  return redisUrl ? new RedisEventBus(redisUrl, logger, prefix) : new LocalEventBus(logger);
}
