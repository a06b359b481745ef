// Source mode only (vitest, tsx, `npm run bench`): a worker cannot load TypeScript by itself,
// and Node 20 ignores `--import tsx` in a worker's execArgv. This plain-JavaScript entry
// registers tsx's loader in the worker, then loads the TypeScript worker. The build runs
// dist/…/sandbox-worker.js directly and never uses this file.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
// The lower priority first, so that compiling the worker's TypeScript already runs under it.
await import(new URL('./priority.ts', import.meta.url).href);
await import(workerData.sourceEntry);
