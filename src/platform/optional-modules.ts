// Libraries only some deployments or some inputs need, loaded on first use rather than at
// import: the default start (embedded SQLite, no Redis, JSON logs) and the quick commands never
// pay for them. The one place such a library is required from. Measured on `hamlet start`: highlight.js (every language's grammar) and ioredis were
// together about 14 % of the start's CPU while neither was used.
import { createRequire } from 'node:module';
import type HighlightJs from 'highlight.js';
import type pg from 'pg';
import type { PinoPretty } from 'pino-pretty';

const load = createRequire(import.meta.url);

/** ioredis: queue mode, the shared event bus and shared rate limits (REDIS_URL). */
export function ioredis(): typeof import('ioredis') {
  return load('ioredis') as typeof import('ioredis');
}

let hljs: typeof HighlightJs | undefined;
/** highlight.js: code blocks in Markdown that name their language. */
export function highlighter(): typeof HighlightJs {
  return (hljs ??= load('highlight.js') as typeof HighlightJs);
}

/** pg: PostgreSQL (DATABASE_URL); db.ts sets its type parsers once. */
export function pgDriver(): typeof pg {
  return load('pg') as typeof pg;
}

/** pino-pretty: `--pretty` logs. */
export function pinoPretty(): typeof PinoPretty {
  return (load('pino-pretty') as { PinoPretty: typeof PinoPretty }).PinoPretty;
}
