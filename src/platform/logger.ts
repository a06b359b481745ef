// pino JSON logs, one line per request (see http.ts); `--pretty` for people.
import { pino, type DestinationStream, type Logger } from 'pino';
import { redactUrl } from './redact.js';

export type { Logger };

export function createLogger(opts: { level: string; pretty: boolean; destination?: DestinationStream }): Logger {
  const options: pino.LoggerOptions = {
    level: opts.level,
    // Credentials never reach the logs: auth headers wherever a request or response is logged,
    // key-like fields of logged objects, and secret query values of any `url` (redact.ts).
    redact: {
      paths: [
        '*.headers.authorization',
        '*.headers.cookie',
        '*.headers["set-cookie"]',
        '*.headers["x-api-key"]',
        '*.headers["x-workflow-api-key"]',
        '*.headers["x-n8n-api-key"]',
        'apiKey',
        'api_key',
        'token',
        'access_token',
        'password',
        '*.apiKey',
        '*.api_key',
        '*.token',
        '*.access_token',
        '*.password',
        '*.secret',
      ],
      censor: '[redacted]',
    },
    serializers: {
      url: (url: unknown) => (typeof url === 'string' ? redactUrl(url) : url),
    },
  };
  if (opts.pretty) return pino({ ...options, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss' } } });
  return opts.destination ? pino(options, opts.destination) : pino(options);
}
