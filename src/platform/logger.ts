// pino JSON logs, one line per request (see http.ts); `--pretty` for people.
import { pino, type DestinationStream, type Logger } from 'pino';
import { pinoPretty } from './optional-modules.js';
import { redactUrl } from './redact.js';

export type { Logger };

/** Fields of logged objects that hold credentials. */
const SECRET_FIELDS = ['apiKey', 'api_key', 'token', 'access_token', 'password', 'secret'];

/** A header or field name that carries a credential. */
function isSecretName(name: string): boolean {
  return /^(authorization|proxy-authorization|cookie|set-cookie)$|api[-_]?key|token|secret|password/i.test(name);
}

export function createLogger(opts: { level: string; pretty: boolean; destination?: DestinationStream }): Logger {
  const options: pino.LoggerOptions = {
    level: opts.level,
    // Credentials never reach the logs: auth headers wherever a request or response is logged,
    // key-like fields of logged objects, and secret query values of any `url` (redact.ts).
    redact: {
      // Header names are not listed per service: any header that looks like a credential is
      // censored, whichever service invented it (`x-api-key`, `x-n8n-api-key`, `x-auth-token`…).
      paths: ['headers.*', '*.headers.*', ...SECRET_FIELDS, ...SECRET_FIELDS.map((f) => `*.${f}`)],
      censor: (value, path) => (isSecretName(path[path.length - 1] ?? '') ? '[redacted]' : value),
    },
    serializers: {
      url: (url: unknown) => (typeof url === 'string' ? redactUrl(url) : url),
    },
  };
  if (opts.pretty) return pino(options, prettyStream(opts.destination));
  return opts.destination ? pino(options, opts.destination) : pino(options);
}

/**
 * `--pretty`: one line per entry ("10:15:02 INFO (blog): request {method, url, status, ms}"),
 * written synchronously in this thread, so start-up lines come before the URL table the CLI
 * prints after them instead of racing it from a transport's worker thread.
 */
function prettyStream(destination?: DestinationStream): DestinationStream {
  // Loaded only for `--pretty`: JSON logs, and commands that log nothing, never pay for it.
  const pretty = pinoPretty();
  return pretty({
    translateTime: 'SYS:HH:MM:ss',
    singleLine: true,
    ignore: 'pid,hostname,reqId',
    sync: true,
    ...(destination ? { destination } : {}),
  });
}
