// Serialized list pages in memory. Listings are read far more often than they change; a
// cached page is kept as UTF-8 bytes and sent as is (no serializing, no re-encoding). Every write that can change a listing invalidates
// here at once and, through the event bus, on every other instance (Redis pub/sub).
//
// A generation number guards against the race where a page read from the database before
// a write commits is stored after that write's invalidation: such a page is dropped.
import { randomUUID } from 'node:crypto';
import type { EventBus } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';

const INVALIDATE_TOPIC = 'community.cache.invalidate';

/**
 * What a write changed: the listings of one community (with the listings across all
 * communities, which show its posts too), and/or one post's comment tree. A vote in one
 * community leaves every other community's cached pages alone.
 */
export interface Invalidation {
  communityId?: string;
  postId?: string;
}

/** The group of listings that span every community (front page, /posts without a filter). */
export const ALL_COMMUNITIES = '*';

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
  /** List pages, keyed by community id (or ALL_COMMUNITIES) then by query. */
  private readonly lists = new Map<string, PageMap>();
  /** Comment trees, keyed by post id then by query. */
  private readonly comments = new Map<string, PageMap>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly events: EventBus,
    private readonly maxEntries: number,
    private readonly logger?: Logger,
  ) {
    this.unsubscribe = events.subscribe<Message>(INVALIDATE_TOPIC, (msg) => {
      if (msg.origin !== this.origin) this.apply(msg);
    });
  }

  /** A listing page of one community (or of all): from memory, or computed, stored and returned. */
  async list(communityId: string, key: string, compute: () => Promise<string>): Promise<Buffer> {
    return this.through(this.group(this.lists, communityId, this.maxEntries), key, compute);
  }

  async commentTree(postId: string, key: string, compute: () => Promise<string>): Promise<Buffer> {
    return this.through(this.group(this.comments, postId, 64), key, compute);
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

  private group(groups: Map<string, PageMap>, id: string, size: number): PageMap {
    let map = groups.get(id);
    if (!map) {
      // Dropping the maps is safe: a page being computed for a dropped map is simply not kept.
      if (groups.size >= this.maxEntries) groups.clear();
      map = new PageMap(Math.min(size, this.maxEntries));
      groups.set(id, map);
    }
    return map;
  }

  private apply(what: Invalidation) {
    if (what.communityId) {
      this.lists.get(ALL_COMMUNITIES)?.clear();
      this.lists.get(what.communityId)?.clear();
    }
    if (what.postId) this.comments.get(what.postId)?.clear();
  }
}
