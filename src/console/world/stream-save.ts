// Saving the world as it is now, streamed: each table's rows are read in key order from a
// database connection of this thread's own (the world worker's, worker.ts), inside one read
// transaction (one consistent state while the services go on writing), made canonical,
// hashed and gzip'd a batch at a time. Nothing holds more than a batch of rows, and the sorting
// is the database's: a world of any size costs the services no stall and no memory.
//
// The rows come in the order canonical.ts sorts them (code points, NULLs first), so the hash
// and the file are the same as World.read() makes in memory.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { loadPg, postgresConnection } from '../../platform/db.js';
import { isInstanceRow, type InstanceRows, type WorldRow } from '../../platform/world.js';
import { canonicalRow } from './canonical.js';
import { headerLine, type WorldHeader } from './file.js';
import type { ClockState } from './state.js';

/** Where the rows are: the SQLite file, or DATABASE_URL. */
export type RowSource = { sqlite: string } | { postgres: string };

/** A table as the reader needs it (WorldTable without functions: it crosses to a worker). */
export interface TablePlan {
  name: string;
  owner: string;
  key: string[];
  /** Every column, sorted: rows read in this order are canonical already. */
  columns: string[];
  /** Key columns of a text type (PostgreSQL): ordered with COLLATE "C". */
  textKey?: string[];
  instanceRows?: InstanceRows;
}

export interface SaveTask {
  source: RowSource;
  /** In name order (the hash's order). */
  tables: TablePlan[];
  /** The file to write; without one, only the hash is made. */
  out?: string;
  savedAt: string;
  name?: string;
  clock?: ClockState;
}

const BATCH = 2000;
const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Reads tables in key order, a batch of rows at a time, inside one read transaction. */
interface TableReader {
  batches(table: TablePlan): AsyncGenerator<WorldRow[]>;
  close(): Promise<void>;
}

function sqliteReader(file: string): TableReader {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  // The first read of a deferred transaction fixes the state every later read sees (WAL).
  db.exec('begin');
  return {
    async *batches(t) {
      const order = t.key.map((c) => `${quote(c)} collate binary`).join(', ');
      const rows = db
        .prepare(`select ${t.columns.map(quote).join(', ')} from ${quote(t.name)} order by ${order}`)
        .iterate() as IterableIterator<WorldRow>;
      let batch: WorldRow[] = [];
      for (const row of rows) {
        batch.push(row);
        if (batch.length === BATCH) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length) yield batch;
    },
    async close() {
      if (db.inTransaction) db.exec('commit');
      db.close();
    },
  };
}

async function postgresReader(databaseUrl: string): Promise<TableReader> {
  const { connectionString, options } = postgresConnection(databaseUrl);
  // pg as db.ts sets it up (bigint counts as numbers), as the rest of Hamlet reads it.
  const client = new (loadPg().Client)({ connectionString, ...(options ? { options } : {}) });
  await client.connect();
  await client.query('begin isolation level repeatable read read only');
  return {
    async *batches(t) {
      const text = new Set(t.textKey ?? []);
      const order = t.key.map((c) => `${quote(c)}${text.has(c) ? ' collate "C"' : ''} nulls first`).join(', ');
      await client.query(
        `declare world_rows no scroll cursor for select ${t.columns.map(quote).join(', ')} from ${quote(t.name)} order by ${order}`,
      );
      for (;;) {
        const { rows } = await client.query<WorldRow>(`fetch ${BATCH} from world_rows`);
        if (!rows.length) break;
        yield rows;
      }
      await client.query('close world_rows');
    },
    async close() {
      await client.query('commit').catch(() => {});
      await client.end();
    },
  };
}

/** Writes text to a gzip'd file, waiting whenever the disk is behind. */
class GzipFile {
  private readonly gzip = createGzip({ level: 1 });
  private readonly done: Promise<void>;

  constructor(file: string) {
    this.done = pipeline(this.gzip, createWriteStream(file));
  }

  async write(text: string): Promise<void> {
    if (!this.gzip.write(text)) await Promise.race([once(this.gzip, 'drain'), this.done]);
  }

  async end(): Promise<void> {
    this.gzip.end();
    await this.done;
  }
}

/**
 * Saves the world now: the header (hash and counts) is known only at the end, so the rows are
 * written as one gzip member first, then the file is the header's member followed by it (gzip
 * readers read concatenated members as one text).
 */
export async function saveStreamed(task: SaveTask): Promise<WorldHeader> {
  const reader =
    'sqlite' in task.source ? sqliteReader(task.source.sqlite) : await postgresReader(task.source.postgres);
  const body = task.out ? `${task.out}.rows` : undefined;
  const out = body ? new GzipFile(body) : undefined;
  const hash = createHash('sha256');
  const counts: number[] = [];
  try {
    for (const t of task.tables) {
      hash.update(`# ${t.name}\n`);
      let n = 0;
      for await (const batch of reader.batches(t)) {
        const lines: string[] = [];
        for (const row of batch)
          if (!t.instanceRows || !isInstanceRow(t.instanceRows, t.name, row)) lines.push(canonicalRow(row));
        if (!lines.length) continue;
        const text = lines.join('\n') + '\n';
        hash.update(text);
        await out?.write(text);
        n += lines.length;
      }
      counts.push(n);
    }
  } finally {
    await reader.close();
    await out?.end();
  }
  const header: WorldHeader = {
    format: 'hamlet-world/1',
    hash: hash.digest('hex'),
    savedAt: task.savedAt,
    ...(task.name ? { name: task.name } : {}),
    ...(task.clock ? { clock: task.clock } : {}),
    tables: task.tables.map((t, i) => ({ name: t.name, owner: t.owner, key: t.key, rows: counts[i] })),
  };
  if (task.out && body) {
    const file = createWriteStream(task.out);
    file.write(gzipSync(headerLine(header), { level: 1 }));
    await pipeline(createReadStream(body), file);
    await rm(body, { force: true });
  }
  return header;
}
