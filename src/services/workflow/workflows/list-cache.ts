// List endpoints answer from memory: the serialized page per query, dropped by any write that
// changes what the list shows, here and (through the event bus) on other instances.
import type { EventBus } from '../../../platform/events.js';
import type { Logger } from '../../../platform/logger.js';

const WORKFLOWS_CHANGED_TOPIC = 'workflow.list.changed';
const EXECUTIONS_CHANGED_TOPIC = 'workflow.executions.changed';

export class ListCache {
  private readonly pages = new Map<string, string>();
  private readonly unsubscribe: () => void;
  /**
   * Moves on every drop. A page read from the database before a drop (another instance's
   * write, heard while the read ran) may be stale: `set` keeps it only if nothing moved since.
   */
  private dropped = 0;

  constructor(
    private readonly events: EventBus,
    private readonly logger: Logger,
    private readonly topic: string,
  ) {
    this.unsubscribe = events.subscribe(topic, () => this.drop());
  }

  get(key: string): string | undefined {
    return this.pages.get(key);
  }

  /** Take before reading what a page shows; hand to `set`. */
  get generation(): number {
    return this.dropped;
  }

  set(key: string, page: string, generation: number): void {
    if (generation !== this.dropped) return;
    if (this.pages.size > 500) this.pages.clear();
    this.pages.set(key, page);
  }

  private drop(): void {
    this.dropped++;
    this.pages.clear();
  }

  /** Call after any write that changes what a list shows. */
  invalidate(): void {
    this.drop();
    // This instance's pages are gone already; other instances keep theirs until the next write.
    this.events
      .publish(this.topic, {})
      .catch((err) =>
        this.logger.warn(
          { err, service: 'workflow', topic: this.topic },
          'workflow: announcing a list change failed; other instances may serve stale list pages',
        ),
      );
  }

  close(): void {
    this.unsubscribe();
  }
}

/** The cached pages of the workflow (and tag) lists and of the execution lists. */
export interface ListCaches {
  workflows: ListCache;
  executions: ListCache;
  close(): void;
}

export function createListCaches(events: EventBus, logger: Logger): ListCaches {
  const workflows = new ListCache(events, logger, WORKFLOWS_CHANGED_TOPIC);
  const executions = new ListCache(events, logger, EXECUTIONS_CHANGED_TOPIC);
  return {
    workflows,
    executions,
    close() {
      workflows.close();
      executions.close();
    },
  };
}
