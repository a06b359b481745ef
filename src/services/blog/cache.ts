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

  set(key: string, body: string, nowMs: number, opts: { ttlMs?: number; type?: string } = {}): CachedResponse {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const etag = 'W/"' + createHash('sha1').update(body).digest('base64url').slice(0, 22) + '"';
    const entry = { body, etag, type: opts.type ?? 'application/json; charset=utf-8', expiresAt: nowMs + (opts.ttlMs ?? 10 * 60_000) };
    this.entries.set(key, entry);
    return entry;
  }

  clear(): void {
    this.entries = new Map();
  }
}
