// What the PostgreSQL pass (`npm run test:pg`, vitest.pg.config.ts) leaves out: test files whose
// subject runs the same whatever the database is (the sandbox, templates, protocols, pages,
// clients' wire formats, the platform's edge). Everything else runs on both: stores and
// migrations, worlds, the cluster, crash and restart tests, the services' APIs over their stores.
//
// A new test file runs on PostgreSQL unless it is listed here, so forgetting costs time, never
// coverage. test/architecture/postgres-selection.test.ts fails if a file listed here reaches the
// storage layer itself (TOUCHES_STORAGE). Entries are files, or folders ending in '/'.
export const SAME_ON_POSTGRES = [
  // Static checks and helpers.
  'test/architecture/',
  'test/helpers/',
  'test/dist-current.test.ts',
  // README and docs shell blocks, as a newcomer runs them (on SQLite, as a newcomer does).
  'test/docs/',
  // The expression and Code sandbox, the engine's node semantics, the n8n corpus and oracle.
  'test/workflow/expressions/',
  'test/workflow/hostile-engine.test.ts',
  'test/workflow/hostile-sandbox.test.ts',
  'test/workflow/hostile-sandbox-limits.test.ts',
  'test/workflow/sandbox-abandon.test.ts',
  'test/workflow/sandbox-isolation.test.ts',
  'test/workflow/corpus.test.ts',
  'test/workflow/corpus-compare.test.ts',
  'test/workflow/oracle.test.ts',
  'test/workflow/oracle-coverage.test.ts',
  'test/workflow/nodes.test.ts',
  'test/workflow/limits.test.ts',
  'test/workflow/ssrf.test.ts',
  // Home: the template language, the conversation agent, MQTT, WebSocket command shapes.
  'test/home/templates.test.ts',
  'test/home/conversation.test.ts',
  'test/home/units.test.ts',
  'test/home/mqtt.test.ts',
  'test/home/node-red-commands.test.ts',
  'test/home/openapi.test.ts',
  // Mail: SMTP sessions and DNS, the SDKs' request tables.
  'test/mail/dkim.test.ts',
  'test/mail/smtp-limits.test.ts',
  'test/mail/self-signed.test.ts',
  'test/mail/python-sdk.test.ts',
  'test/mail/sdk-methods.test.ts',
  'test/mail/openapi.test.ts',
  'test/mail/ws-limits.test.ts',
  // Blog and community: URLs, documents and the clients' wire formats.
  'test/blog/urls.test.ts',
  'test/blog/openapi.test.ts',
  'test/community/moltbook-wire.test.ts',
  'test/community/mcp-conformance.test.ts',
  // The platform's edge: clocks, HTTP limits, outbound guard, schemas, budgets, files.
  'test/platform/clock.test.ts',
  'test/platform/clock-sync.test.ts',
  'test/platform/edge.test.ts',
  'test/platform/files.test.ts',
  'test/platform/outbound.test.ts',
  'test/platform/schemas-compile.test.ts',
  'test/platform/service-index.test.ts',
  'test/platform/validation-messages.test.ts',
  'test/platform/ws-budget.test.ts',
  'test/platform/directory.test.ts',
  'test/platform/openapi.test.ts',
  'test/security/mcp-origin.test.ts',
  'test/security/streams-budget.test.ts',
  'test/security/streams-idle.test.ts',
  'test/console/auth.test.ts',
  // Processes that never open PostgreSQL whatever the pass: start-up errors name their own
  // DATABASE_URL; the evaluation pool strips DATABASE_URL from every episode (src/eval/pool.ts);
  // the world commands from the command line run on their own data folders. On the PostgreSQL
  // pass they ran again, unchanged: about 430 s of the pass's file time.
  'test/platform/startup.test.ts',
  'test/platform/start-modules.test.ts',
  'test/eval/starter.test.ts',
  'test/console/world-frictions-cli.test.ts',
  'test/console/world-scenarios-cli.test.ts',
];

/**
 * What shows that a test file reaches the storage layer itself: it names the PostgreSQL test
 * database, makes its own storage, opens a Db, imports a store, the Db layer or migrations, or
 * queries through the Kysely handle. Such a file must run on PostgreSQL too.
 */
export const TOUCHES_STORAGE: RegExp[] = [
  /TEST_DATABASE_URL/,
  /\btestStorage\(/,
  /\bopenDb\(/,
  /from '[^']*\/src\/(?:[^']*\/)?(?:store\/[^']*|migrations)\.js'/,
  /from '[^']*\/src\/platform\/db[^']*\.js'/,
  /\.kysely\b/,
  /\bplatform\.db\b/,
];
