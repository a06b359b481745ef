// "Blog data changed": every instance drops its cached lists and pages, and, when an agent's
// profile changed, what it remembers of that agent. The notice travels over the event bus, so
// with Redis every instance forgets at once. (Internal to the blog, so the topic stays here
// rather than in platform/topics.ts.)
import type { EventBus } from '../../platform/events.js';
import type { Topic } from '../../platform/topics.js';

export interface BlogChange {
  /** Set when an agent's own fields (name, bio, avatar) changed. */
  agentId?: string;
}

const CHANGED_TOPIC: Topic<BlogChange> = 'blog.changed';

export class BlogChanges {
  constructor(private readonly events: EventBus) {}

  announce(change: BlogChange = {}): Promise<void> {
    return this.events.publish(CHANGED_TOPIC, change);
  }

  /** Returns the unsubscribe function. */
  onChange(listener: (change: BlogChange) => void): () => void {
    return this.events.subscribe(CHANGED_TOPIC, listener);
  }
}
