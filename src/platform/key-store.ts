// What `hamlet keys` opens: the database, the platform's tables and the keys on them, with the
// stored platform clock (a key's dates follow the world's time) and the event bus (a revoke
// reaches running instances through Redis). No jobs, mailer, trace, rate limits or service is
// built, so the command answers in a fraction of a second.
import { ControllableClock } from './clock.js';
import { storedClock } from './clock-store.js';
import { migrate, openDb } from './db.js';
import { createEventBus } from './events.js';
import { Keys } from './keys.js';
import { platformMigrations } from './migrations.js';

export interface KeyStore {
  keys: Keys;
  close(): Promise<void>;
}

/** Where the keys are: the storage, and the Redis (with the queue prefix) running instances listen on. */
export interface KeyStorage {
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  queue: { prefix: string };
}

export async function openKeyStore(config: KeyStorage): Promise<KeyStore> {
  const db = openDb({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  let clock: ControllableClock;
  try {
    await migrate(db, 'platform', platformMigrations);
    clock = new ControllableClock(await storedClock(db));
  } catch (err) {
    await db.close();
    throw err;
  }
  // The same channel prefix as the running instances' bus (server.ts), so they hear a revoke.
  const events = createEventBus(config.redisUrl, undefined, `${config.queue.prefix}:`);
  return {
    keys: new Keys(db, clock, events),
    async close() {
      await events.close();
      await db.close();
    },
  };
}
