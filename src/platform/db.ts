// Storage: Kysely over better-sqlite3 (the embedded default) or PostgreSQL (DATABASE_URL).
//
// Portability rules every service follows so one set of SQL runs on both:
// - timestamps are ISO 8601 UTC strings in text columns (they sort correctly as text);
// - booleans are integers 0/1; JSON is text the service parses;
// - counters are `integer` (pg returns int4 as a number; bigint counts are parsed below).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type pg from 'pg';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type Migration,
  type MigrationProvider,
} from 'kysely';
import { pgDriver } from './optional-modules.js';
import { gatedSqlite, type SqliteAccess } from './sqlite.js';
import { TransactionWatch, watchedDriver } from './transactions.js';

let pgModule: typeof pg | undefined;

/**
 * pg, loaded the first time PostgreSQL is opened: embedded mode, and quick commands such as
 * `hamlet keys create`, never pay for loading it.
 */
export function loadPg(): typeof pg {
  if (!pgModule) {
    pgModule = pgDriver();
    // count(*) and bigserial come back from pg as strings; numbers are what the code expects.
    pgModule.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
    pgModule.types.setTypeParser(1700, (v) => Number.parseFloat(v));
  }
  return pgModule;
}

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  // Each service narrows this to its own table types (see a service's store.ts).
  kysely: Kysely<any>;
  dialect: Dialect;
  /**
   * Embedded mode: synchronous work on the raw better-sqlite3 handle, for the few hot paths
   * that want prepared statements. It takes its turn with Kysely's queries and transactions
   * (see sqlite.ts), so it can never run inside another's open transaction.
   */
  sqlite?: SqliteAccess;
  /** Revokes transactions that wait on anything but their statements (see transactions.ts). */
  watch: TransactionWatch;
  /** The PostgreSQL schema selected by the URL's `schema` parameter, if any. */
  schema?: string;
  /** PostgreSQL: the URL it was opened with, for a worker that opens a connection of its own (the world worker). */
  url?: string;
  /** SQLite: the database file, for a worker that opens a connection of its own (the trace's writer). */
  file?: string;
  close(): Promise<void>;
}

export interface OpenDbOptions {
  dataDir: string;
  databaseUrl?: string;
  /** SQLite file name inside dataDir; tests use their own. */
  fileName?: string;
}

export function openDb(opts: OpenDbOptions): Db {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  mkdirSync(opts.dataDir, { recursive: true });
  const file = path.join(opts.dataDir, opts.fileName ?? 'hamlet.sqlite');
  const sqlite = new Database(file);
  // WAL lets readers run beside the writer and makes commits cheap. synchronous=NORMAL in WAL
  // mode keeps every committed transaction across a process crash (kill -9); only a power loss
  // can lose the last commits, which is the trade SQLite itself recommends for WAL.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // A CLI process (e.g. `hamlet keys create`) may write while the server runs.
  sqlite.pragma('busy_timeout = 5000');
  const gated = gatedSqlite(sqlite);
  const kysely = new Kysely({ dialect: gated.dialect });
  return {
    kysely,
    dialect: 'sqlite',
    file,
    sqlite: gated.access,
    watch: gated.watch,
    close: async () => {
      await kysely.destroy();
    },
  };
}

/**
 * Kysely's PostgreSQL introspection (which its Migrator uses to see whether its own tables
 * exist) scans every schema and calls has_schema_privilege() on each: a schema dropped by
 * another process during that scan makes the query fail with 'schema "…" does not exist'.
 * Several schemas coming and going on one server is exactly what the test suites do, so with
 * a schema selected, introspection looks at that schema only, straight from the catalog.
 */
class SchemaScopedPostgresDialect extends PostgresDialect {
  constructor(
    config: ConstructorParameters<typeof PostgresDialect>[0],
    private readonly schema: string,
  ) {
    super(config);
  }

  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    const schema = this.schema;
    return {
      async getSchemas() {
        const r = await sql<{
          name: string;
        }>`select nspname as name from pg_catalog.pg_namespace where nspname = ${schema}`.execute(db);
        return r.rows;
      },
      async getTables() {
        const r = await sql<{ name: string; kind: string }>`
          select c.relname as name, c.relkind as kind
          from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
          where n.nspname = ${schema} and c.relkind in ('r', 'p', 'v')`.execute(db);
        return r.rows.map((t) => ({ name: t.name, schema, isView: t.kind === 'v', columns: [] }));
      },
      async getMetadata() {
        return { tables: await this.getTables() };
      },
    };
  }
}

/**
 * How to connect to DATABASE_URL: a `schema` query parameter selects a schema (tests give each
 * suite its own). For a connection of one's own beside the pool (a reader on a worker thread).
 */
export function postgresConnection(databaseUrl: string): {
  connectionString: string;
  options?: string;
  schema?: string;
} {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  return { connectionString: url.toString(), ...(schema ? { options: `-c search_path=${schema}`, schema } : {}) };
}

function openPostgres(databaseUrl: string): Db {
  const { connectionString, options, schema } = postgresConnection(databaseUrl);
  const pool = new (loadPg().Pool)({
    connectionString,
    max: Number(process.env.HAMLET_PG_POOL ?? 10),
    ...(options ? { options } : {}),
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  // PostgreSQL keeps its pool; each transaction is watched all the same (transactions.ts).
  const watch = new TransactionWatch();
  const dialect = schema ? new SchemaScopedPostgresDialect({ pool }, schema) : new PostgresDialect({ pool });
  const createDriver = dialect.createDriver.bind(dialect);
  dialect.createDriver = () => watchedDriver(createDriver(), watch);
  const kysely = new Kysely({ dialect });
  return {
    kysely,
    dialect: 'postgres',
    url: databaseUrl,
    watch,
    ...(schema ? { schema } : {}),
    close: async () => {
      await kysely.destroy();
    },
  };
}

export type Migrations = Record<string, Migration>;

/**
 * Runs one owner's migrations (the platform's or a service's), recorded in its own table
 * so services migrate independently and a subset of services can run on one database.
 */
export async function migrate(db: Db, owner: string, migrations: Migrations): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const migrator = new Migrator({
    db: db.kysely,
    provider,
    migrationTableName: `${owner}_migrations`,
    migrationLockTableName: `${owner}_migrations_lock`,
    // Kysely looks for its tables across all schemas unless told which: without this, a
    // second schema on the same server (parallel test suites) finds the first one's tables.
    ...(db.schema ? { migrationTableSchema: db.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${owner}/${failed?.migrationName ?? '?'} failed: ${(error as Error).message ?? error}`, {
      cause: error,
    });
  }
}

/** True when an error is a unique-constraint violation, on either database. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export { sql };
