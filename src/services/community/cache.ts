// Serialized list pages in memory. Listings are read far more often than they change; a
// cached page is kept as UTF-8 bytes and sent as is (no serializing, no re-encoding). Every write that can change a listing invalidates
// here at once and, through the event bus, on every other instance (Redis pub/sub).
//
// A generation number guards against the race where a page read from the database before
// a write commits is stored after that write's invalidation: such a page is dropped.
import { randomUUID } from 'node:crypto';
import type { EventBus } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';

export const INVALIDATE_TOPIC = 'community.cache.invalidate';

/** What a write changed: the post listings, and/or one post's comment tree. */
export interface Invalidation {
  lists?: boolean;
  postId?: string;
}

interface Message extends Invalidation {
  origin: string;
}

class PageMap {
  private readonly pages = new Map<string, Buffer>();
  generation = 0;

  constructor(private readonly max: number) {}

  get(key: string) {
    return this.pages.get(key);
  }

  set(key: string, value: Buffer, generation: number) {
    if (generation !== this.generation || this.max === 0) return;
    // Crude but O(1): a full cache starts over rather than tracking recency per read.
    if (this.pages.size >= this.max) this.pages.clear();
    this.pages.set(key, value);
  }

  clear() {
    this.generation++;
    this.pages.clear();
  }
}

export class ListCache {
  private readonly origin = randomUUID();
  private readonly lists: PageMap;
  /** Comment trees, keyed by post id then by query. */
  private readonly comments = new Map<string, PageMap>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly events: EventBus,
    private readonly maxEntries: number,
    private readonly logger?: Logger,
  ) {
    this.lists = new PageMap(maxEntries);
    this.unsubscribe = events.subscribe<Message>(INVALIDATE_TOPIC, (msg) => {
      if (msg.origin !== this.origin) this.apply(msg);
    });
  }

  /** A post listing page: from memory, or computed, stored and returned. */
  async list(key: string, compute: () => Promise<string>): Promise<Buffer> {
    return this.through(this.lists, key, compute);
  }

  async commentTree(postId: string, key: string, compute: () => Promise<string>): Promise<Buffer> {
    let map = this.comments.get(postId);
    if (!map) {
      if (this.comments.size >= this.maxEntries) this.comments.clear();
      map = new PageMap(Math.min(64, this.maxEntries));
      this.comments.set(postId, map);
    }
    return this.through(map, key, compute);
  }

  /**
   * Drops what a committed write changed, here and on every other instance. The write is
   * already committed, so a failure to reach the bus (Redis down) is logged, not thrown:
   * the request that made the write must still succeed.
   */
  async invalidate(what: Invalidation): Promise<void> {
    this.apply(what);
    try {
      await this.events.publish<Message>(INVALIDATE_TOPIC, { ...what, origin: this.origin });
    } catch (err) {
      this.logger?.error({ err }, 'community cache invalidation could not be published');
    }
  }

  close() {
    this.unsubscribe();
  }

  private async through(map: PageMap, key: string, compute: () => Promise<string>): Promise<Buffer> {
    const hit = map.get(key);
    if (hit !== undefined) return hit;
    const generation = map.generation;
    const value = Buffer.from(await compute());
    map.set(key, value, generation);
    return value;
  }

  private apply(what: Invalidation) {
    if (what.lists) this.lists.clear();
    if (what.postId) this.comments.get(what.postId)?.clear();
  }
}
