// Small pieces of SQL the stores share: row locks where the dialect needs them, and LIKE
// patterns that match user text literally.
import type { Dialect } from '../../../platform/db.js';

/**
 * Appends FOR UPDATE (of the named tables, when a query joins others) on PostgreSQL;
 * SQLite transactions are already serialized (one writer).
 */
export function locked<Q extends { forUpdate(of?: any): Q }>(dialect: Dialect, query: Q, of?: string[]): Q {
  return dialect === 'postgres' ? query.forUpdate(of) : query;
}

/** Escapes LIKE wildcards so user text matches literally (used with ESCAPE '\'). */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (c) => '\\' + c);
