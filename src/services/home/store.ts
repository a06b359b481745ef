// The home's SQL, nothing else touches its tables. Writes come in batches from persist.ts;
// on SQLite they run as prepared statements in one transaction, on PostgreSQL as multi-row
// inserts in one transaction.
import type Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Db } from '../../platform/db.js';

export interface StateRow {
  entity_id: string;
  state: string | null;
  attributes: string;
  last_changed_ts: number;
  last_updated_ts: number;
  context_id: string | null;
  context_user_id: string | null;
  context_parent_id: string | null;
}

export interface EventRow {
  event_type: string;
  data: string;
  origin: string;
  time_fired_ts: number;
  context_id: string | null;
  context_user_id: string | null;
  context_parent_id: string | null;
}

interface Tables {
  home_entities: { entity_id: string; data: string };
  home_states: StateRow;
  home_events: EventRow;
  home_automations: { id: string; config: string | null; updated_at: string };
}

export interface Batch {
  /** entity_id -> state JSON, or null to delete. Last write wins within a batch. */
  entities: Map<string, string | null>;
  states: StateRow[];
  events: EventRow[];
}

const STATE_COLS = ['entity_id', 'state', 'attributes', 'last_changed_ts', 'last_updated_ts', 'context_id', 'context_user_id', 'context_parent_id'] as const;
const EVENT_COLS = ['event_type', 'data', 'origin', 'time_fired_ts', 'context_id', 'context_user_id', 'context_parent_id'] as const;
const CHUNK = 500;

/** The home's prepared statements on the embedded handle (prepared once, run only inside `SqliteAccess.run`). */
function prepareStatements(s: Database.Database) {
  const upsert = s.prepare('INSERT INTO home_entities (entity_id, data) VALUES (?, ?) ON CONFLICT(entity_id) DO UPDATE SET data = excluded.data');
  const del = s.prepare('DELETE FROM home_entities WHERE entity_id = ?');
  const insState = s.prepare(`INSERT INTO home_states (${STATE_COLS.join(', ')}) VALUES (${STATE_COLS.map(() => '?').join(', ')})`);
  const insEvent = s.prepare(`INSERT INTO home_events (${EVENT_COLS.join(', ')}) VALUES (${EVENT_COLS.map(() => '?').join(', ')})`);
  const range = 'SELECT * FROM home_states WHERE entity_id = ? AND last_updated_ts > ? AND last_updated_ts < ?';
  return {
    write: s.transaction((b: Batch) => {
      for (const [id, json] of b.entities) json === null ? del.run(id) : upsert.run(id, json);
      for (const r of b.states) insState.run(STATE_COLS.map((c) => r[c]));
      for (const e of b.events) insEvent.run(EVENT_COLS.map((c) => e[c]));
    }),
    // History's two queries (the hot read path).
    at: s.prepare('SELECT * FROM home_states WHERE entity_id = ? AND last_updated_ts <= ? ORDER BY last_updated_ts DESC LIMIT 1'),
    between: s.prepare(`${range} ORDER BY last_updated_ts`),
    betweenChanges: s.prepare(`${range} AND last_changed_ts = last_updated_ts ORDER BY last_updated_ts`),
  };
}

export class HomeStore {
  readonly k: Kysely<Tables>;
  private statements?: ReturnType<typeof prepareStatements>;

  constructor(private readonly db: Db) {
    this.k = db.kysely as Kysely<Tables>;
  }

  /** Runs `work` with the prepared statements when the embedded handle is free; undefined on PostgreSQL. */
  private sqlite<T>(work: (st: ReturnType<typeof prepareStatements>) => T): Promise<T> | undefined {
    return this.db.sqlite?.run((s) => work((this.statements ??= prepareStatements(s))));
  }

  async write(b: Batch): Promise<void> {
    const embedded = this.sqlite((st) => st.write(b));
    if (embedded) return embedded;
    await this.k.transaction().execute(async (trx) => {
      const upserts = [...b.entities].filter(([, j]) => j !== null).map(([entity_id, data]) => ({ entity_id, data: data! }));
      const deletes = [...b.entities].filter(([, j]) => j === null).map(([id]) => id);
      for (let i = 0; i < upserts.length; i += CHUNK) {
        await trx
          .insertInto('home_entities')
          .values(upserts.slice(i, i + CHUNK))
          .onConflict((oc) => oc.column('entity_id').doUpdateSet((eb) => ({ data: eb.ref('excluded.data') })))
          .execute();
      }
      if (deletes.length) await trx.deleteFrom('home_entities').where('entity_id', 'in', deletes).execute();
      for (let i = 0; i < b.states.length; i += CHUNK) await trx.insertInto('home_states').values(b.states.slice(i, i + CHUNK)).execute();
      for (let i = 0; i < b.events.length; i += CHUNK) await trx.insertInto('home_events').values(b.events.slice(i, i + CHUNK)).execute();
    });
  }

  async loadEntities(): Promise<string[]> {
    const rows = await this.k.selectFrom('home_entities').select('data').execute();
    return rows.map((r) => r.data);
  }

  /** The last recorded row of an entity at or before `ts` (the state in force then). */
  async stateAt(entityId: string, ts: number): Promise<StateRow | undefined> {
    const embedded = this.sqlite((st) => st.at.get(entityId, ts) as StateRow | undefined);
    if (embedded) return embedded;
    return this.k
      .selectFrom('home_states')
      .selectAll()
      .where('entity_id', '=', entityId)
      .where('last_updated_ts', '<=', ts)
      .orderBy('last_updated_ts', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Rows of an entity after `start` up to `end`, ascending; only state-string changes when asked. */
  async statesBetween(entityId: string, start: number, end: number, stateChangesOnly: boolean): Promise<StateRow[]> {
    const embedded = this.sqlite((st) => (stateChangesOnly ? st.betweenChanges : st.between).all(entityId, start, end) as StateRow[]);
    if (embedded) return embedded;
    let q = this.k
      .selectFrom('home_states')
      .selectAll()
      .where('entity_id', '=', entityId)
      .where('last_updated_ts', '>', start)
      .where('last_updated_ts', '<', end);
    if (stateChangesOnly) q = q.whereRef('last_changed_ts', '=', 'last_updated_ts');
    return q.orderBy('last_updated_ts').execute();
  }

  /** State-string changes in a time range, for the logbook. */
  async stateChanges(start: number, end: number, filter: { entityIds?: string[]; contextId?: string }): Promise<StateRow[]> {
    let q = this.k
      .selectFrom('home_states')
      .selectAll()
      .where('last_updated_ts', '>=', start)
      .where('last_updated_ts', '<', end)
      .whereRef('last_changed_ts', '=', 'last_updated_ts');
    if (filter.entityIds) q = q.where('entity_id', 'in', filter.entityIds);
    if (filter.contextId) q = q.where('context_id', '=', filter.contextId);
    return q.orderBy('last_updated_ts').limit(100_000).execute();
  }

  async eventsOfTypes(start: number, end: number, types: string[], contextId?: string): Promise<EventRow[]> {
    let q = this.k.selectFrom('home_events').selectAll().where('time_fired_ts', '>=', start).where('time_fired_ts', '<', end).where('event_type', 'in', types);
    if (contextId) q = q.where('context_id', '=', contextId);
    return q.orderBy('time_fired_ts').limit(100_000).execute();
  }

  /** The events that started each context (a service call, an automation run), for logbook causes. */
  async originEvents(contextIds: string[]): Promise<EventRow[]> {
    const out: EventRow[] = [];
    for (let i = 0; i < contextIds.length; i += CHUNK) {
      out.push(
        ...(await this.k
          .selectFrom('home_events')
          .selectAll()
          .where('context_id', 'in', contextIds.slice(i, i + CHUNK))
          .where('event_type', 'in', ['call_service', 'automation_triggered'])
          .orderBy('time_fired_ts')
          .execute()),
      );
    }
    return out;
  }

  async stateOfContext(contextIds: string[]): Promise<StateRow[]> {
    if (!contextIds.length) return [];
    return this.k.selectFrom('home_states').selectAll().where('context_id', 'in', contextIds.slice(0, CHUNK)).orderBy('last_updated_ts').execute();
  }

  /** Deletes recorder rows older than `before` (epoch seconds); returns how many. */
  async purge(before: number): Promise<number> {
    const a = await this.k.deleteFrom('home_states').where('last_updated_ts', '<', before).executeTakeFirst();
    const b = await this.k.deleteFrom('home_events').where('time_fired_ts', '<', before).executeTakeFirst();
    return Number(a.numDeletedRows ?? 0) + Number(b.numDeletedRows ?? 0);
  }

  async automationOverrides(): Promise<Array<{ id: string; config: string | null }>> {
    return this.k.selectFrom('home_automations').select(['id', 'config']).execute();
  }

  async putAutomation(id: string, config: string | null, now: string): Promise<void> {
    await this.k
      .insertInto('home_automations')
      .values({ id, config, updated_at: now })
      .onConflict((oc) => oc.column('id').doUpdateSet({ config, updated_at: now }))
      .execute();
  }
}
