import { defineConfig } from 'vitest/config';

// Suites whose assertions are about latency under attack ("/healthz p99 < 100 ms while hostile
// workflows run"). Beside other test files on two cores they would measure the neighbours, not
// the server, so they run after everything else, one file at a time.
const ALONE = [
  'test/workflow/hostile-*.test.ts',
  'test/security/streams-idle.test.ts',
  'test/security/world-load.test.ts',
];

/**
 * The suite's configuration; `leaveOut` names test files or folders (ending in '/') this run
 * skips (vitest.pg.config.ts: what runs the same on PostgreSQL).
 */
export function suiteConfig(leaveOut: string[] = []) {
  const left = leaveOut.map((entry) => (entry.endsWith('/') ? `${entry}**` : entry));
  return defineConfig({
    test: {
      testTimeout: 30_000,
      hookTimeout: 60_000,
      pool: 'forks',
      // Four workers on two cores: most files wait more than they compute (children starting,
      // crash restarts, shell scripts, retries on real time), so two workers left the cores ~60 %
      // idle (2026-12-07: ~410 s of CPU in a 532 s run). Four filled them: 868 s → 686 s on the
      // same loaded machine. Files that assert latency run alone afterwards (ALONE below).
      maxWorkers: 4,
      // Files in one worker share their modules: the server's ~600 modules are imported once per
      // worker instead of once per file (the import was 40% of the suite's time, and the blog
      // folder took 35% less CPU). Files leave nothing global behind: a fixture service
      // unregisters itself, fake timers are put back, every server is stopped in afterAll.
      isolate: false,
      // On PostgreSQL, suites failed now and then with 'schema "t_…" does not exist': Kysely's
      // introspection scanned every schema while another suite dropped its own (fixed in
      // platform/db.ts by introspecting the selected schema only). One retry on PostgreSQL runs
      // stays as a guard until more runs confirm it; a real failure still fails twice.
      retry: process.env.TEST_DATABASE_URL ? 1 : 0,
      projects: [
        {
          extends: true,
          test: {
            name: 'services',
            include: ['test/**/*.test.ts'],
            // test/conformance drives heavy clients installed on demand: `npm run conformance`.
            exclude: ['test/browser/**', 'test/conformance/**', 'node_modules/**', ...ALONE, ...left],
            sequence: { groupOrder: 0 },
          },
        },
        {
          extends: true,
          test: { name: 'alone', include: ALONE, exclude: left, fileParallelism: false, sequence: { groupOrder: 1 } },
        },
      ],
    },
  });
}

export default suiteConfig();
