// The durable copy of the state machine (home_entities) and the recorder (home_states,
// home_events). Writes come in batches from the recorder's persister: on SQLite they run as
// prepared statements in one transaction, on PostgreSQL as multi-row inserts in one transaction.
import { sql, type Kysely } from 'kysely';
import type { Db } from '../../../platform/db.js';
import { prepareStatements, type Statements } from './statements.js';
import type { EventRow, HomeTables, StateRow } from './tables.js';

export interface Batch {
  /** entity_id -> state JSON, or null to delete. Last write wins within a batch. */
  entities: Map<string, string | null>;
  states: StateRow[];
  events: EventRow[];
}

const CHUNK = 500;

export class HomeStore {
  private readonly k: Kysely<HomeTables>;
  private statements?: Statements;

  constructor(private readonly db: Db) {
    this.k = db.kysely as Kysely<HomeTables>;
  }

  /** Runs `work` with the prepared statements when the embedded handle is free; undefined on PostgreSQL. */
  private sqlite<T>(work: (st: Statements) => T): Promise<T> | undefined {
    return this.db.sqlite?.run((s) => work((this.statements ??= prepareStatements(s))));
  }

  async write(b: Batch): Promise<void> {
    const embedded = this.sqlite((st) => st.write(b));
    if (embedded) return embedded;
    await this.k.transaction().execute(async (trx) => {
      const upserts = [...b.entities]
        .filter(([, j]) => j !== null)
        .map(([entity_id, data]) => ({ entity_id, data: data! }));
      const deletes = [...b.entities].filter(([, j]) => j === null).map(([id]) => id);
      for (let i = 0; i < upserts.length; i += CHUNK) {
        await trx
          .insertInto('home_entities')
          .values(upserts.slice(i, i + CHUNK))
          // Instances of a cluster store their own writes: an older write that commits late
          // does not replace a newer one (last_updated is ISO with microseconds, so it sorts as text).
          .onConflict((oc) =>
            oc
              .column('entity_id')
              .doUpdateSet((eb) => ({ data: eb.ref('excluded.data') }))
              .where(
                sql<boolean>`(excluded.data::json->>'last_updated') >= (home_entities.data::json->>'last_updated')`,
              ),
          )
          .execute();
      }
      if (deletes.length) await trx.deleteFrom('home_entities').where('entity_id', 'in', deletes).execute();
      for (let i = 0; i < b.states.length; i += CHUNK)
        await trx
          .insertInto('home_states')
          .values(b.states.slice(i, i + CHUNK))
          .execute();
      for (let i = 0; i < b.events.length; i += CHUNK)
        await trx
          .insertInto('home_events')
          .values(b.events.slice(i, i + CHUNK))
          .execute();
    });
  }

  /** Every stored entity state, as the JSON it was written with. */
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
    const embedded = this.sqlite(
      (st) => (stateChangesOnly ? st.betweenChanges : st.between).all(entityId, start, end) as StateRow[],
    );
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
  async stateChanges(
    start: number,
    end: number,
    filter: { entityIds?: string[]; contextId?: string },
  ): Promise<StateRow[]> {
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
    let q = this.k
      .selectFrom('home_events')
      .selectAll()
      .where('time_fired_ts', '>=', start)
      .where('time_fired_ts', '<', end)
      .where('event_type', 'in', types);
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
    return this.k
      .selectFrom('home_states')
      .selectAll()
      .where('context_id', 'in', contextIds.slice(0, CHUNK))
      .orderBy('last_updated_ts')
      .execute();
  }

  /** Deletes recorder rows older than `before` (epoch seconds); returns how many. */
  async purge(before: number): Promise<number> {
    const a = await this.k.deleteFrom('home_states').where('last_updated_ts', '<', before).executeTakeFirst();
    const b = await this.k.deleteFrom('home_events').where('time_fired_ts', '<', before).executeTakeFirst();
    return Number(a.numDeletedRows ?? 0) + Number(b.numDeletedRows ?? 0);
  }
}
