// "Blog data changed": every instance drops its cached lists and pages, and, when an agent's
// profile changed, what it remembers of that agent. The notice travels over the event bus, so
// with Redis every instance forgets at once. (Internal to the blog, so the topic stays here
// rather than in platform/topics.ts.)
//
// The writing instance forgets before the write is answered, without waiting for its own
// notice to come back from Redis: its client's next read sees the write.
import { randomUUID } from 'node:crypto';
import type { EventBus } from '../../platform/events.js';
import type { Topic } from '../../platform/topics.js';

export interface BlogChange {
  /** Set when an agent's own fields (name, bio, avatar) changed. */
  agentId?: string;
}

const CHANGED_TOPIC: Topic<BlogChange & { origin: string }> = 'blog.changed';

export class BlogChanges {
  private readonly origin = randomUUID();
  private readonly listeners = new Set<(change: BlogChange) => void>();

  constructor(private readonly events: EventBus) {}

  async announce(change: BlogChange = {}): Promise<void> {
    this.tell(change);
    await this.events.publish(CHANGED_TOPIC, { ...change, origin: this.origin });
  }

  /** Returns the unsubscribe function. */
  onChange(listener: (change: BlogChange) => void): () => void {
    this.listeners.add(listener);
    const unsubscribe = this.events.subscribe(CHANGED_TOPIC, ({ origin, ...change }) => {
      if (origin !== this.origin) listener(change);
    });
    return () => {
      this.listeners.delete(listener);
      unsubscribe();
    };
  }

  private tell(change: BlogChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
