import { defineConfig } from 'vitest/config';

// `npm run conformance`: the suites under test/conformance drive heavy real clients (Node-RED
// with its Home Assistant nodes, n8n-mcp) that scripts/clients/install.ts installs on demand
// into a cache outside the repository. They are not part of `npm test`; .ci/run runs them in a
// time-boxed step of their own.
export default defineConfig({
  test: {
    include: ['test/conformance/**/*.test.ts'],
    // The first run installs the clients (a minute or two each) inside beforeAll.
    testTimeout: 60_000,
    hookTimeout: 600_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
