// The platform's own tables: API keys and the durable job table.
import type { Kysely } from 'kysely';
import type { Migrations } from './db.js';
import { encodeBatch } from './trace-batch.js';
import type { TraceRow } from './trace-rows.js';

export const platformMigrations: Migrations = {
  '001_keys_and_jobs': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('platform_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('service', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('owner_id', 'text')
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .addColumn('hint', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('platform_keys_owner').on('platform_keys').columns(['service', 'owner_id']).execute();

      await db.schema
        .createTable('platform_jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('queue', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('max_attempts', 'integer', (c) => c.notNull())
        .addColumn('run_at', 'text', (c) => c.notNull())
        .addColumn('locked_until', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('platform_jobs_due')
        .on('platform_jobs')
        .columns(['queue', 'status', 'run_at'])
        .execute();
    },
  },
  // The trace of what agents did (trace.ts): one row per API call, SMTP message, WebSocket
  // command, MCP tool call or domain event; read newest first by time, by key and by service.
  '002_trace': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('platform_trace')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('service', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('key_id', 'text')
        .addColumn('method', 'text')
        .addColumn('route', 'text')
        .addColumn('path', 'text')
        .addColumn('status', 'integer')
        .addColumn('ok', 'integer', (c) => c.notNull())
        .addColumn('duration_ms', 'real')
        .addColumn('summary', 'text')
        .addColumn('detail', 'text')
        .addColumn('request_body', 'text')
        .addColumn('response_body', 'text')
        .execute();
      await db.schema.createIndex('platform_trace_at').on('platform_trace').columns(['at', 'id']).execute();
      await db.schema.createIndex('platform_trace_key').on('platform_trace').columns(['key_id', 'at']).execute();
      await db.schema.createIndex('platform_trace_service').on('platform_trace').columns(['service', 'at']).execute();
    },
  },
  // The trace is written on every API call, so each index is paid for on every read of every
  // service: on PostgreSQL the four indexes of 002 cost more than the row itself. Two are kept:
  // (at, id), which every page is read by, and (key_id, at), because one agent's calls can be a
  // thin slice of a long trace. The primary key on id goes (ids are unique by construction:
  // microseconds of this process plus its tag, and nothing looks a row up by id); filtering by
  // service reads the time index, since each of the five services is a large share of the rows.
  // The table is rebuilt because SQLite cannot drop a primary key in place.
  '003_trace_fewer_indexes': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('platform_trace_next')
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('service', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('key_id', 'text')
        .addColumn('method', 'text')
        .addColumn('route', 'text')
        .addColumn('path', 'text')
        .addColumn('status', 'integer')
        .addColumn('ok', 'integer', (c) => c.notNull())
        .addColumn('duration_ms', 'real')
        .addColumn('summary', 'text')
        .addColumn('detail', 'text')
        .addColumn('request_body', 'text')
        .addColumn('response_body', 'text')
        .execute();
      await db.insertInto('platform_trace_next').expression(db.selectFrom('platform_trace').selectAll()).execute();
      await db.schema.dropTable('platform_trace').execute();
      await db.schema.alterTable('platform_trace_next').renameTo('platform_trace').execute();
      await db.schema.createIndex('platform_trace_at').on('platform_trace').columns(['at', 'id']).execute();
      await db.schema.createIndex('platform_trace_key').on('platform_trace').columns(['key_id', 'at']).execute();
    },
  },
  // Episodes (docs/evaluations.md): every restore or reset of the world starts a new epoch of
  // the trace, so an evaluator reads one episode's entries and nothing of an undone timeline;
  // `seq` orders entries where a frozen clock gives them all the same time. Entries written
  // before carry epoch 0. One index, read by the episode's own trace.
  '004_trace_epochs': {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('platform_trace')
        .addColumn('epoch', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('platform_trace')
        .addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('platform_trace_epoch').on('platform_trace').columns(['epoch', 'seq']).execute();
    },
  },
  // The platform clock kept across restarts (clock-store.ts): one row, the clock as JSON.
  '005_clock': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('platform_clock')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('saved_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  // Issue 31: a row per entry cost every call a row and three index entries, the trace's
  // writer 12–19 µs of CPU per call, taken from the services on a small machine. The table now
  // holds a row per stored batch (trace-batch.ts): its entries in one compact text, with the
  // ranges and sets reads select batches by. Existing entries move over, 2,000 to a row, in
  // their order.
  '006_trace_batches': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('platform_trace_batches')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('at_min', 'text', (c) => c.notNull())
        .addColumn('at_max', 'text', (c) => c.notNull())
        .addColumn('epoch_min', 'integer', (c) => c.notNull())
        .addColumn('epoch_max', 'integer', (c) => c.notNull())
        .addColumn('seq_min', 'integer', (c) => c.notNull())
        .addColumn('seq_max', 'integer', (c) => c.notNull())
        .addColumn('entries', 'integer', (c) => c.notNull())
        .addColumn('keys', 'text', (c) => c.notNull())
        .addColumn('services', 'text', (c) => c.notNull())
        .addColumn('kinds', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .execute();
      let after: { at: string; id: string } | undefined;
      for (;;) {
        let page = db.selectFrom('platform_trace').selectAll();
        if (after) {
          const { at, id } = after;
          page = page.where((eb) => eb.or([eb('at', '>', at), eb.and([eb('at', '=', at), eb('id', '>', id)])]));
        }
        const rows = (await page.orderBy('at').orderBy('id').limit(2000).execute()) as TraceRow[];
        if (!rows.length) break;
        await db.insertInto('platform_trace_batches').values(encodeBatch(rows)).execute();
        after = rows[rows.length - 1];
      }
      await db.schema.dropTable('platform_trace').execute();
      await db.schema.alterTable('platform_trace_batches').renameTo('platform_trace').execute();
      await db.schema.createIndex('platform_trace_at_max').on('platform_trace').columns(['at_max']).execute();
      await db.schema.createIndex('platform_trace_at_min').on('platform_trace').columns(['at_min']).execute();
    },
  },
};
