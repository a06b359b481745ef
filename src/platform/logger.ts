// pino JSON logs, one line per request (see http.ts); `--pretty` for people.
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(opts: { level: string; pretty: boolean }): Logger {
  return pino({
    level: opts.level,
    // API keys and tokens never reach the logs.
    redact: ['req.headers.authorization', 'req.headers["x-workflow-api-key"]', 'req.headers["x-n8n-api-key"]', '*.apiKey', '*.token'],
    ...(opts.pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss' } } } : {}),
  });
}
