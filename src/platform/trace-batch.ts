// The trace's stored form (issue 31): one row of platform_trace per batch the writer stores,
// its entries in one compact JSON text, with the batch's ranges (time, epoch, sequence) and the
// key ids, services and kinds it holds as columns that reads select batches by. A row per entry
// cost SQLite the row and three index entries for every call (12–19 µs of the writer's CPU on a
// busy machine, taken from the services and their clients on two cores); a row per batch costs
// that once per up to 2,000 entries, and the text is small because a batch repeats itself:
// every string (service, route, path, key id) is kept once in a table and named by its index,
// columns whose values are all the same are kept as that one value, times and ids as
// differences from the entry before.
import type { TraceRow } from './trace-rows.js';

/** A row of platform_trace: one stored batch. */
export interface BatchRow {
  /** The id of the batch's first entry (entry ids are unique, so this is too). */
  id: string;
  at_min: string;
  at_max: string;
  epoch_min: number;
  epoch_max: number;
  seq_min: number;
  seq_max: number;
  /** How many entries `data` holds. */
  entries: number;
  /** The key ids, services and kinds of its entries, each between spaces (" a b "), for `LIKE '% a %'`. */
  keys: string;
  services: string;
  kinds: string;
  data: string;
}

/** A column of the encoding: one value for every entry, or an array of them. */
type Column<T> = T | T[];

/** The JSON a batch's `data` holds (version 1). */
interface Encoded {
  v: 1;
  n: number;
  /** The strings the columns name by index (-1 is null). */
  s: string[];
  /** Ids: with `tag`, differences of their numbers (the first one whole); without, the ids themselves. */
  tag?: string;
  id: number[] | string[];
  /** Times: with `ms`, differences of milliseconds (the first one whole); without, the ISO texts. */
  ms?: 1;
  at: number[] | string[];
  seq: Column<number>;
  epoch: Column<number>;
  service: Column<number>;
  kind: Column<number>;
  key: Column<number>;
  method: Column<number>;
  route: Column<number>;
  path: Column<number>;
  status: Column<number | null>;
  ok: Column<number>;
  dur: Column<number | null>;
  /** The rare fields, by entry index: summary, detail, request body, response body. */
  x?: Record<string, [string | null, string | null, string | null, string | null]>;
}

/** The numbers an entry's id and time are made of, as the writer has them (no parsing back from text). */
export interface BatchNumbers {
  tag: string;
  /** Per entry: the id's number (trace-rows.ts idText) and the clock's time in ms. */
  ids: number[];
  ms: number[];
}

/** The id a number and a tag make (what trace-rows.ts stores). */
export const idText = (id: number, tag: string): string => `${id.toString(36).padStart(11, '0')}${tag}`;

/** A column kept as one value when every entry has the same. */
function column<T>(values: T[]): Column<T> {
  const first = values[0];
  for (let i = 1; i < values.length; i++) if (values[i] !== first) return values;
  return first;
}

const differences = (values: number[]): number[] => values.map((v, i) => (i === 0 ? v : v - values[i - 1]));

/** `rows` as one stored batch (they are in the order recorded; `numbers` when the writer made them, else read from the rows). */
export function encodeBatch(rows: readonly TraceRow[], numbers?: BatchNumbers): BatchRow {
  const n = rows.length;
  const strings: string[] = [];
  const index = new Map<string, number>();
  const intern = (text: string | null): number => {
    if (text === null) return -1;
    let i = index.get(text);
    if (i === undefined) {
      i = strings.length;
      strings.push(text);
      index.set(text, i);
    }
    return i;
  };
  const cols = {
    service: new Array<number>(n),
    kind: new Array<number>(n),
    key: new Array<number>(n),
    method: new Array<number>(n),
    route: new Array<number>(n),
    path: new Array<number>(n),
    status: new Array<number | null>(n),
    ok: new Array<number>(n),
    dur: new Array<number | null>(n),
    epoch: new Array<number>(n),
  };
  let x: Encoded['x'];
  let seqConsecutive = true;
  // With the numbers, the rows' id and at may be empty (trace-rows.ts): the edges come from the numbers.
  let atMin = numbers ? '' : rows[0].at;
  let atMax = atMin;
  let epochMin = Infinity;
  let epochMax = -Infinity;
  let seqMin = Infinity;
  let seqMax = -Infinity;
  const keys = new Set<string>();
  const services = new Set<string>();
  const kinds = new Set<string>();
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    const seq = Number(r.seq);
    const epoch = Number(r.epoch);
    if (i > 0 && seq !== Number(rows[i - 1].seq) + 1) seqConsecutive = false;
    if (!numbers) {
      if (r.at < atMin) atMin = r.at;
      if (r.at > atMax) atMax = r.at;
    }
    if (epoch < epochMin) epochMin = epoch;
    if (epoch > epochMax) epochMax = epoch;
    if (seq < seqMin) seqMin = seq;
    if (seq > seqMax) seqMax = seq;
    if (r.key_id !== null) keys.add(r.key_id);
    services.add(r.service);
    kinds.add(r.kind);
    cols.epoch[i] = epoch;
    cols.service[i] = intern(r.service);
    cols.kind[i] = intern(r.kind);
    cols.key[i] = intern(r.key_id);
    cols.method[i] = intern(r.method);
    cols.route[i] = intern(r.route);
    cols.path[i] = intern(r.path);
    cols.status[i] = r.status === null ? null : Number(r.status);
    cols.ok[i] = Number(r.ok);
    cols.dur[i] = r.duration_ms === null ? null : Number(r.duration_ms);
    if (r.summary !== null || r.detail !== null || r.request_body !== null || r.response_body !== null)
      (x ??= {})[i] = [r.summary, r.detail, r.request_body, r.response_body];
  }
  const encoded: Encoded = {
    v: 1,
    n,
    s: strings,
    ...identities(rows, numbers),
    seq: seqConsecutive ? Number(rows[0].seq) : rows.map((r) => Number(r.seq)),
    epoch: column(cols.epoch),
    service: column(cols.service),
    kind: column(cols.kind),
    key: column(cols.key),
    method: column(cols.method),
    route: column(cols.route),
    path: column(cols.path),
    status: column(cols.status),
    ok: column(cols.ok),
    dur: column(cols.dur),
    ...(x ? { x } : {}),
  };
  if (numbers) {
    let min = Infinity;
    let max = -Infinity;
    for (const ms of numbers.ms) {
      if (ms < min) min = ms;
      if (ms > max) max = ms;
    }
    atMin = new Date(min).toISOString();
    atMax = new Date(max).toISOString();
  }
  const spaced = (set: Set<string>) => ` ${[...set].join(' ')} `;
  return {
    id: numbers ? idText(numbers.ids[0], numbers.tag) : rows[0].id,
    at_min: atMin,
    at_max: atMax,
    epoch_min: epochMin,
    epoch_max: epochMax,
    seq_min: seqMin,
    seq_max: seqMax,
    entries: n,
    keys: spaced(keys),
    services: spaced(services),
    kinds: spaced(kinds),
    data: JSON.stringify(encoded),
  };
}

/** Ids and times as numbers when they are what the writer makes (always, but for entries from before this form), else as texts. */
function identities(rows: readonly TraceRow[], numbers?: BatchNumbers): Pick<Encoded, 'tag' | 'id' | 'ms' | 'at'> {
  if (numbers) return { tag: numbers.tag, id: differences(numbers.ids), ms: 1, at: differences(numbers.ms) };
  const parsed = parsedIdentities(rows);
  if (parsed) return { tag: parsed.tag, id: differences(parsed.ids), ms: 1, at: differences(parsed.ms) };
  return { id: rows.map((r) => r.id), at: rows.map((r) => r.at) };
}

/** The numbers of ids and times read back from their texts, when every one reads back to the same text. */
function parsedIdentities(rows: readonly TraceRow[]): BatchNumbers | undefined {
  const tag = rows[0].id.slice(11);
  const ids: number[] = [];
  const ms: number[] = [];
  for (const r of rows) {
    const id = parseInt(r.id.slice(0, 11), 36);
    const at = Date.parse(r.at);
    if (r.id.length !== 11 + tag.length || idText(id, tag) !== r.id) return undefined;
    if (Number.isNaN(at) || new Date(at).toISOString() !== r.at) return undefined;
    ids.push(id);
    ms.push(at);
  }
  return { tag, ids, ms };
}

const at = <T>(c: Column<T>, i: number): T => (Array.isArray(c) ? c[i] : c);

/** The rows a batch's `data` holds, in the order they were recorded. */
export function decodeBatch(data: string): TraceRow[] {
  const e = JSON.parse(data) as Encoded;
  const rows: TraceRow[] = new Array<TraceRow>(e.n);
  const text = (c: Column<number>, i: number): string | null => {
    const k = at(c, i);
    return k < 0 ? null : e.s[k];
  };
  let id = 0;
  let ms = 0;
  let lastMs = NaN;
  let lastIso = '';
  for (let i = 0; i < e.n; i++) {
    let idString: string;
    if (e.tag !== undefined) {
      id += e.id[i] as number;
      idString = idText(id, e.tag);
    } else idString = e.id[i] as string;
    let atString: string;
    if (e.ms) {
      ms += e.at[i] as number;
      if (ms !== lastMs) {
        lastMs = ms;
        lastIso = new Date(ms).toISOString();
      }
      atString = lastIso;
    } else atString = e.at[i] as string;
    const rare = e.x?.[i];
    rows[i] = {
      id: idString,
      epoch: at(e.epoch, i),
      seq: Array.isArray(e.seq) ? e.seq[i] : e.seq + i,
      at: atString,
      service: text(e.service, i)!,
      kind: text(e.kind, i)!,
      key_id: text(e.key, i),
      method: text(e.method, i),
      route: text(e.route, i),
      path: text(e.path, i),
      status: at(e.status, i),
      ok: at(e.ok, i),
      duration_ms: at(e.dur, i),
      summary: rare?.[0] ?? null,
      detail: rare?.[1] ?? null,
      request_body: rare?.[2] ?? null,
      response_body: rare?.[3] ?? null,
    };
  }
  return rows;
}

/** Entries and rows compare by (at, id): the trace's order. */
export function compareRows(a: Pick<TraceRow, 'at' | 'id'>, b: Pick<TraceRow, 'at' | 'id'>): number {
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
