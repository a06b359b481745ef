// logbook/event_stream's live part: the entries a bus event makes, as the recorded logbook
// (logbook.ts) would show them, with `when` in epoch seconds. The cause of a state change
// (context_event_type/domain/service) is found among the service calls this stream has seen.
import type { HomeEvent } from '../core/bus.js';
import type { State } from '../core/state.js';

/** Remembers the last service calls by context id (a bounded window: causes are recent). */
export class RecentCalls {
  private readonly calls = new Map<string, { domain: unknown; service: unknown }>();

  note(e: HomeEvent): void {
    this.calls.set(e.context.id, { domain: e.data.domain, service: e.data.service });
    if (this.calls.size > 1000) this.calls.delete(this.calls.keys().next().value!);
  }

  get(contextId: string) {
    return this.calls.get(contextId);
  }
}

/** The logbook entry of a bus event, or undefined when the logbook leaves it out. */
export function liveLogbookEntry(
  e: HomeEvent,
  calls: RecentCalls,
  entityIds?: Set<string>,
): Record<string, unknown> | undefined {
  const when = e.timeUs / 1_000_000;
  const cause = (entry: Record<string, unknown>) => {
    if (e.context.user_id) entry.context_user_id = e.context.user_id;
    const call = calls.get(e.context.id);
    if (call)
      Object.assign(entry, {
        context_event_type: 'call_service',
        context_domain: call.domain,
        context_service: call.service,
      });
    return entry;
  };
  if (e.event_type === 'state_changed') {
    const old = e.data.old_state as State | null;
    const next = e.data.new_state as State | null;
    if (!next || (old && old.state === next.state)) return undefined;
    if (entityIds && !entityIds.has(next.entity_id)) return undefined;
    if ('unit_of_measurement' in next.attributes || 'state_class' in next.attributes) return undefined;
    const icon = next.attributes.icon;
    return cause({
      when,
      state: next.state,
      entity_id: next.entity_id,
      name: next.name,
      ...(typeof icon === 'string' ? { icon } : {}),
    });
  }
  const entityId = e.data.entity_id;
  if (entityIds && !entityIds.has(String(entityId))) return undefined;
  if (e.event_type === 'automation_triggered') {
    return {
      when,
      name: e.data.name,
      message: `triggered by ${String(e.data.source ?? 'unknown')}`,
      source: e.data.source ?? null,
      entity_id: entityId,
      context_id: e.context.id,
      domain: 'automation',
    };
  }
  if (e.event_type === 'logbook_entry') {
    return cause({
      when,
      name: e.data.name,
      message: e.data.message,
      domain: e.data.domain ?? null,
      entity_id: entityId ?? null,
    });
  }
  return undefined;
}
