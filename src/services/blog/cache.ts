// Lists and pages that many read and few write are served from memory: serialized once,
// dropped whenever blog data changes. The drop travels over the event bus, so with Redis
// every instance forgets at once. Entries may also carry a time limit (featured posts age).
import { createHash } from 'node:crypto';

export interface CachedResponse {
  body: string;
  etag: string;
  type: string;
  expiresAt: number;
}

export class ResponseCache {
  private entries = new Map<string, CachedResponse>();
  /**
   * Moves on every clear. A response built from reads made before a clear (another
   * instance's write, heard while it was built) may be stale: `set` keeps it only if nothing moved since.
   */
  private cleared = 0;

  constructor(private readonly maxEntries = 10_000) {}

  get(key: string, nowMs: number): CachedResponse | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= nowMs) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  /** Take before building a response; hand to `set`. */
  get generation(): number {
    return this.cleared;
  }

  /** The entry for a response built since `generation`; kept only while no clear came in between. */
  set(
    key: string,
    body: string,
    nowMs: number,
    generation: number,
    opts: { ttlMs?: number; type?: string } = {},
  ): CachedResponse {
    const etag = 'W/"' + createHash('sha1').update(body).digest('base64url').slice(0, 22) + '"';
    const entry = {
      body,
      etag,
      type: opts.type ?? 'application/json; charset=utf-8',
      expiresAt: nowMs + (opts.ttlMs ?? 10 * 60_000),
    };
    if (generation !== this.cleared) return entry;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, entry);
    return entry;
  }

  clear(): void {
    this.cleared++;
    this.entries = new Map();
  }
}
