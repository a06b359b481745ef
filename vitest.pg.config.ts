// The PostgreSQL pass (`npm run test:pg`, .ci/run): the suite of vitest.config.ts without the
// files whose subject runs the same on any database (test/postgres-selection.ts says which, and
// test/architecture/postgres-selection.test.ts keeps files that reach the storage layer in).
import { suiteConfig } from './vitest.config.js';
import { SAME_ON_POSTGRES } from './test/postgres-selection.js';

export default suiteConfig(SAME_ON_POSTGRES);
