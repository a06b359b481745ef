// A migrated platform database on fresh test storage (SQLite, or PostgreSQL under
// TEST_DATABASE_URL) for the tests of one describe block: opened before them, closed and
// dropped after. For tests of platform parts that take a Db (the trace, its store and reads).
import { afterAll, beforeAll } from 'vitest';
import { migrate, openDb, type Db } from '../../src/platform/db.js';
import { platformMigrations } from '../../src/platform/migrations.js';
import { testStorage } from './hamlet.js';

/** Registers the block's hooks; `opened` receives the database before the block's tests run. */
export function withPlatformDb(opened: (db: Db) => void): void {
  let storage: Awaited<ReturnType<typeof testStorage>> | undefined;
  let db: Db | undefined;
  beforeAll(async () => {
    storage = await testStorage();
    db = openDb(storage);
    await migrate(db, 'platform', platformMigrations);
    opened(db);
  });
  afterAll(async () => {
    await db?.close();
    await storage?.drop();
  });
}
