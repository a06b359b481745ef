// The platform clock outlives the process: what the operator set (frozen at an instant, or
// running at an offset from system time) is kept in `platform_clock` and taken up at the next
// start. Without it, `hamlet world seed --demo` (whose week ends in January 2026) followed by
// `npm start` ran on today's date: the demo clock was lost, and the house's recorder purged
// the demo week's history as older than its retention.
//
// A running clock is kept as its offset from system time, so it has run on while Hamlet was
// stopped, as system time did; a frozen one stands where it stood. A clock never moved keeps
// no row (offset 0: system time). Writes follow every change (an advance's steps coalesce into
// the latest state), one at a time, and closing waits for the last.
import type { Db } from './db.js';
import { ControllableClock, parseIsoTime } from './clock.js';
import type { Logger } from './logger.js';

type Stored = { frozen: true; now: string } | { frozen: false; offsetMs: number };

/** What was stored, as the options of a new clock; undefined when nothing (or nothing usable) is. */
export async function storedClock(db: Db): Promise<{ frozen: boolean; now: number } | undefined> {
  const row = await db.kysely.selectFrom('platform_clock').select(['state']).where('id', '=', 1).executeTakeFirst();
  if (!row) return undefined;
  let s: Partial<Stored & { offsetMs: number; now: string }>;
  try {
    s = JSON.parse(String(row.state)) as typeof s;
  } catch {
    return undefined;
  }
  if (s.frozen === true) {
    const at = parseIsoTime(s.now);
    return at === undefined ? undefined : { frozen: true, now: at };
  }
  return typeof s.offsetMs === 'number' && Number.isFinite(s.offsetMs)
    ? { frozen: false, now: Date.now() + s.offsetMs }
    : undefined;
}

const pending = new WeakMap<Db, Promise<void>>();

/** Keeps the clock's every change in the store; returns a function that stops listening. */
export function keepClockStored(clock: ControllableClock, db: Db, logger: Logger): () => void {
  let latest: Stored | undefined;
  let writing = false;
  const write = async () => {
    writing = true;
    try {
      while (latest) {
        const state = latest;
        latest = undefined;
        await saveState(db, state);
      }
    } catch (err) {
      logger.error({ err }, 'keeping the clock for the next start failed');
    } finally {
      writing = false;
    }
  };
  return clock.onAdvance(() => {
    latest = snapshot(clock);
    if (!writing) pending.set(db, write());
  });
}

/** Waits for the clock's last write (before the database closes). */
export async function flushClockStore(db: Db): Promise<void> {
  await pending.get(db);
}

function snapshot(clock: ControllableClock): Stored {
  return clock.frozen
    ? { frozen: true, now: clock.now().toISOString() }
    : { frozen: false, offsetMs: clock.ms() - Date.now() };
}

async function saveState(db: Db, state: Stored): Promise<void> {
  // Following system time (within a second of it): nothing to keep.
  if (!state.frozen && Math.abs(state.offsetMs) < 1000) {
    await db.kysely.deleteFrom('platform_clock').where('id', '=', 1).execute();
    return;
  }
  const row = { id: 1, state: JSON.stringify(state), saved_at: new Date().toISOString() };
  await db.kysely
    .insertInto('platform_clock')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet({ state: row.state, saved_at: row.saved_at }))
    .execute();
}
