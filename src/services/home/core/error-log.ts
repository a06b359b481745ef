// The home's error log (HA's GET /api/error_log serves home-assistant.log): the warnings and
// errors the home logs, kept as HA-formatted lines in a bounded in-memory ring, so an agent
// can read why an automation, a template or an MQTT message failed without access to the
// server's stdout.
import type { Clock } from '../../../platform/clock.js';
import type { Logger } from '../../../platform/logger.js';

const MAX_LINES = 500;

export class ErrorLog {
  private readonly lines: string[] = [];

  /** Lines are stamped with the platform clock, as everything else the house records. */
  constructor(private readonly clock: Clock) {}

  record(level: 'WARNING' | 'ERROR', fields: unknown, message: unknown): void {
    const at = this.clock.now().toISOString().replace('T', ' ').replace('Z', '');
    const detail =
      typeof fields === 'object' && fields !== null
        ? ` ${JSON.stringify(fields, (_k, v) => (v instanceof Error ? v.message : v))}`
        : typeof fields === 'string'
          ? ` ${fields}`
          : '';
    const text = typeof message === 'string' ? message : '';
    this.lines.push(`${at} ${level} (MainThread) [homeassistant.components.hamlet] ${text}${detail}`);
    if (this.lines.length > MAX_LINES) this.lines.splice(0, this.lines.length - MAX_LINES);
  }

  text(): string {
    return this.lines.length ? `${this.lines.join('\n')}\n` : '';
  }

  /** The logger, with its warn and error calls also kept here. */
  recording(logger: Logger): Logger {
    return new Proxy(logger, {
      get: (target, prop, receiver) => {
        if (prop === 'warn' || prop === 'error') {
          return (fields: unknown, message?: unknown, ...rest: unknown[]) => {
            this.record(
              prop === 'warn' ? 'WARNING' : 'ERROR',
              message === undefined && typeof fields === 'string' ? undefined : fields,
              message ?? fields,
            );
            return Reflect.apply(target[prop], target, [fields, message, ...rest]) as unknown;
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    });
  }
}
