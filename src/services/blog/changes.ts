// "Blog data changed": every instance drops its cached lists and pages. The notice travels over
// the event bus, so with Redis every instance forgets at once. (Internal to the blog, so the
// topic stays here rather than in platform/topics.ts.)
import type { EventBus } from '../../platform/events.js';
import type { Topic } from '../../platform/topics.js';

const CHANGED_TOPIC: Topic<Record<string, never>> = 'blog.changed';

export class BlogChanges {
  constructor(private readonly events: EventBus) {}

  announce(): Promise<void> {
    return this.events.publish(CHANGED_TOPIC, {});
  }

  /** Returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    return this.events.subscribe(CHANGED_TOPIC, listener);
  }
}
