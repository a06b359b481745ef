// History and logbook over the WebSocket, as HA's frontend uses them:
// history/history_during_period and history/stream (compressed rows, then live rows), and
// logbook/get_events and logbook/event_stream (entries with `when` in epoch seconds).
import { MATCH_ALL } from '../core/bus.js';
import type { State } from '../core/state.js';
import { parseIsoUs } from '../core/time.js';
import { compressedHistory, liveHistoryRow, type CompressedHistoryOptions } from '../recorder/history-compressed.js';
import { logbook } from '../recorder/logbook.js';
import { liveLogbookEntry, RecentCalls } from '../recorder/logbook-live.js';
import type { Command, Session } from './commands.js';
import { CommandError, expectStr, formatError, type Msg } from './messages.js';

const DAY_US = 86_400_000_000;

function time(msg: Msg, key: 'start_time' | 'end_time', required: boolean): number | undefined {
  const text = expectStr(msg, key, required);
  if (text === undefined) return undefined;
  const us = parseIsoUs(text);
  if (us === undefined) throw new CommandError(`invalid_${key}`, `Invalid ${key}`);
  return us;
}

function flag(msg: Msg, key: string, fallback: boolean): boolean {
  const v = msg[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean')
    throw formatError(`expected bool for dictionary value @ data['${key}']. Got ${JSON.stringify(v)}`);
  return v;
}

function idList(msg: Msg, key: string, required: boolean): string[] | undefined {
  const v = msg[key];
  if (v === undefined && !required) return undefined;
  if (v === undefined) throw formatError(`required key not provided @ data['${key}']`);
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
    throw formatError(`expected a list for dictionary value @ data['${key}']`);
  return (v as string[]).map((x) => x.toLowerCase());
}

function historyOptions(s: Session, msg: Msg): CompressedHistoryOptions {
  const startUs = time(msg, 'start_time', true)!;
  const endUs = time(msg, 'end_time', false);
  if (endUs !== undefined && endUs < startUs) throw new CommandError('invalid_end_time', 'Invalid end_time');
  return {
    entityIds: idList(msg, 'entity_ids', true)!,
    startUs,
    endUs: endUs ?? Math.max(s.home.nowUs(), startUs + DAY_US),
    includeStartTimeState: flag(msg, 'include_start_time_state', true),
    significantChangesOnly: flag(msg, 'significant_changes_only', true),
    minimalResponse: flag(msg, 'minimal_response', false),
    noAttributes: flag(msg, 'no_attributes', false),
  };
}

/** Entity ids of `entity_ids` plus those of the devices in `device_ids` (undefined: all). */
function logbookEntities(s: Session, msg: Msg): string[] | undefined {
  const entityIds = idList(msg, 'entity_ids', false);
  const deviceIds = msg.device_ids === undefined ? undefined : (idList(msg, 'device_ids', false) ?? []);
  if (!entityIds && !deviceIds) return undefined;
  return [...(entityIds ?? []), ...(deviceIds ?? []).flatMap((d) => s.home.registry.entitiesOfDevice(d))];
}

const sec = (us: number) => us / 1_000_000;
const epochWhen = (entries: Record<string, unknown>[]) =>
  entries.map((e) => ({ ...e, when: sec(parseIsoUs(String(e.when)) ?? 0) }));

export const historyCommands: Record<string, Command> = {
  async 'history/history_during_period'(s, msg) {
    const o = historyOptions(s, msg);
    if (o.startUs > s.home.nowUs()) return s.result(msg.id, {});
    await s.persist.commit();
    s.result(msg.id, await compressedHistory(s.store, o));
  },

  async 'history/stream'(s, msg) {
    const o = historyOptions(s, msg);
    const id = msg.id;
    const explicitEnd = msg.end_time !== undefined;
    const now = s.home.nowUs();
    const wanted = new Set(o.entityIds);
    const send = (event: unknown) => s.send(JSON.stringify({ id, type: 'event', event }));
    // Live rows that arrive while the past is read wait, so the client sees them in order.
    let queued: Record<string, unknown[]> | undefined = {};
    const live = explicitEnd && o.endUs <= now;
    const seen = new Set<string>();
    // Reading the past is async: a client that unsubscribes meanwhile gets nothing more.
    let open = true;
    if (!live) {
      const stop = s.home.bus.listen('state_changed', (e) => {
        const next = e.data.new_state as State | null;
        if (!next || !wanted.has(next.entity_id)) return;
        const row = liveHistoryRow(e.data.old_state as State | null, next, o, !seen.has(next.entity_id));
        if (!row) return;
        seen.add(next.entity_id);
        if (queued) (queued[next.entity_id] ??= []).push(row);
        else send({ states: { [next.entity_id]: [row] } });
      });
      s.subscribe(id, () => ((open = false), stop()));
    } else s.subscribe(id, () => (open = false));
    s.result(id, null);
    await s.persist.commit();
    const past = await compressedHistory(s.store, { ...o, endUs: live ? o.endUs : now });
    if (!open) return;
    for (const entityId of Object.keys(past)) seen.add(entityId);
    send({ states: past, start_time: sec(o.startUs), end_time: sec(live ? o.endUs : now) });
    const pending = queued;
    queued = undefined;
    if (Object.keys(pending).length) send({ states: pending });
  },

  async 'logbook/get_events'(s, msg) {
    const startUs = time(msg, 'start_time', true)!;
    const endUs = time(msg, 'end_time', false) ?? Math.max(s.home.nowUs(), startUs + DAY_US);
    if (endUs < startUs) throw new CommandError('invalid_end_time', 'Invalid end_time');
    const contextId = expectStr(msg, 'context_id', false);
    await s.persist.commit();
    s.result(
      msg.id,
      epochWhen(await logbook(s.store, { startUs, endUs, entityIds: logbookEntities(s, msg), contextId })),
    );
  },

  async 'logbook/event_stream'(s, msg) {
    const startUs = time(msg, 'start_time', true)!;
    const endUs = time(msg, 'end_time', false);
    const id = msg.id;
    const entityIds = logbookEntities(s, msg);
    const filter = entityIds ? new Set(entityIds) : undefined;
    const now = s.home.nowUs();
    const send = (event: unknown) => s.send(JSON.stringify({ id, type: 'event', event }));
    const calls = new RecentCalls();
    let queued: Record<string, unknown>[] | undefined = [];
    const pastOnly = endUs !== undefined && endUs <= now;
    let open = true;
    if (!pastOnly) {
      const stop = s.home.bus.listen(MATCH_ALL, (e) => {
        if (e.event_type === 'call_service') return calls.note(e);
        const entry = liveLogbookEntry(e, calls, filter);
        if (!entry) return;
        if (queued) queued.push(entry);
        else send({ events: [entry] });
      });
      s.subscribe(id, () => ((open = false), stop()));
    } else s.subscribe(id, () => (open = false));
    s.result(id, null);
    await s.persist.commit();
    const until = pastOnly ? endUs : now;
    const past = epochWhen(await logbook(s.store, { startUs, endUs: until + 1, entityIds }));
    if (!open) return;
    send({ events: past, start_time: sec(startUs), end_time: sec(until) });
    const pending = queued.filter((e) => (e.when as number) > sec(until));
    queued = undefined;
    if (pending.length) send({ events: pending });
  },
};
