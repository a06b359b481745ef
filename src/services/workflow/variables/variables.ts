// The instance's variables (n8n's /variables, read in expressions as $vars.NAME). Every
// execution reads them, so they are kept in memory and dropped on any write, here and
// (through the event bus) on every other instance and worker.
import type { EventBus } from '../../../platform/events.js';
import type { Logger } from '../../../platform/logger.js';
import type { ApiStore } from '../store/api-store.js';

const CHANGED_TOPIC = 'workflow.variables.changed';

export class Variables {
  private cached?: Promise<Record<string, string>>;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: ApiStore,
    private readonly events: EventBus,
    private readonly logger: Logger,
  ) {
    this.unsubscribe = events.subscribe(CHANGED_TOPIC, () => (this.cached = undefined));
  }

  /** Key → value of every variable, frozen: what $vars shows a run. */
  snapshot(): Promise<Record<string, string>> {
    this.cached ??= this.store.allVariables().then(
      (rows) => Object.freeze(Object.fromEntries(rows.map((r) => [r.key, r.value]))),
      (err) => {
        this.cached = undefined;
        throw err;
      },
    );
    return this.cached;
  }

  /** Call after any write to a variable. */
  changed(): void {
    this.cached = undefined;
    this.events
      .publish(CHANGED_TOPIC, {})
      .catch((err) =>
        this.logger.warn(
          { err, service: 'workflow', topic: CHANGED_TOPIC },
          'workflow: announcing a variable change failed; other instances may read the old $vars',
        ),
      );
  }

  close(): void {
    this.unsubscribe();
  }
}
