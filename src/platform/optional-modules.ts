// Libraries only some deployments or some inputs need, loaded on first use rather than at
// import: the default start (embedded SQLite, no Redis) and the quick commands never pay for
// them. Measured on `hamlet start`: highlight.js (every language's grammar) and ioredis were
// together about 14 % of the start's CPU while neither was used.
import { createRequire } from 'node:module';
import type HighlightJs from 'highlight.js';

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
