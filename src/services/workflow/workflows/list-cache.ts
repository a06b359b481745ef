// List endpoints answer from memory: the serialized page per query, dropped by any write that
// changes what the list shows, here and (through the event bus) on other instances.
import type { EventBus } from '../../../platform/events.js';

export const LIST_CHANGED_TOPIC = 'workflow.list.changed';
export const EXECUTIONS_CHANGED_TOPIC = 'workflow.executions.changed';

export class ListCache {
  private readonly pages = new Map<string, string>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly events: EventBus,
    private readonly topic = LIST_CHANGED_TOPIC,
  ) {
    this.unsubscribe = events.subscribe(topic, () => this.pages.clear());
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
    void this.events.publish(this.topic, {}).catch(() => {});
  }

  close(): void {
    this.unsubscribe();
  }
}
