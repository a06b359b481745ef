// A command's failure as the operator reads it: a configuration problem as its message, any
// other error described against the settings behind it (a port in use, a database refused…),
// with the stack only at debug or trace log level.
import { ConfigError } from '../platform/settings.js';
import { describeStartupError } from '../platform/startup-errors.js';
import { parseArgs } from './args.js';
import { loaded } from './setup.js';

export function describeFailure(err: unknown): string {
  if (err instanceof ConfigError) return err.message;
  const level = parseArgs(process.argv.slice(2)).flags['log-level'] ?? process.env.HAMLET_LOG_LEVEL;
  const line = describeStartupError(err, loaded?.config, loaded?.ports);
  return (level === 'debug' || level === 'trace') && err instanceof Error ? `${line}\n${err.stack}` : line;
}
