// The trace's writer: turns captured batches into rows (trace-rows.ts), stores each batch as one
// row of platform_trace (trace-batch.ts), keeps the table within HAMLET_TRACE_MAX_ENTRIES and
// deletes what is past the retention. It runs on the trace's worker thread (trace-worker.ts)
// with a connection of its own, so none of this work takes the event loop that serves
// requests; without a worker (a database it cannot open a second connection to) the trace runs
// it in process, the same code.
import type { Db } from './db.js';
import { compareRows, decodeBatch, encodeBatch, type BatchRow } from './trace-batch.js';
import { encodeCaptured, rowsOfRecords, type CapturedBatch, type TraceRow } from './trace-rows.js';

/** Batches deleted per statement when the table is over its cap or past the retention. */
const EVICT_BATCHES = 64;
/** The columns of a stored batch, in the order of SQLite's prepared insert. */
const BATCH_COLUMNS: Array<keyof BatchRow> = [
  'id',
  'at_min',
  'at_max',
  'epoch_min',
  'epoch_max',
  'seq_min',
  'seq_max',
  'entries',
  'keys',
  'services',
  'kinds',
  'data',
];

export interface TraceStoreSettings {
  bodies: boolean;
  maxEntries: number;
  /** The process's tag, the end of every id. */
  idTag: string;
}

export class TraceStore {
  private insertStatement: import('better-sqlite3').Statement | undefined;
  /** Entries in the table as this writer knows it: counted once, then kept up to date (recounted on PostgreSQL, where other instances write too). */
  private storedEntries: number | undefined;
  /** Where routes carry secrets in their paths, for masking URLs inside bodies (sent by the trace as routes are added). */
  private secretPaths: RegExp | undefined;

  constructor(
    private readonly db: Db,
    private readonly settings: TraceStoreSettings,
    /** Reports a failure that is not the caller's to handle (the oldest entries could not be deleted). */
    private readonly warn: (message: string, err: unknown) => void,
  ) {}

  setSecretPaths(source: string | undefined): void {
    this.secretPaths = source ? new RegExp(source, 'g') : undefined;
  }

  /**
   * Stores a captured batch (trace-rows.ts's layout); resolves to its rows as stored when asked
   * `withRows` (entries to announce), else to none (no row object is made per entry). Throws
   * when the batch could not be written.
   */
  async write(batch: CapturedBatch, withRows = true): Promise<TraceRow[]> {
    if (!batch.count) return [];
    const opts = { idTag: this.settings.idTag, bodies: this.settings.bodies, secretPaths: this.secretPaths };
    let rows: TraceRow[] = [];
    if (withRows) {
      const made = rowsOfRecords(batch, opts);
      rows = made.rows;
      await this.insert(encodeBatch(rows, made.numbers));
    } else {
      await this.insert(encodeCaptured(batch, opts));
    }
    if (this.storedEntries !== undefined) this.storedEntries += batch.count;
    await this.evictOverCap().catch((err: unknown) =>
      this.warn('trace: deleting the oldest entries over HAMLET_TRACE_MAX_ENTRIES failed', err),
    );
    return rows;
  }

  /** Deletes entries before `cutoff` (ISO, by the platform's clock); returns how many. */
  async prune(cutoff: string): Promise<number> {
    let deleted = 0;
    // Whole batches first, then the ones the cutoff runs through, rewritten without their older entries.
    for (;;) {
      const old = await this.db.kysely
        .selectFrom('platform_trace')
        .select(['id', 'entries'])
        .where('at_max', '<', cutoff)
        .limit(EVICT_BATCHES)
        .execute();
      if (!old.length) break;
      deleted += await this.deleteBatches(old);
    }
    const straddling = (await this.db.kysely
      .selectFrom('platform_trace')
      .select(['id', 'entries', 'data'])
      .where('at_min', '<', cutoff)
      .execute()) as Array<Pick<BatchRow, 'id' | 'entries' | 'data'>>;
    for (const batch of straddling) {
      const rows = decodeBatch(batch.data);
      const kept = rows.filter((r) => r.at >= cutoff);
      await this.replace(batch.id, kept);
      deleted += rows.length - kept.length;
    }
    if (this.storedEntries !== undefined) this.storedEntries -= deleted;
    // Other instances write the same table on PostgreSQL: a fresh count catches their rows.
    if (this.db.dialect === 'postgres') this.storedEntries = undefined;
    await this.evictOverCap();
    return deleted;
  }

  /**
   * Keeps the table within HAMLET_TRACE_MAX_ENTRIES: once over, deletes the oldest entries, a
   * little more than the excess so that a full table is trimmed every few batches, not every
   * one. Batches leave whole while that stays within the slack (a quarter of the cap, at most
   * 2,000 entries); the batch the line then runs through is stored again without its oldest
   * entries (decoding it costs more than deleting a row, so the slack makes that rare).
   */
  private async evictOverCap(): Promise<void> {
    const max = this.settings.maxEntries;
    if (this.storedEntries === undefined) {
      const counted = await this.db.kysely
        .selectFrom('platform_trace')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('entries'), eb.lit(0)).as('n'))
        .executeTakeFirstOrThrow();
      this.storedEntries = Number(counted.n);
    }
    if (this.storedEntries <= max) return;
    const least = this.storedEntries - max;
    const most = least + Math.max(Math.ceil(max / 100), Math.min(Math.floor(max / 4), 2000));
    let deleted = 0;
    while (deleted < least) {
      const oldest = await this.db.kysely
        .selectFrom('platform_trace')
        .select(['id', 'entries'])
        .orderBy('at_max')
        .orderBy('id')
        .limit(EVICT_BATCHES)
        .execute();
      if (!oldest.length) {
        // Fewer entries than this writer thought (someone else deleted some): count again next time.
        this.storedEntries = undefined;
        return;
      }
      const whole: typeof oldest = [];
      let wholeEntries = 0;
      for (const batch of oldest) {
        if (deleted + wholeEntries >= least || deleted + wholeEntries + Number(batch.entries) > most) break;
        whole.push(batch);
        wholeEntries += Number(batch.entries);
      }
      if (whole.length) {
        deleted += await this.deleteBatches(whole);
        continue;
      }
      // The oldest batch holds more than may go: it is kept without its oldest entries.
      const batch = await this.db.kysely
        .selectFrom('platform_trace')
        .select(['id', 'data'])
        .where('id', '=', oldest[0].id)
        .executeTakeFirst();
      if (!batch) continue;
      const rows = decodeBatch(batch.data).sort(compareRows);
      const dropped = Math.min(rows.length, least - deleted + Math.ceil(max / 100));
      await this.replace(batch.id, rows.slice(dropped));
      deleted += dropped;
    }
    this.storedEntries -= deleted;
  }

  /** Deletes these batches; resolves to the entries they held. */
  private async deleteBatches(batches: Array<{ id: string; entries: number | string }>): Promise<number> {
    await this.db.kysely
      .deleteFrom('platform_trace')
      .where(
        'id',
        'in',
        batches.map((b) => b.id),
      )
      .execute();
    return batches.reduce((sum, b) => sum + Number(b.entries), 0);
  }

  /** A batch stored again with only `rows` (none: deleted), in one transaction. */
  private async replace(id: string, rows: TraceRow[]): Promise<void> {
    const next = rows.length ? this.forDialect(encodeBatch(rows)) : undefined;
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('platform_trace').where('id', '=', id).execute();
      if (next) await trx.insertInto('platform_trace').values(next).execute();
    });
  }

  /** One batch, one row: on SQLite a prepared statement (Kysely would compile it again for every batch). */
  private async insert(batch: BatchRow): Promise<void> {
    const { sqlite } = this.db;
    if (sqlite) {
      await sqlite.run((raw) => {
        this.insertStatement ??= raw.prepare(
          `INSERT INTO platform_trace (${BATCH_COLUMNS.join(', ')}) VALUES (${BATCH_COLUMNS.map(() => '?').join(', ')})`,
        );
        this.insertStatement.run(BATCH_COLUMNS.map((c) => batch[c]));
      });
      return;
    }
    await this.db.kysely.insertInto('platform_trace').values(this.forDialect(batch)).execute();
  }

  /** PostgreSQL text cannot hold a NUL: there it becomes U+FFFD, as an undecodable byte would (SQLite keeps it). */
  private forDialect(batch: BatchRow): BatchRow {
    return this.db.dialect === 'postgres' ? { ...batch, data: withoutNul(batch.data) } : batch;
  }
}

/** An escaped NUL in JSON text; escaped backslashes before it are kept. */
const ESCAPED_NUL = /(?<!\\)((?:\\\\)*)\\u0000/g;

/** JSON text whose NULs read back as U+FFFD. */
function withoutNul(json: string): string {
  return json.includes('\\u0000') ? json.replace(ESCAPED_NUL, '$1\\ufffd') : json;
}
