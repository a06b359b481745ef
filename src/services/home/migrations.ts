// The home's tables. Times are epoch seconds as double precision (HA's recorder does the
// same), so history ranges are numeric index scans on either database.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Migrations } from '../../platform/db.js';

const m001: Migration = {
  async up(db: Kysely<any>) {
    // The current state of every entity: the durable copy of the in-memory state machine.
    await db.schema
      .createTable('home_entities')
      .addColumn('entity_id', 'text', (c) => c.primaryKey())
      .addColumn('data', 'text', (c) => c.notNull())
      .execute();
    // Recorder: every state change.
    await db.schema
      .createTable('home_states')
      .addColumn('entity_id', 'text', (c) => c.notNull())
      .addColumn('state', 'text')
      .addColumn('attributes', 'text', (c) => c.notNull())
      .addColumn('last_changed_ts', sql`double precision`, (c) => c.notNull())
      .addColumn('last_updated_ts', sql`double precision`, (c) => c.notNull())
      .addColumn('context_id', 'text')
      .addColumn('context_user_id', 'text')
      .addColumn('context_parent_id', 'text')
      .execute();
    await db.schema
      .createIndex('home_states_entity_time')
      .on('home_states')
      .columns(['entity_id', 'last_updated_ts'])
      .execute();
    await db.schema.createIndex('home_states_time').on('home_states').column('last_updated_ts').execute();
    await db.schema.createIndex('home_states_context').on('home_states').column('context_id').execute();
    // Recorder: every event except state_changed (those are the rows above).
    await db.schema
      .createTable('home_events')
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('origin', 'text', (c) => c.notNull())
      .addColumn('time_fired_ts', sql`double precision`, (c) => c.notNull())
      .addColumn('context_id', 'text')
      .addColumn('context_user_id', 'text')
      .addColumn('context_parent_id', 'text')
      .execute();
    await db.schema.createIndex('home_events_time').on('home_events').columns(['time_fired_ts']).execute();
    await db.schema.createIndex('home_events_context').on('home_events').column('context_id').execute();
    // Automations created or changed over the config API; `config` NULL marks one deleted from the file.
    await db.schema
      .createTable('home_automations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('config', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    for (const t of ['home_automations', 'home_events', 'home_states', 'home_entities'])
      await db.schema.dropTable(t).ifExists().execute();
  },
};

export const migrations: Migrations = { '001_home': m001 };
