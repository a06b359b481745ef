// The mail tables on the platform's database: transactions, and what happens once one commits
// (caches hear which inboxes changed; work registered with afterCommit runs, never after a rollback).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Db, Dialect } from '../../../platform/db.js';
import type { Logger } from '../../../platform/logger.js';
import type { Cursor, MailTables, Tx } from './tables.js';

export interface StoreHooks {
  /** Hears, after a commit, the inboxes whose messages or threads it changed (the caches listen). */
  onChange(inboxIds: string[]): Promise<void>;
  logger: Logger;
}

export class MailDb {
  readonly db: Kysely<MailTables>;
  readonly dialect: Dialect;
  private readonly touched = new WeakMap<object, Set<string>>();
  private readonly commitHooks = new WeakMap<object, Array<() => Promise<void>>>();

  constructor(
    platformDb: Db,
    private readonly hooks: StoreHooks,
  ) {
    this.db = platformDb.kysely as Kysely<MailTables>;
    this.dialect = platformDb.dialect;
  }

  async transaction<T>(fn: (trx: Tx) => Promise<T>): Promise<T> {
    const inboxes = new Set<string>();
    const after: Array<() => Promise<void>> = [];
    const result = await this.db.transaction().execute((trx) => {
      this.touched.set(trx, inboxes);
      this.commitHooks.set(trx, after);
      return fn(trx);
    });
    if (inboxes.size) await this.hooks.onChange([...inboxes]);
    for (const hook of after) await this.runHook(hook);
    return result;
  }

  /** Runs `fn` once `trx` has committed (at once outside a transaction); never if it rolls back. */
  afterCommit(trx: Tx, fn: () => Promise<void>): void {
    const hooks = this.commitHooks.get(trx);
    if (hooks) hooks.push(fn);
    else void this.runHook(fn);
  }

  /** Notes that a write in `trx` changed an inbox's contents (reported once it commits). */
  touch(trx: Tx, inboxId: string): void {
    const set = this.touched.get(trx);
    if (set) set.add(inboxId);
    else void this.changed([inboxId]);
  }

  /** Reports a change made outside a transaction; a failed report is logged (the caches then expire late). */
  async changed(inboxIds: string[]): Promise<void> {
    await this.hooks
      .onChange(inboxIds)
      .catch((err) =>
        this.hooks.logger.warn({ err, service: 'mail', inboxes: inboxIds }, 'mail: announcing an inbox change failed'),
      );
  }

  /** After-commit work is best effort (the change itself is committed): a failure is logged, not thrown. */
  private async runHook(fn: () => Promise<void>): Promise<void> {
    await fn().catch((err) => this.hooks.logger.warn({ err, service: 'mail' }, 'mail: work after a commit failed'));
  }

  /** Case-sensitive substring test that needs no LIKE escaping (labels as JSON text). */
  contains(column: string, needle: string): RawBuilder<boolean> {
    return this.dialect === 'postgres'
      ? sql<boolean>`strpos(${sql.ref(column)}, ${needle}) > 0`
      : sql<boolean>`instr(${sql.ref(column)}, ${needle}) > 0`;
  }

  /** Case-insensitive substring test over one or more columns. */
  containsFolded(columns: string[], needle: string): RawBuilder<boolean> {
    const joined = sql.join(
      columns.map((c) => sql`coalesce(${sql.ref(c)}, '')`),
      sql` || ' ' || `,
    );
    return this.dialect === 'postgres'
      ? sql<boolean>`strpos(lower(${joined}), ${needle.toLowerCase()}) > 0`
      : sql<boolean>`instr(lower(${joined}), ${needle.toLowerCase()}) > 0`;
  }

  /** A label filter: the JSON label list holds (or, with `not`, lacks) the label. */
  hasLabel(label: string, not = false): RawBuilder<boolean> {
    const test = this.contains('labels', JSON.stringify(label));
    return not ? sql<boolean>`not ${test}` : test;
  }
}

/**
 * Keyset paging on (sortKey, id): newest first unless ascending, one extra row fetched so the
 * caller knows whether a next page exists.
 */
export function page<Q extends { where: any; orderBy: any; limit: any }>(
  q: Q,
  sortKey: string,
  idKey: string,
  opts: { limit: number; cursor?: Cursor; ascending?: boolean },
): Q {
  const dir = opts.ascending ? 'asc' : 'desc';
  const cmp = opts.ascending ? '>' : '<';
  let out: any = q;
  if (opts.cursor) {
    const [k, id] = opts.cursor;
    out = out.where((eb: any) => eb.or([eb(sortKey, cmp, k), eb.and([eb(sortKey, '=', k), eb(idKey, cmp, id)])]));
  }
  return out
    .orderBy(sortKey, dir)
    .orderBy(idKey, dir)
    .limit(opts.limit + 1);
}
