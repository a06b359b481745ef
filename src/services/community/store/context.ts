// What every store function needs: the typed database, its dialect (for the few statements
// that differ, such as row locks) and the clock.
import type { SqliteAccess } from '../../../platform/sqlite.js';
import type { Clock } from '../../../platform/clock.js';
import type { Dialect } from '../../../platform/db.js';
import type { CommunityKysely } from './tables.js';

export interface Store {
  db: CommunityKysely;
  dialect: Dialect;
  clock: Clock;
  /** The raw SQLite handle in embedded mode, for the vote hot path (see votes-sqlite.ts). */
  sqlite?: SqliteAccess;
}

/**
 * Appends FOR UPDATE (of the named tables, when a query joins others) on PostgreSQL;
 * SQLite transactions are already serialized (one writer).
 */
export function locked<Q extends { forUpdate(of?: any): Q }>(store: Store, query: Q, of?: string[]): Q {
  return store.dialect === 'postgres' ? query.forUpdate(of) : query;
}

/** Escapes LIKE wildcards so user text matches literally (used with ESCAPE '\'). */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (c) => '\\' + c);
