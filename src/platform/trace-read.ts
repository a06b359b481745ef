// Reading the trace back (trace.ts's query): the rows of platform_trace are stored batches
// (trace-batch.ts), so a page is found in two steps. SQL selects the batches that can hold a
// matching entry (by their time, epoch and sequence ranges and the key ids, services and kinds
// they name), newest (or oldest) first; each is decoded and its entries filtered here, until
// the page is full and no batch left can hold an entry that sorts before its last one.
import { sql, type Db } from './db.js';
import type { TraceEntry, TraceQuery } from './trace.js';
import { compareRows, decodeBatch, type BatchRow } from './trace-batch.js';
import { entryOfRow, type TraceRow } from './trace-rows.js';

/** Batches fetched per statement. */
const BATCHES_PER_READ = 16;
/** Decoded batches kept for the next page (an export reads one batch over several pages). */
const DECODED_KEPT = 8;

/** Where a page starts: after the entry a cursor names. */
export interface After {
  at: string;
  id: string;
}

/** A value for LIKE, its wildcards escaped (with `\`). */
const likeWord = (word: string): string => `% ${word.replace(/[\\%_]/g, (c) => `\\${c}`)} %`;

export class TraceReader {
  private readonly decoded = new Map<string, TraceRow[]>();

  constructor(private readonly db: Db) {}

  /** Up to `limit` entries matching `q` after `after`, in the query's order, and whether more follow. */
  async page(
    q: TraceQuery,
    limit: number,
    after: After | undefined,
  ): Promise<{ entries: TraceEntry[]; more: boolean }> {
    const newest = q.order !== 'oldest';
    const matches = this.matcher(q, after, newest);
    // Kept sorted in the page's order, at most limit + 1 long (the one past the page says whether more follow).
    let found: TraceRow[] = [];
    let last: Pick<BatchRow, 'id' | 'at_min' | 'at_max'> | undefined;
    for (;;) {
      const batches = await this.batches(q, after, newest, last);
      for (const batch of batches) {
        if (found.length > limit) {
          // Every batch from here on sorts after the page's last entry (batches come by their edge).
          const edge = found[limit].at;
          if (newest ? batch.at_max < edge : batch.at_min > edge) return this.done(found, limit);
        }
        const rows = this.rowsOf(batch).filter(matches);
        if (!rows.length) continue;
        found = found.concat(rows).sort(newest ? (a, b) => compareRows(b, a) : compareRows);
        if (found.length > limit + 1) found.length = limit + 1;
      }
      if (batches.length < BATCHES_PER_READ) return this.done(found, limit);
      last = batches[batches.length - 1];
    }
  }

  private done(found: TraceRow[], limit: number): { entries: TraceEntry[]; more: boolean } {
    return { entries: found.slice(0, limit).map(entryOfRow), more: found.length > limit };
  }

  /** The next batches that can hold a matching entry, newest (by their latest entry) or oldest (by their earliest) first. */
  private async batches(
    q: TraceQuery,
    after: After | undefined,
    newest: boolean,
    last: Pick<BatchRow, 'id' | 'at_min' | 'at_max'> | undefined,
  ): Promise<BatchRow[]> {
    let sel = this.db.kysely.selectFrom('platform_trace').selectAll();
    if (q.keyId) sel = sel.where(sql<boolean>`keys like ${likeWord(q.keyId)} escape '\\'`);
    if (q.service?.length) {
      const services = q.service;
      sel = sel.where((eb) => eb.or(services.map((s) => sql<boolean>`services like ${likeWord(s)} escape '\\'`)));
    }
    if (q.kind?.length) {
      const kinds = q.kind;
      sel = sel.where((eb) => eb.or(kinds.map((k) => sql<boolean>`kinds like ${likeWord(k)} escape '\\'`)));
    }
    if (q.epoch !== undefined) sel = sel.where('epoch_min', '<=', q.epoch).where('epoch_max', '>=', q.epoch);
    if (q.since) sel = sel.where('at_max', '>=', q.since);
    if (q.until) sel = sel.where('at_min', '<', q.until);
    if (after) sel = newest ? sel.where('at_min', '<=', after.at) : sel.where('at_max', '>=', after.at);
    const edge = newest ? 'at_max' : 'at_min';
    if (last) {
      const cmp = newest ? '<' : '>';
      const value = last[edge];
      sel = sel.where((eb) => eb.or([eb(edge, cmp, value), eb.and([eb(edge, '=', value), eb('id', cmp, last.id)])]));
    }
    const dir = newest ? 'desc' : 'asc';
    return (await sel.orderBy(edge, dir).orderBy('id', dir).limit(BATCHES_PER_READ).execute()) as BatchRow[];
  }

  /** A batch's rows (decoded again only when not among the last few read). */
  private rowsOf(batch: BatchRow): TraceRow[] {
    const name = `${batch.id}/${batch.entries}`;
    let rows = this.decoded.get(name);
    if (rows) {
      this.decoded.delete(name);
    } else {
      rows = decodeBatch(batch.data);
      if (this.decoded.size >= DECODED_KEPT) this.decoded.delete(this.decoded.keys().next().value!);
    }
    this.decoded.set(name, rows);
    return rows;
  }

  /** Whether an entry matches the query and comes after the cursor. */
  private matcher(q: TraceQuery, after: After | undefined, newest: boolean): (r: TraceRow) => boolean {
    const services = q.service?.length ? new Set<string>(q.service) : undefined;
    const kinds = q.kind?.length ? new Set<string>(q.kind) : undefined;
    return (r) =>
      (!q.keyId || r.key_id === q.keyId) &&
      (q.epoch === undefined || Number(r.epoch) === q.epoch) &&
      (!services || services.has(r.service)) &&
      (!kinds || kinds.has(r.kind)) &&
      (!q.since || r.at >= q.since) &&
      (!q.until || r.at < q.until) &&
      (!after || (newest ? compareRows(r, after) < 0 : compareRows(r, after) > 0));
  }
}
