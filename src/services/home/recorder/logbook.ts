// `/api/logbook/<start>`: state-string changes (continuous sensors left out), automation runs
// and logbook entries, ascending, each with what caused it (a service call, an automation,
// a user) resolved from the context's originating event.
import type { HomeStore } from '../store/index.js';
import type { EventRow, StateRow } from '../store/tables.js';
import { required, str } from '../core/fields.js';
import type { Home } from '../core/home.js';
import { isoUs } from '../core/time.js';

export interface LogbookOptions {
  startUs: number;
  endUs: number;
  entityIds?: string[];
  contextId?: string;
}

const iso = (seconds: number) => isoUs(Math.round(seconds * 1_000_000));

interface Entry {
  t: number;
  entry: Record<string, unknown>;
  contextId: string | null;
  userId: string | null;
}

export async function logbook(store: HomeStore, o: LogbookOptions): Promise<Record<string, unknown>[]> {
  const start = o.startUs / 1_000_000;
  const end = o.endUs / 1_000_000;
  const [stateRows, eventRows] = await Promise.all([
    store.stateChanges(start, end, { entityIds: o.entityIds, contextId: o.contextId }),
    store.eventsOfTypes(start, end, ['automation_triggered', 'logbook_entry'], o.contextId),
  ]);
  const entries: Entry[] = [];
  for (const r of stateRows) {
    const attrs = JSON.parse(r.attributes) as Record<string, unknown>;
    if ('unit_of_measurement' in attrs || 'state_class' in attrs) continue;
    const name = typeof attrs.friendly_name === 'string' ? attrs.friendly_name : r.entity_id;
    entries.push({
      t: r.last_updated_ts,
      entry: {
        when: iso(r.last_updated_ts),
        state: r.state,
        entity_id: r.entity_id,
        name,
        ...(typeof attrs.icon === 'string' ? { icon: attrs.icon } : {}),
      },
      contextId: r.context_id,
      userId: r.context_user_id,
    });
  }
  for (const e of eventRows) {
    const data = JSON.parse(e.data) as Record<string, unknown>;
    if (o.entityIds && !o.entityIds.includes(String(data.entity_id))) continue;
    if (e.event_type === 'automation_triggered') {
      entries.push({
        t: e.time_fired_ts,
        entry: {
          when: iso(e.time_fired_ts),
          name: data.name,
          message: `triggered by ${String(data.source ?? 'unknown')}`,
          source: data.source ?? null,
          entity_id: data.entity_id,
          context_id: e.context_id,
          domain: 'automation',
        },
        contextId: e.context_parent_id,
        userId: e.context_user_id,
      });
    } else {
      entries.push({
        t: e.time_fired_ts,
        entry: {
          when: iso(e.time_fired_ts),
          name: data.name,
          message: data.message,
          domain: data.domain ?? null,
          entity_id: data.entity_id ?? null,
        },
        contextId: e.context_id,
        userId: e.context_user_id,
      });
    }
  }
  entries.sort((a, b) => a.t - b.t);
  await addCauses(store, entries);
  return entries.map((e) => e.entry);
}

/** HA's context_* keys: who or what caused each entry. */
async function addCauses(store: HomeStore, entries: Entry[]) {
  const ids = [...new Set(entries.map((e) => e.contextId).filter((x): x is string => !!x))];
  const origins = new Map<string, EventRow>();
  for (const ev of await store.originEvents(ids))
    if (ev.context_id && !origins.has(ev.context_id)) origins.set(ev.context_id, ev);
  // A context without a service call or automation run may have started with a state change (e.g. a device report).
  const stateOrigins = new Map<string, StateRow>();
  const missing = ids.filter((id) => !origins.has(id));
  for (const r of await store.stateOfContext(missing))
    if (r.context_id && !stateOrigins.has(r.context_id)) stateOrigins.set(r.context_id, r);

  for (const e of entries) {
    if (e.userId) e.entry.context_user_id = e.userId;
    if (!e.contextId) continue;
    const ev = origins.get(e.contextId);
    if (ev?.event_type === 'call_service') {
      const data = JSON.parse(ev.data) as Record<string, unknown>;
      Object.assign(e.entry, {
        context_event_type: 'call_service',
        context_domain: data.domain,
        context_service: data.service,
      });
    } else if (ev?.event_type === 'automation_triggered') {
      const data = JSON.parse(ev.data) as Record<string, unknown>;
      if (data.entity_id === e.entry.entity_id && e.entry.domain === 'automation') continue;
      Object.assign(e.entry, {
        context_event_type: 'automation_triggered',
        context_domain: 'automation',
        context_entity_id: data.entity_id,
        context_entity_id_name: data.name,
        context_name: data.name,
        context_message: `triggered by ${String(data.source ?? 'unknown')}`,
        context_source: data.source ?? null,
      });
    } else {
      const st = stateOrigins.get(e.contextId);
      if (st && st.entity_id !== e.entry.entity_id) {
        const attrs = JSON.parse(st.attributes) as Record<string, unknown>;
        Object.assign(e.entry, {
          context_entity_id: st.entity_id,
          context_entity_id_name: attrs.friendly_name ?? st.entity_id,
          context_state: st.state,
        });
      }
    }
  }
}

/** `logbook.log {name, message, entity_id?, domain?}`: a custom logbook entry (HA's service). */
export function registerLogbookService(home: Home): void {
  home.registerService('logbook', {
    service: 'log',
    name: 'Log',
    description: 'Creates a custom entry in the logbook.',
    fields: { name: required(str()), message: required(str()), entity_id: str(), domain: str() },
    run: (d, ctx) => {
      home.fire(
        'logbook_entry',
        {
          name: d.name,
          message: d.message,
          domain: d.domain ?? (typeof d.entity_id === 'string' ? d.entity_id.split('.')[0] : null),
          entity_id: d.entity_id ?? null,
        },
        ctx.context,
      );
    },
  });
}
