// Serialized list pages in memory. Listings are read far more often than they change; a
// cached page is kept as UTF-8 bytes and sent as is (no serializing, no re-encoding). Every write that can change a listing invalidates
// here at once and, through the event bus, on every other instance (Redis pub/sub).
//
// A generation number guards against the race where a page read from the database before
// a write commits is stored after that write's invalidation: such a page is dropped.
//
// Votes are the frequent write, so they drop only the pages they can change: a listing page
// remembers which posts it shows and the range of ranks it covers, and a vote drops it only
// if the voted post is on it or its rank moved into, out of or across that range. A page the
// voted post stays on is rewritten in memory (new counters, order within the page) when the
// votes are known to arrive in commit order. Concurrent misses of one page share one
// computation instead of each querying the database.
import { randomUUID } from 'node:crypto';
import type { EventBus } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';

const INVALIDATE_TOPIC = 'community.cache.invalidate';

/** What a listing page shows, so that a vote can tell whether it changed the page. */
export interface PageMeta {
  sort: 'hot' | 'top' | 'new';
  ids: string[];
  /** The lowest and highest rank key on the page (hot, or score for top; unused for new). */
  low: number;
  high: number;
}

/** A vote on a post: its rank keys before and after, and its counters after. */
export interface VoteChange {
  postId: string;
  communityId: string;
  before: { hot: number; score: number };
  after: { hot: number; score: number };
  counts: { upvotes: number; downvotes: number; score: number };
}

/**
 * What a write changed: the listings of one community (with the listings across all
 * communities, which show its posts too), and/or one post's comment tree; or, for a vote on
 * a post, only the listing pages that vote can change. A write in one community leaves every
 * other community's cached pages alone.
 */
interface Invalidation {
  communityId?: string;
  postId?: string;
  vote?: VoteChange;
}

/** The group of listings that span every community (front page, /posts without a filter). */
export const ALL_COMMUNITIES = '*';

interface Message extends Invalidation {
  origin: string;
}

interface Entry {
  body: Buffer;
  /** Without it (pages for people, comment trees), any change in the group drops the entry. */
  meta?: PageMeta;
  ids?: Set<string>;
  patch?: PagePatch;
}

/**
 * Rewrites a cached page for a vote on one of its posts without asking the database (new
 * counters, the order within the page), or answers undefined when only the database can tell
 * (the post may have left the page, or another may have entered it).
 */
export type PagePatch = (vote: VoteChange) => PageComputed | undefined;

export interface PageComputed {
  body: string;
  meta?: PageMeta;
  patch?: PagePatch;
}

export type Computed = string | PageComputed;

const toEntry = (value: Computed): Entry =>
  typeof value === 'string'
    ? { body: Buffer.from(value) }
    : { body: Buffer.from(value.body), meta: value.meta, patch: value.patch };

/** Whether a vote can change a page: the post is on it, or its rank crossed the page's range. */
function voteChanges(entry: Entry, vote: VoteChange): boolean {
  const meta = entry.meta;
  if (!meta) return true;
  entry.ids ??= new Set(meta.ids);
  if (entry.ids.has(vote.postId)) return true;
  if (meta.sort === 'new' || meta.ids.length === 0) return false;
  const key = meta.sort === 'hot' ? 'hot' : 'score';
  const lo = Math.min(vote.before[key], vote.after[key]);
  const hi = Math.max(vote.before[key], vote.after[key]);
  return hi >= meta.low && lo <= meta.high;
}

class PageMap {
  private readonly pages = new Map<string, Entry>();
  /** Computations under way, shared by concurrent misses of the same page. */
  private readonly inflight = new Map<string, Promise<Entry>>();
  generation = 0;

  constructor(private readonly max: number) {}

  async through(key: string, compute: () => Promise<Computed>): Promise<Buffer> {
    const hit = this.pages.get(key);
    if (hit !== undefined) return hit.body;
    const pending = this.inflight.get(key);
    if (pending) return (await pending).body;
    const generation = this.generation;
    const promise = compute().then(toEntry);
    this.inflight.set(key, promise);
    try {
      const entry = await promise;
      this.set(key, entry, generation);
      return entry.body;
    } finally {
      if (this.inflight.get(key) === promise) this.inflight.delete(key);
    }
  }

  private set(key: string, entry: Entry, generation: number) {
    if (generation !== this.generation || this.max === 0) return;
    // Crude but O(1): a full cache starts over rather than tracking recency per read.
    if (this.pages.size >= this.max) this.pages.clear();
    this.pages.set(key, entry);
  }

  /** Drops every page (and abandons the computations under way, which may predate the write). */
  clear() {
    this.generation++;
    this.inflight.clear();
    this.pages.clear();
  }

  /** Drops (or, when allowed, patches) the pages a vote can change; the others stay. */
  applyVote(vote: VoteChange, patch: boolean) {
    this.generation++;
    this.inflight.clear();
    for (const [key, entry] of this.pages) {
      if (!voteChanges(entry, vote)) continue;
      const patched = patch ? entry.patch?.(vote) : undefined;
      if (patched) this.pages.set(key, toEntry(patched));
      else this.pages.delete(key);
    }
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

  /**
   * A listing page of one community (or of all): from memory, or computed, stored and
   * returned. A page computed with its PageMeta survives votes that cannot change it.
   */
  async list(communityId: string, key: string, compute: () => Promise<Computed>): Promise<Buffer> {
    return this.group(this.lists, communityId, this.maxEntries).through(key, compute);
  }

  async commentTree(postId: string, key: string, compute: () => Promise<string>): Promise<Buffer> {
    return this.group(this.comments, postId, 64).through(key, compute);
  }

  /**
   * Drops what a committed write changed, here and on every other instance. The write is
   * already committed, so a failure to reach the bus (Redis down) is logged, not thrown:
   * the request that made the write must still succeed.
   */
  async invalidate(what: Invalidation, opts: { patchLocally?: boolean } = {}): Promise<void> {
    this.apply(what, opts.patchLocally === true);
    try {
      await this.events.publish<Message>(INVALIDATE_TOPIC, { ...what, origin: this.origin });
    } catch (err) {
      this.logger?.error({ err }, 'community cache invalidation could not be published');
    }
  }

  close() {
    this.unsubscribe();
  }

  /** After a world restore (every instance hears it from the platform): nothing cached holds. */
  clearAll(): void {
    this.lists.clear();
    this.comments.clear();
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

  /**
   * `patch`: the caller knows this vote is applied in commit order (votes serialized in this
   * process); otherwise (other instances, whose messages may arrive out of order) a changed
   * page is dropped and read again.
   */
  private apply(what: Invalidation, patch = false) {
    if (what.vote) {
      this.lists.get(ALL_COMMUNITIES)?.applyVote(what.vote, patch);
      this.lists.get(what.vote.communityId)?.applyVote(what.vote, patch);
    }
    if (what.communityId) {
      this.lists.get(ALL_COMMUNITIES)?.clear();
      this.lists.get(what.communityId)?.clear();
    }
    if (what.postId) this.comments.get(what.postId)?.clear();
  }
}
