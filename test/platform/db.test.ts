// The transaction rule of platform/db.ts (issue 10): on SQLite one writer, and nothing runs
// inside another's open transaction; on both databases a transaction that waits on anything
// but its own statements is rolled back instead of holding the connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDb, type Db } from '../../src/platform/db.js';
import { TransactionHeldOpenError } from '../../src/platform/transactions.js';
import { testStorage } from '../helpers/hamlet.js';
import { waitFor } from '../helpers/wait.js';

let db: Db;
let drop: () => Promise<void>;
beforeAll(async () => {
  const storage = await testStorage();
  drop = storage.drop;
  db = openDb({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl });
  await sql`create table t (id text primary key, v integer)`.execute(db.kysely);
});
afterAll(async () => {
  await db?.close();
  await drop?.();
});

const ids = async () =>
  (await db.kysely.selectFrom('t').select('id').orderBy('id').execute()).map((r) => r.id as string);
const insert = (k: typeof db.kysely, id: string) => k.insertInto('t').values({ id, v: 1 }).execute();
/** The subject, not a wait: a timer inside a transaction is an await that is not a statement. */
const nonDatabaseAwait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('transactions that cannot interleave', () => {
  it('keeps a transaction that awaits only its statements (many, concurrently) and commits all of them', async () => {
    const before = db.watch.revocations;
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        db.kysely.transaction().execute(async (trx) => {
          for (let j = 0; j < 20; j++) {
            await insert(trx, `keep-${i}-${String(j).padStart(2, '0')}`);
            await Promise.resolve(); // awaiting plain values is fine: no turn of the event loop
            await trx.selectFrom('t').select('id').where('id', '=', `keep-${i}-00`).execute();
          }
        }),
      ),
    );
    expect((await ids()).filter((id) => id.startsWith('keep-')).length).toBe(160);
    expect(db.watch.revocations).toBe(before);
  });

  it('rolls back a transaction held open across a non-database await, and its commit fails', async () => {
    const run = db.kysely.transaction().execute(async (trx) => {
      await insert(trx, 'held-1');
      await nonDatabaseAwait(30); // e.g. building a MIME message or calling out: not allowed inside
      await insert(trx, 'held-2');
    });
    await expect(run).rejects.toBeInstanceOf(TransactionHeldOpenError);
    expect((await ids()).filter((id) => id.startsWith('held-'))).toEqual([]);
  });

  it('does not make others wait for a transaction that waits on something else (the connection, and row locks, are let go)', async () => {
    await insert(db.kysely, 'shared');
    const revoked = db.watch.revocations;
    let done = false;
    const slow = db.kysely
      .transaction()
      .execute(async (trx) => {
        await insert(trx, 'slow-1');
        await trx.updateTable('t').set({ v: 2 }).where('id', '=', 'shared').execute(); // locks the row on PostgreSQL
        await nonDatabaseAwait(1000);
        done = true;
      })
      .catch((e: unknown) => e);
    // The slow one has written, locked the row and let its connection go.
    await waitFor(() => db.watch.revocations > revoked, { message: 'the slow transaction to be revoked' });
    await insert(db.kysely, 'other-1');
    await db.kysely
      .transaction()
      .execute((trx) => trx.updateTable('t').set({ v: 3 }).where('id', '=', 'shared').execute());
    expect(done).toBe(false); // the others did not wait for the slow one
    expect(await slow).toBeInstanceOf(TransactionHeldOpenError);
    const all = await ids();
    expect(all).toContain('other-1');
    expect(all).not.toContain('slow-1');
    expect((await db.kysely.selectFrom('t').select('v').where('id', '=', 'shared').executeTakeFirst())?.v).toBe(3);
  });

  it.runIf(!process.env.TEST_DATABASE_URL)(
    'runs raw SQLite work after an open transaction, never inside it (it survives that rollback)',
    async () => {
      const raw = db.sqlite!;
      let rawDone: Promise<unknown> | undefined;
      const failing = db.kysely.transaction().execute(async (trx) => {
        await insert(trx, 'tx-1');
        // Another service's write arrives while the transaction is open (as a home state write
        // arrived during a mail send): it must wait, not join the transaction.
        rawDone = raw.run((s) => s.prepare("insert into t (id, v) values ('raw-1', 1)").run());
        await insert(trx, 'tx-2');
        throw new Error('the transaction fails');
      });
      await expect(failing).rejects.toThrow('the transaction fails');
      await rawDone;
      const all = await ids();
      expect(all).toContain('raw-1');
      expect(all).not.toContain('tx-1');
    },
  );

  it.runIf(!process.env.TEST_DATABASE_URL)(
    'runs raw SQLite work at once when the connection is free (the fast path stays synchronous)',
    async () => {
      let ran = false;
      const p = db.sqlite!.run(() => {
        ran = true;
        return 42;
      });
      expect(ran).toBe(true);
      expect(await p).toBe(42);
    },
  );

  it.runIf(!process.env.TEST_DATABASE_URL)(
    'fails, instead of hanging, a transaction that waits on a query it queued behind itself',
    async () => {
      const run = db.kysely.transaction().execute(async (trx) => {
        await insert(trx, 'self-1');
        await insert(db.kysely, 'self-2'); // not through trx: it waits for the connection this transaction holds
        await insert(trx, 'self-3');
      });
      await expect(run).rejects.toBeInstanceOf(TransactionHeldOpenError);
      const all = await ids();
      expect(all).not.toContain('self-1');
      expect(all).not.toContain('self-3');
    },
  );
});
