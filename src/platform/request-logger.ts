// Each request's logger (Fastify's request.log), made only when something logs. Fastify makes
// a pino child per request to carry its request id, and pino's child passes its bindings
// through the logger's redaction every time: about a microsecond of a cached read that costs
// fifteen, for a logger nearly every request never writes to (the line per request is written
// at info, and errors are rare). The stand-in answers what the level is from its parent and
// makes the real child, with the same bindings, at the first line it is asked to write.
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

type Method = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

class RequestLogger {
  private made?: Logger;

  constructor(
    private readonly parent: Logger,
    private readonly bindingsOf: Bindings,
  ) {}

  private get real(): Logger {
    return (this.made ??= this.parent.child(this.bindingsOf));
  }

  get level(): string {
    return this.made ? this.made.level : this.parent.level;
  }
  set level(level: string) {
    this.real.level = level;
  }
  get levels(): Logger['levels'] {
    return this.parent.levels;
  }
  isLevelEnabled(level: string): boolean {
    return this.made ? this.made.isLevelEnabled(level) : this.parent.isLevelEnabled(level);
  }
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}
  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.real.child(bindings, options);
  }
  bindings(): Bindings {
    return this.made ? this.made.bindings() : { ...this.parent.bindings(), ...this.bindingsOf };
  }
  setBindings(bindings: Bindings): void {
    this.real.setBindings(bindings);
  }
  flush(): void {
    this.parent.flush();
  }

  private write(method: Method, args: unknown[]): void {
    // A line below the level costs nothing, as with pino's own no-op methods.
    if (method !== 'silent' && !this.isLevelEnabled(method)) return;
    const real = this.real;
    Reflect.apply(real[method], real, args);
  }
}

/**
 * Fastify's childLoggerFactory: a stand-in that makes the child on first use; a route with its
 * own log level or serialisers gets its child at once.
 */
export function requestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  if (options.level !== undefined || options.serializers !== undefined) return logger.child(bindings, options);
  // Every service's logger is pino's (platform/logger.ts).
  return new RequestLogger(logger as Logger, bindings);
}
