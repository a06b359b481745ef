// What changed between two snapshot files, per service and by primary key: the evaluator's
// check that a task was done and that nothing else was touched.
//
// A snapshot holds its tables in name order and each table's rows in key order, so the diff
// is a merge of two streams read side by side: memory holds a row of each side and the page
// being answered, whatever the size of the worlds. A page ends after `limit` changes (or when
// its rows pass `pageBytes`); its `next` position (the table, and how many of its rows each
// side has passed) lets the following request skip straight there, and `service`/`table`
// narrow the diff to what the evaluator asks about.
import { canonicalJson, compareRows } from './canonical.js';
import {
  checkHeader,
  fileLines,
  parseRow,
  WorldFileError,
  type FileLimits,
  type HeaderTable,
  type WorldHeader,
} from './file.js';

type Row = Record<string, unknown>;

export interface RowChange {
  table: string;
  key: Record<string, unknown>;
}

export interface ServiceChanges {
  added: Array<RowChange & { row: Row }>;
  changed: Array<RowChange & { columns: string[]; before: Row; after: Row }>;
  removed: Array<RowChange & { row: Row }>;
}

/** Where a page stopped: in `table`, after its first `a` rows of the older state and `b` of the newer. */
export interface DiffPosition {
  table: string;
  a: number;
  b: number;
}

export interface DiffTask {
  from: string;
  to: string;
  service?: string;
  table?: string;
  after?: DiffPosition;
  limit: number;
  pageBytes: number;
  limits: FileLimits;
}

export interface DiffPage {
  fromHash: string;
  toHash: string;
  services: Record<string, ServiceChanges>;
  next?: DiffPosition;
}

/** One side of the merge: a snapshot file read forward, table by table, row by row. */
class Side {
  header!: WorldHeader;
  private readonly lines: AsyncGenerator<string>;
  private tableAt = -1;
  /** Rows of the current table not yet read. */
  private left = 0;
  private previous?: Row;
  /** The table asked for by the last seek, when this side has it. */
  table?: HeaderTable;
  /** Rows of the header's current table passed so far. */
  private passedRows = 0;

  constructor(file: string, limits: FileLimits) {
    this.lines = fileLines(file, limits);
  }

  async open(limits: FileLimits): Promise<void> {
    const first = await this.lines.next();
    if (first.done) throw new WorldFileError('not a world snapshot: the file is empty');
    this.header = checkHeader(first.value, limits);
  }

  /** Rows of the table asked for passed so far (0 when this side lacks it). */
  get passed(): number {
    return this.table ? this.passedRows : 0;
  }

  /**
   * Moves to a table (tables come in name order, so only ever forward). A side that lacks it
   * stays on the table before it, its unread rows still to pass at the next move.
   */
  async seek(name: string): Promise<void> {
    const tables = this.header.tables;
    while (this.tableAt + 1 < tables.length && tables[this.tableAt + 1].name <= name) {
      await this.passLines(this.left);
      this.tableAt++;
      this.left = tables[this.tableAt].rows;
      this.passedRows = 0;
      this.previous = undefined;
    }
    this.table = tables[this.tableAt]?.name === name ? tables[this.tableAt] : undefined;
  }

  /** Passes rows of the table asked for, unread (a page's cursor). */
  async skip(rows: number): Promise<void> {
    if (this.table) await this.passLines(rows);
  }

  private async passLines(rows: number): Promise<void> {
    for (let i = 0; i < rows && this.left > 0; i++) {
      await this.line();
      this.left--;
      this.passedRows++;
    }
  }

  /** The next row of the current table, with its line, or undefined at the table's end. */
  async row(): Promise<{ row: Row; line: string } | undefined> {
    if (!this.table || this.left === 0) return undefined;
    const line = await this.line();
    const row = parseRow(this.table, line);
    if (this.previous && compareRows(this.previous, row, this.table.key) > 0)
      throw new WorldFileError(`table ${this.table.name}: rows are not in key order`);
    this.previous = row;
    return { row, line };
  }

  /** Counts the row `row()` returned as passed. */
  pass(): void {
    this.left--;
    this.passedRows++;
  }

  close(): Promise<unknown> {
    return this.lines.return(undefined);
  }

  private async line(): Promise<string> {
    const next = await this.lines.next();
    if (next.done)
      throw new WorldFileError(`the snapshot is cut short in table ${this.header.tables[this.tableAt]?.name}`);
    return next.value;
  }
}

const keyOf = (row: Row, key: string[]) => Object.fromEntries(key.map((c) => [c, row[c] ?? null]));

/** One page of the diff of two snapshot files. */
export async function diffFiles(task: DiffTask): Promise<DiffPage> {
  const older = new Side(task.from, task.limits);
  const newer = new Side(task.to, task.limits);
  try {
    await older.open(task.limits);
    await newer.open(task.limits);
    const tables = new Map<string, { owner: string; key: string[] }>();
    for (const t of [...older.header.tables, ...newer.header.tables])
      tables.set(t.name, { owner: t.owner, key: t.key });
    const chosen = [...tables]
      .filter(([name, t]) => (!task.service || t.owner === task.service) && (!task.table || name === task.table))
      .sort(([a], [b]) => (a < b ? -1 : 1));
    const services: Record<string, ServiceChanges> = {};
    for (const [, t] of chosen) services[t.owner] ??= { added: [], changed: [], removed: [] };
    const page: DiffPage = { fromHash: older.header.hash, toHash: newer.header.hash, services };

    let count = 0;
    let bytes = 0;
    for (const [name, t] of chosen) {
      if (task.after && name < task.after.table) continue;
      await older.seek(name);
      await newer.seek(name);
      if (task.after?.table === name) {
        await older.skip(task.after.a);
        await newer.skip(task.after.b);
      }
      const out = services[t.owner];
      let x = await older.row();
      let y = await newer.row();
      while (x || y) {
        const order = !x ? 1 : !y ? -1 : compareRows(x.row, y.row, t.key);
        const differs = order !== 0 || x!.line !== y!.line;
        // A full page stops before the next change, so `next` is only given when there is one.
        if (differs && (count >= task.limit || bytes >= task.pageBytes)) {
          page.next = { table: name, a: older.passed, b: newer.passed };
          return page;
        }
        if (order < 0) {
          out.removed.push({ table: name, key: keyOf(x!.row, t.key), row: x!.row });
          bytes += x!.line.length;
          older.pass();
          x = await older.row();
        } else if (order > 0) {
          out.added.push({ table: name, key: keyOf(y!.row, t.key), row: y!.row });
          bytes += y!.line.length;
          newer.pass();
          y = await newer.row();
        } else {
          if (differs) {
            const before = x!.row;
            const after = y!.row;
            const columns = [...new Set([...Object.keys(before), ...Object.keys(after)])]
              .filter((c) => canonicalJson(before[c]) !== canonicalJson(after[c]))
              .sort();
            out.changed.push({ table: name, key: keyOf(after, t.key), columns, before, after });
            bytes += x!.line.length + y!.line.length;
          }
          older.pass();
          newer.pass();
          x = await older.row();
          y = await newer.row();
        }
        if (differs) count++;
      }
    }
    return page;
  } finally {
    await older.close();
    await newer.close();
  }
}

/** The states a paged diff compares, pinned: snapshot ids, `now:<id>` for a state saved as "now". */
export interface DiffRefs {
  from: string;
  to: string;
}

/** A page's `next`: the pinned states and the position, as one opaque text. */
function encodeCursor(refs: DiffRefs, at: DiffPosition): string {
  return Buffer.from(JSON.stringify({ f: refs.from, t: refs.to, table: at.table, a: at.a, b: at.b })).toString(
    'base64url',
  );
}

const REF = /^(now:)?[0-9a-f]{16}$/;

/** A cursor back to its states and position; undefined when it is not one. */
export function decodeCursor(text: string): (DiffRefs & { at: DiffPosition }) | undefined {
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Record<string, unknown>;
    const count = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
    if (
      typeof c.f !== 'string' ||
      !REF.test(c.f) ||
      typeof c.t !== 'string' ||
      !REF.test(c.t) ||
      typeof c.table !== 'string' ||
      c.table.length > 63 ||
      !count(c.a) ||
      !count(c.b)
    )
      return undefined;
    return { from: c.f, to: c.t, at: { table: c.table, a: c.a as number, b: c.b as number } };
  } catch {
    return undefined;
  }
}

/** A page as the admin API answers it (canonical JSON: bytes as {"$base64"}, like the file). */
export async function diffAnswer(task: DiffTask & { labels: DiffRefs; refs: DiffRefs }): Promise<string> {
  const page = await diffFiles(task);
  return canonicalJson({
    from: task.labels.from,
    to: task.labels.to,
    fromHash: page.fromHash,
    toHash: page.toHash,
    services: page.services,
    ...(page.next ? { next: encodeCursor(task.refs, page.next) } : {}),
  });
}
