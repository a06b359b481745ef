import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/browser/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: more workers only add contention.
    maxWorkers: 2,
    // On PostgreSQL, a restart of a child process on a test schema has now and then failed
    // with 'schema "t_…" does not exist' (seen in 2 of about 10 full runs, in different
    // suites; the cause is not found yet, see the session notes). One retry there keeps CI
    // meaningful; a real failure still fails twice. SQLite runs get no retry.
    retry: process.env.TEST_DATABASE_URL ? 1 : 0,
  },
});
