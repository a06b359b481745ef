// What every store function needs: the typed database, its dialect (for the few statements
// that differ, such as row locks) and the clock.
import type { Clock } from '../../../platform/clock.js';
import type { Dialect } from '../../../platform/db.js';
import type { CommunityKysely } from './tables.js';

export interface Store {
  db: CommunityKysely;
  dialect: Dialect;
  clock: Clock;
}

/** Appends FOR UPDATE on PostgreSQL; SQLite transactions are already serialized (one writer). */
export function locked<Q extends { forUpdate(): Q }>(store: Store, query: Q): Q {
  return store.dialect === 'postgres' ? query.forUpdate() : query;
}

/** Escapes LIKE wildcards so user text matches literally (used with ESCAPE '\'). */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (c) => '\\' + c);
