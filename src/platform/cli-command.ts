// What a service declares for the command line: `hamlet <service> <command>` (e.g. `hamlet
// mail outbox`). The CLI lists the services' declarations in its help and runs them with a
// context it builds; it names no service. A command's work is loaded only when it runs.
import type { Platform } from './service.js';

export interface CliContext {
  /** Opens the configured storage with the service's tables migrated, runs `work`, closes it. */
  withPlatform<T>(work: (platform: Platform) => Promise<T>): Promise<T>;
  /** A line of the command's result (stdout). */
  out(line: string): void;
  /** A line for the person at the terminal (stderr). */
  say(line: string): void;
}

export interface ServiceCommand {
  /** The word after the service's name. */
  name: string;
  /** One line for `hamlet help`. */
  summary: string;
  /** Its flags, one per line (`--x N   what it does`); empty when it takes none. */
  flags?: string[];
  /** One example line, e.g. `hamlet mail outbox`. */
  example: string;
  run(ctx: CliContext, args: string[], flags: Record<string, string>): Promise<number>;
}
