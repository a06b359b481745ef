// The portable snapshot file: gzip'd JSON Lines. The first line is the header (format, hash,
// clock, the tables with their owners, keys and row counts); then each table's rows in key
// order, one canonical JSON object a line. The same file loads on SQLite and PostgreSQL.
//
// Files come from anyone (an upload, a copy), so they are read as a stream under limits
// (settings.ts): the stored size, the inflated size, the length of one line and the number of
// rows. Nothing ever holds the whole inflated text: a gzip bomb stops at the first limit it
// passes, named in a 413, and a malformed file is a 400 naming what is wrong.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createGunzip, gunzipSync, gzipSync } from 'node:zlib';
import { parseIsoTime } from '../../platform/clock.js';
import { HttpError } from '../../platform/errors.js';
import { canonicalRow, compareRows, decodeRow, hashTables, hashTexts, tableText } from './canonical.js';
import { WORLD_DEFAULTS, type WorldSettings } from './settings.js';
import type { ClockState, WorldState } from './state.js';

const WORLD_FORMAT = 'hamlet-world/1';

export interface HeaderTable {
  name: string;
  owner: string;
  key: string[];
  rows: number;
}

export interface WorldHeader {
  format: typeof WORLD_FORMAT;
  hash: string;
  savedAt: string;
  name?: string;
  clock?: ClockState;
  tables: HeaderTable[];
}

export type FileLimits = Pick<WorldSettings, 'maxFileBytes' | 'maxBytes' | 'maxLineBytes' | 'maxRows'>;

/** A snapshot file refused: 400 when it is malformed, 413 when it passes a limit (named). */
export class WorldFileError extends HttpError {
  constructor(message: string, status: 400 | 413 = 400) {
    super(status, message, 'invalid_snapshot');
  }

  static tooLarge(what: string, limit: number, setting: string): WorldFileError {
    return new WorldFileError(`the snapshot is too large: ${what} is over ${limit} (${setting})`, 413);
  }
}

const NAME = /^[a-z][a-z0-9_]{0,62}$/;
const COLUMN = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** The clock of a header: {frozen: boolean, now: an ISO 8601 date-time}; anything else is refused. */
export function checkClock(value: unknown): ClockState {
  const c = value as Partial<ClockState> | null;
  if (
    !c ||
    typeof c !== 'object' ||
    typeof c.frozen !== 'boolean' ||
    parseIsoTime(c.now) === undefined ||
    Object.keys(c).some((k) => k !== 'frozen' && k !== 'now')
  ) {
    throw new WorldFileError(
      'the snapshot clock must be {"frozen": true or false, "now": an ISO 8601 date-time such as 2026-01-05T09:00:00Z}',
    );
  }
  return { frozen: c.frozen, now: c.now as string };
}

/** A header line, checked: format, hash, tables in name order with keys and row counts, the clock. */
export function checkHeader(line: string, limits: FileLimits): WorldHeader {
  let h: Partial<WorldHeader> & Record<string, unknown>;
  try {
    h = JSON.parse(line) as typeof h;
  } catch {
    throw new WorldFileError('not a world snapshot: the first line is not JSON');
  }
  if (!h || typeof h !== 'object' || h.format !== WORLD_FORMAT)
    throw new WorldFileError(`not a world snapshot: format is not ${WORLD_FORMAT}`);
  if (typeof h.hash !== 'string' || !/^[0-9a-f]{64}$/.test(h.hash))
    throw new WorldFileError('the snapshot header has no hash (64 hex digits)');
  if (typeof h.savedAt !== 'string' || h.savedAt.length > 64)
    throw new WorldFileError('the snapshot header has no savedAt');
  if (h.name !== undefined && (typeof h.name !== 'string' || h.name.length > 200))
    throw new WorldFileError('the snapshot name must be a text of at most 200 characters');
  if (!Array.isArray(h.tables) || h.tables.length > 10_000)
    throw new WorldFileError('the snapshot header has no list of tables');
  let rows = 0;
  let previous = '';
  const tables = h.tables.map((t: Partial<HeaderTable>): HeaderTable => {
    if (!t || typeof t.name !== 'string' || !NAME.test(t.name))
      throw new WorldFileError(
        `the snapshot names a table ${JSON.stringify(t?.name)}: table names are lowercase letters, digits and _`,
      );
    if (t.name <= previous)
      throw new WorldFileError(`the snapshot tables must be in name order, each once (${t.name} after ${previous})`);
    previous = t.name;
    if (typeof t.owner !== 'string' || !NAME.test(t.owner)) throw new WorldFileError(`table ${t.name}: no owner`);
    if (
      !Array.isArray(t.key) ||
      !t.key.length ||
      t.key.length > 200 ||
      !t.key.every((c) => typeof c === 'string' && COLUMN.test(c))
    )
      throw new WorldFileError(`table ${t.name}: key must list its key columns`);
    if (!Number.isSafeInteger(t.rows) || t.rows! < 0) throw new WorldFileError(`table ${t.name}: rows must be a count`);
    rows += t.rows!;
    return { name: t.name, owner: t.owner, key: t.key, rows: t.rows! };
  });
  if (rows > limits.maxRows)
    throw WorldFileError.tooLarge(`its row count (${rows})`, limits.maxRows, 'HAMLET_WORLD_MAX_ROWS');
  return {
    format: WORLD_FORMAT,
    hash: h.hash,
    savedAt: h.savedAt,
    ...(h.name ? { name: h.name } : {}),
    ...(h.clock !== undefined ? { clock: checkClock(h.clock) } : {}),
    tables,
  };
}

/** A value a column can hold: null, a number, text, or bytes as {"$base64": …} (booleans are stored as 0/1). */
function isColumnValue(v: unknown): boolean {
  if (v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) return true;
  if (typeof v !== 'object') return false;
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0] === '$base64' && typeof (v as { $base64: unknown }).$base64 === 'string';
}

/** One row line of a table, parsed and checked: an object of column values that has the key columns. */
export function parseRow(table: HeaderTable, line: string): Record<string, unknown> {
  let row: unknown;
  try {
    row = JSON.parse(line);
  } catch {
    throw new WorldFileError(`not a world snapshot: a row of table ${table.name} is not JSON`);
  }
  if (!row || typeof row !== 'object' || Array.isArray(row))
    throw new WorldFileError(`table ${table.name}: a row is not an object`);
  const r = row as Record<string, unknown>;
  for (const column in r) {
    if (!COLUMN.test(column))
      throw new WorldFileError(`table ${table.name}: ${JSON.stringify(column.slice(0, 64))} is not a column name`);
    if (!isColumnValue(r[column]))
      throw new WorldFileError(
        `table ${table.name}: column ${column} holds a value no column takes (null, a number, text or {"$base64": …})`,
      );
  }
  for (const c of table.key)
    if (!(c in r)) throw new WorldFileError(`table ${table.name}: a row has no key column ${c}`);
  return r;
}

/**
 * Splits inflated bytes into lines (one a line, without the newline), counting toward the
 * limits on the whole and on one line as the bytes arrive.
 */
class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private total = 0;

  constructor(private readonly limits: FileLimits) {}

  push(chunk: Buffer): string[] {
    this.total += chunk.length;
    if (this.total > this.limits.maxBytes)
      throw WorldFileError.tooLarge('its inflated size', this.limits.maxBytes, 'HAMLET_WORLD_MAX_BYTES');
    const lines: string[] = [];
    let from = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, from)) {
      this.checkLine(this.pendingBytes + nl - from);
      if (this.pendingBytes) {
        this.pending.push(chunk.subarray(from, nl));
        lines.push(Buffer.concat(this.pending).toString('utf8'));
        this.pending = [];
        this.pendingBytes = 0;
      } else lines.push(chunk.toString('utf8', from, nl));
      from = nl + 1;
    }
    if (from < chunk.length) {
      this.checkLine(this.pendingBytes + chunk.length - from);
      this.pending.push(chunk.subarray(from));
      this.pendingBytes += chunk.length - from;
    }
    return lines;
  }

  /** What follows the last newline, if anything (a file need not end with one). */
  end(): string[] {
    return this.pendingBytes ? [Buffer.concat(this.pending).toString('utf8')] : [];
  }

  private checkLine(bytes: number): void {
    if (bytes > this.limits.maxLineBytes)
      throw WorldFileError.tooLarge('a line', this.limits.maxLineBytes, 'HAMLET_WORLD_MAX_LINE');
  }
}

const damaged = (err: unknown): unknown =>
  err instanceof WorldFileError
    ? err
    : typeof (err as { code?: unknown })?.code === 'string' && (err as { code: string }).code.startsWith('Z_')
      ? new WorldFileError('not a world snapshot: the file is not gzip, or it is damaged')
      : err;

/** The lines of a snapshot file, inflated as they are read (a stream; nothing is held whole). */
export async function* fileLines(file: string, limits: FileLimits): AsyncGenerator<string> {
  const { size } = await stat(file);
  if (size > limits.maxFileBytes)
    throw WorldFileError.tooLarge(`the file (${size} bytes)`, limits.maxFileBytes, 'HAMLET_WORLD_MAX_FILE');
  const source = createReadStream(file);
  const gunzip = createGunzip();
  source.on('error', (err) => gunzip.destroy(err));
  source.pipe(gunzip);
  const splitter = new LineSplitter(limits);
  try {
    for await (const chunk of gunzip) yield* splitter.push(chunk as Buffer);
    yield* splitter.end();
  } catch (err) {
    throw damaged(err);
  } finally {
    source.destroy();
    gunzip.destroy();
  }
}

/**
 * Reads a snapshot line by line: the header, then every table's rows, each checked (JSON, its
 * columns' values, its key, key order within the table), hashed as it goes; `end()` checks
 * that every table was complete, nothing followed, and the rows hash to the header's hash.
 */
class SnapshotReader {
  header?: WorldHeader;
  private table = -1;
  private left = 0;
  private previous?: Record<string, unknown>;
  private readonly hash = createHash('sha256');

  constructor(
    private readonly limits: FileLimits,
    /** Called with every row (decoded: bytes as Buffers) when the caller keeps them. */
    private readonly onRow?: (table: HeaderTable, row: Record<string, unknown>) => void,
  ) {}

  line(text: string): void {
    if (!this.header) {
      this.header = checkHeader(text, this.limits);
      this.nextTable();
      return;
    }
    const table = this.header.tables[this.table];
    if (!table) throw new WorldFileError('the snapshot has more lines than its header counts');
    const row = parseRow(table, text);
    if (this.previous && compareRows(this.previous, row, table.key) > 0)
      throw new WorldFileError(`table ${table.name}: rows are not in key order`);
    this.previous = row;
    // The hash is over each row's canonical form, made before bytes are decoded (as it was saved).
    this.hash.update(canonicalRow(row)).update('\n');
    this.onRow?.(table, decodeRow(row));
    if (--this.left === 0) this.nextTable();
  }

  end(): WorldHeader {
    if (!this.header) throw new WorldFileError('not a world snapshot: the file is empty');
    const cut = this.header.tables[this.table];
    if (cut) throw new WorldFileError(`the snapshot is cut short in table ${cut.name}`);
    if (this.hash.digest('hex') !== this.header.hash)
      throw new WorldFileError('the snapshot rows do not match its hash (the file was changed or damaged)');
    return this.header;
  }

  private nextTable(): void {
    const tables = this.header!.tables;
    do {
      this.table++;
      const t = tables[this.table];
      if (!t) return;
      this.hash.update(`# ${t.name}\n`);
      this.left = t.rows;
      this.previous = undefined;
    } while (this.left === 0);
  }
}

/** Reads a whole snapshot file through a reader (checks only, or rows kept by its onRow). */
export async function readSnapshotFile(
  file: string,
  limits: FileLimits,
  onRow?: (table: HeaderTable, row: Record<string, unknown>) => void,
): Promise<WorldHeader> {
  const reader = new SnapshotReader(limits, onRow);
  for await (const line of fileLines(file, limits)) reader.line(line);
  return reader.end();
}

/** A snapshot file's header and its rows in memory (a restore), under the limits. */
export async function decodeWorldFile(
  file: string,
  limits: FileLimits,
): Promise<{ header: WorldHeader; state: WorldState }> {
  const rows = new RowsByTable();
  const header = await readSnapshotFile(file, limits, rows.add);
  return { header, state: rows.state(header) };
}

/** Just the header: the first line, read with the line limit (listing files that have no stored header). */
export async function readHeader(file: string, limits: FileLimits): Promise<WorldHeader> {
  for await (const line of fileLines(file, limits)) return checkHeader(line, limits);
  throw new WorldFileError('not a world snapshot: the file is empty');
}

/** Reads a snapshot held in memory (the CLI's and tests' files), under the same limits. */
export function decodeWorld(
  file: Buffer,
  limits: FileLimits = WORLD_DEFAULTS,
): { header: WorldHeader; state: WorldState } {
  if (file.length > limits.maxFileBytes)
    throw WorldFileError.tooLarge(`the file (${file.length} bytes)`, limits.maxFileBytes, 'HAMLET_WORLD_MAX_FILE');
  let inflated: Buffer;
  try {
    inflated = gunzipSync(file, { maxOutputLength: limits.maxBytes + 1 });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw WorldFileError.tooLarge('its inflated size', limits.maxBytes, 'HAMLET_WORLD_MAX_BYTES');
    throw new WorldFileError('not a world snapshot: the file is not gzip, or it is damaged');
  }
  const rows = new RowsByTable();
  const reader = new SnapshotReader(limits, rows.add);
  const splitter = new LineSplitter(limits);
  for (const line of [...splitter.push(inflated), ...splitter.end()]) reader.line(line);
  const header = reader.end();
  return { header, state: rows.state(header) };
}

/** Rows kept as a reader hands them over, then the state they make with their header. */
class RowsByTable {
  private readonly rows = new Map<string, Array<Record<string, unknown>>>();

  readonly add = (table: HeaderTable, row: Record<string, unknown>): void => {
    let list = this.rows.get(table.name);
    if (!list) this.rows.set(table.name, (list = []));
    list.push(row);
  };

  state(header: WorldHeader): WorldState {
    return {
      tables: header.tables.map((t) => ({
        name: t.name,
        owner: t.owner,
        key: t.key,
        rows: this.rows.get(t.name) ?? [],
      })),
      ...(header.clock ? { clock: header.clock } : {}),
    };
  }
}

export function headerOf(state: WorldState, savedAt: string, name?: string): WorldHeader {
  return headerWith(state, hashTables(state.tables), savedAt, name);
}

function headerWith(state: WorldState, hash: string, savedAt: string, name?: string): WorldHeader {
  return {
    format: WORLD_FORMAT,
    hash,
    savedAt,
    ...(name ? { name } : {}),
    ...(state.clock ? { clock: state.clock } : {}),
    tables: state.tables.map((t) => ({ name: t.name, owner: t.owner, key: t.key, rows: t.rows.length })),
  };
}

/** The header line's text (the first line of every snapshot file). */
export const headerLine = (header: WorldHeader): string => JSON.stringify(header) + '\n';

export function encodeWorld(state: WorldState, header: WorldHeader): Buffer {
  return gzipTexts(
    header,
    state.tables.map((t) => tableText(t.rows.map(canonicalRow))),
  );
}

/** A state's file and header, each row made canonical once for both the hash and the file. */
export function saveWorld(state: WorldState, savedAt: string, name?: string): { header: WorldHeader; file: Buffer } {
  const texts = state.tables.map((t) => tableText(t.rows.map(canonicalRow)));
  const header = headerWith(
    state,
    hashTexts(state.tables.map((t, i) => ({ name: t.name, text: texts[i] }))),
    savedAt,
    name,
  );
  return { header, file: gzipTexts(header, texts) };
}

function gzipTexts(header: WorldHeader, texts: string[]): Buffer {
  return gzipSync(Buffer.concat([Buffer.from(headerLine(header)), ...texts.map((t) => Buffer.from(t))]), { level: 1 });
}
