// The home's prepared statements on the embedded SQLite handle: the batch write and history's
// two queries (the hot paths). Prepared once, run only inside `SqliteAccess.run`.
import type Database from 'better-sqlite3';
import { EVENT_COLUMNS, STATE_COLUMNS } from './tables.js';
import type { Batch } from './index.js';

export type Statements = ReturnType<typeof prepareStatements>;

export function prepareStatements(s: Database.Database) {
  const upsert = s.prepare(
    'INSERT INTO home_entities (entity_id, data) VALUES (?, ?) ON CONFLICT(entity_id) DO UPDATE SET data = excluded.data',
  );
  const del = s.prepare('DELETE FROM home_entities WHERE entity_id = ?');
  const insState = s.prepare(
    `INSERT INTO home_states (${STATE_COLUMNS.join(', ')}) VALUES (${STATE_COLUMNS.map(() => '?').join(', ')})`,
  );
  const insEvent = s.prepare(
    `INSERT INTO home_events (${EVENT_COLUMNS.join(', ')}) VALUES (${EVENT_COLUMNS.map(() => '?').join(', ')})`,
  );
  const range = 'SELECT * FROM home_states WHERE entity_id = ? AND last_updated_ts > ? AND last_updated_ts < ?';
  return {
    write: s.transaction((b: Batch) => {
      for (const [id, json] of b.entities) json === null ? del.run(id) : upsert.run(id, json);
      for (const r of b.states) insState.run(STATE_COLUMNS.map((c) => r[c]));
      for (const e of b.events) insEvent.run(EVENT_COLUMNS.map((c) => e[c]));
    }),
    at: s.prepare(
      'SELECT * FROM home_states WHERE entity_id = ? AND last_updated_ts <= ? ORDER BY last_updated_ts DESC LIMIT 1',
    ),
    between: s.prepare(`${range} ORDER BY last_updated_ts`),
    betweenChanges: s.prepare(`${range} AND last_changed_ts = last_updated_ts ORDER BY last_updated_ts`),
  };
}
