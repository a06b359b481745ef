// GET /workflows answers from memory: the serialized page per query, dropped by any write to
// workflows or tags here, and on other instances through the event bus.
import type { EventBus } from '../../../platform/events.js';

export const LIST_CHANGED_TOPIC = 'workflow.list.changed';
const TOPIC = LIST_CHANGED_TOPIC;

export class ListCache {
  private readonly pages = new Map<string, string>();
  private readonly unsubscribe: () => void;

  constructor(private readonly events: EventBus) {
    this.unsubscribe = events.subscribe(TOPIC, () => this.pages.clear());
  }

  get(key: string): string | undefined {
    return this.pages.get(key);
  }

  set(key: string, page: string): void {
    if (this.pages.size > 500) this.pages.clear();
    this.pages.set(key, page);
  }

  /** Call after any write that changes what a list shows. */
  invalidate(): void {
    this.pages.clear();
    void this.events.publish(TOPIC, {}).catch(() => {});
  }

  close(): void {
    this.unsubscribe();
  }
}
