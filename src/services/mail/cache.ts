// Serialized list responses per inbox (as bytes, ready to write), kept in memory and dropped when the inbox changes.
// Changes arrive over the event bus (after the write commits), so with several instances
// each drops its own copy. Inboxes are cached too: every /v0/inboxes/{id}/… request reads one.
import type { EventBus } from '../../platform/events.js';
import type { InboxRow } from './store/index.js';

const INBOX_CHANGED_TOPIC = 'mail.inbox.changed';
const MAX_ENTRIES = 5000;
const DROP_BUCKETS = 1024;

/** FNV-1a over the id's UTF-16 units, folded into a bucket. */
function bucketOf(inboxId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < inboxId.length; i++) h = Math.imul(h ^ inboxId.charCodeAt(i), 0x01000193);
  return (h >>> 0) % DROP_BUCKETS;
}

export class MailCache {
  private readonly lists = new Map<string, Map<string, Buffer>>();
  private readonly inboxes = new Map<string, InboxRow>();
  private entries = 0;
  /**
   * Drops counted per inbox (in buckets, so the count stays small). What was read from the
   * database before a drop (another instance's write, heard while the read ran) may be
   * stale: the setters keep it only if the inbox's count did not move since.
   */
  private readonly drops = new Uint32Array(DROP_BUCKETS);
  /** Stops listening to the bus (service stop). */
  readonly close: () => void;

  constructor(private readonly bus: EventBus) {
    this.close = bus.subscribe<{ inboxes: string[] }>(INBOX_CHANGED_TOPIC, (msg) => {
      for (const id of msg.inboxes) this.drop(id);
    });
  }

  /** Tells every instance (this one at once) that these inboxes changed. */
  async changed(inboxIds: string[]): Promise<void> {
    if (!inboxIds.length) return;
    for (const id of inboxIds) this.drop(id);
    await this.bus.publish(INBOX_CHANGED_TOPIC, { inboxes: inboxIds });
  }

  list(inboxId: string, key: string): Buffer | undefined {
    return this.lists.get(inboxId)?.get(key);
  }

  /** Take before reading what will be cached of an inbox; hand to the setter. */
  generation(inboxId: string): number {
    return this.drops[bucketOf(inboxId)];
  }

  setList(inboxId: string, key: string, body: Buffer, generation: number): void {
    if (generation !== this.generation(inboxId)) return;
    if (this.entries >= MAX_ENTRIES) this.clear();
    let m = this.lists.get(inboxId);
    if (!m) this.lists.set(inboxId, (m = new Map()));
    if (!m.has(key)) this.entries++;
    m.set(key, body);
  }

  inbox(inboxId: string): InboxRow | undefined {
    return this.inboxes.get(inboxId);
  }

  setInbox(row: InboxRow, generation: number): void {
    if (generation !== this.generation(row.inbox_id)) return;
    if (this.inboxes.size >= MAX_ENTRIES) this.inboxes.clear();
    this.inboxes.set(row.inbox_id, row);
  }

  private drop(inboxId: string): void {
    this.drops[bucketOf(inboxId)]++;
    const m = this.lists.get(inboxId);
    if (m) {
      this.entries -= m.size;
      this.lists.delete(inboxId);
    }
    this.inboxes.delete(inboxId);
  }

  private clear(): void {
    this.lists.clear();
    this.entries = 0;
  }

  /** After a world restore: no cached inbox or list holds. */
  forgetAll(): void {
    this.clear();
    this.inboxes.clear();
  }
}
