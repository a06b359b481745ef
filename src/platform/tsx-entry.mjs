// Source mode only (vitest, tsx, `npm run bench`): a worker cannot load TypeScript by itself and
// Node 20 ignores `--import tsx` in a worker's execArgv, so this plain entry registers tsx's
// loader in the worker, then loads the TypeScript worker named by workerData.sourceEntry
// (platform/workers.ts). The build runs the compiled worker directly and never uses this file.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
for (const early of workerData.sourcePreload ?? []) await import(early);
await import(workerData.sourceEntry);
