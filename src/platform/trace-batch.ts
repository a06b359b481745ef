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

/** The string columns, as BatchBuilder's indexes of their last strings. */
const Col = { Service: 0, Kind: 1, Key: 2, Method: 3, Route: 4, Path: 5 } as const;

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
  /** Durations in ms; with `cs`, in hundredths of a ms (whole numbers: JSON writes them several times faster than fractions). */
  cs?: 1;
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

/** The texts an entry keeps beside its columns, when it has any: summary, detail, request body, response body. */
export type RareTexts = [string | null, string | null, string | null, string | null];

/**
 * One stored batch, made entry by entry in the order recorded: the writer adds the HTTP calls it
 * captured straight from their numbers (trace-rows.ts encodeCaptured), with no row object per
 * call; encodeBatch adds rows read back or kept.
 */
export class BatchBuilder {
  private readonly strings: string[] = [];
  private readonly index = new Map<string, number>();
  private readonly cols = {
    service: [] as number[],
    kind: [] as number[],
    key: [] as number[],
    method: [] as number[],
    route: [] as number[],
    path: [] as number[],
    status: [] as Array<number | null>,
    ok: [] as number[],
    dur: [] as Array<number | null>,
    epoch: [] as number[],
    seq: [] as number[],
  };
  /**
   * A batch repeats itself: each column mostly holds the very string of the entry before,
   * checked before it is hashed again. Kept in arrays indexed by column (Col), not objects keyed
   * by the column's name: a lookup by a name that varies is a slow, megamorphic one.
   */
  private readonly last: Array<string | null> = ['', '', '', '', '', ''];
  private readonly lastIndex: number[] = [-1, -1, -1, -1, -1, -1];
  private x: Encoded['x'];

  get count(): number {
    return this.cols.seq.length;
  }

  /** The next entry (its id and time go to build()); the duration in ms, stored to two decimals. */
  add(
    epoch: number,
    seq: number,
    service: string,
    kind: string,
    key: string | null,
    method: string | null,
    route: string | null,
    path: string | null,
    status: number | null,
    ok: number,
    durationMs: number | null,
    rare?: RareTexts,
  ): void {
    const c = this.cols;
    const i = c.seq.length;
    c.epoch.push(epoch);
    c.seq.push(seq);
    c.service.push(this.place(Col.Service, service));
    c.kind.push(this.place(Col.Kind, kind));
    c.key.push(this.place(Col.Key, key));
    c.method.push(this.place(Col.Method, method));
    c.route.push(this.place(Col.Route, route));
    c.path.push(this.place(Col.Path, path));
    c.status.push(status);
    c.ok.push(ok);
    c.dur.push(durationMs === null || Number.isNaN(durationMs) ? null : Math.round(durationMs * 100));
    if (rare) (this.x ??= {})[i] = rare;
  }

  /** The next entry from its row (its id and time go to build()). */
  addRow(r: TraceRow): void {
    const rare: RareTexts | undefined =
      r.summary !== null || r.detail !== null || r.request_body !== null || r.response_body !== null
        ? [r.summary, r.detail, r.request_body, r.response_body]
        : undefined;
    this.add(
      Number(r.epoch),
      Number(r.seq),
      r.service,
      r.kind,
      r.key_id,
      r.method,
      r.route,
      r.path,
      r.status === null ? null : Number(r.status),
      Number(r.ok),
      r.duration_ms === null ? null : Number(r.duration_ms),
      rare,
    );
  }

  /** The stored row: ids and times from their numbers, or (rows from before that form) their texts. */
  build(identity: { numbers: BatchNumbers } | { ids: string[]; ats: string[] }): BatchRow {
    const c = this.cols;
    const n = c.seq.length;
    let id: string;
    let atMin: string;
    let atMax: string;
    let ids: Pick<Encoded, 'tag' | 'id' | 'ms' | 'at'>;
    if ('numbers' in identity) {
      const { numbers } = identity;
      id = idText(numbers.ids[0], numbers.tag);
      [atMin, atMax] = range(numbers.ms).map((ms) => new Date(ms).toISOString());
      ids = { tag: numbers.tag, id: differences(numbers.ids), ms: 1, at: differences(numbers.ms) };
    } else {
      id = identity.ids[0];
      atMin = atMax = identity.ats[0];
      for (const at of identity.ats) {
        if (at < atMin) atMin = at;
        if (at > atMax) atMax = at;
      }
      ids = { id: identity.ids, at: identity.ats };
    }
    const [services, kinds, keys] = [column(c.service), column(c.kind), column(c.key)];
    const encoded: Encoded = {
      v: 1,
      n,
      s: this.strings,
      ...ids,
      seq: consecutive(c.seq) ? c.seq[0] : c.seq,
      epoch: column(c.epoch),
      service: services,
      kind: kinds,
      key: keys,
      method: column(c.method),
      route: column(c.route),
      path: column(c.path),
      status: column(c.status),
      ok: column(c.ok),
      cs: 1,
      dur: column(c.dur),
      ...(this.x ? { x: this.x } : {}),
    };
    return {
      id,
      at_min: atMin,
      at_max: atMax,
      ...spans(c.epoch, c.seq),
      keys: this.spaced(keys),
      services: this.spaced(services),
      kinds: this.spaced(kinds),
      data: JSON.stringify(encoded),
    };
  }

  /** Where a column's string is in the batch's strings (-1: null). */
  private place(col: number, text: string | null): number {
    if (text === this.last[col]) return this.lastIndex[col];
    this.last[col] = text;
    let i = -1;
    if (text !== null) {
      const known = this.index.get(text);
      if (known === undefined) {
        i = this.strings.length;
        this.strings.push(text);
        this.index.set(text, i);
      } else i = known;
    }
    return (this.lastIndex[col] = i);
  }

  /** The distinct strings a column names, each between spaces (" a b "), for `LIKE '% a %'`. */
  private spaced(places: Column<number>): string {
    const seen = new Set<number>(Array.isArray(places) ? places : [places]);
    seen.delete(-1);
    return ` ${[...seen].map((p) => this.strings[p]).join(' ')} `;
  }
}

/**
 * The columns of a batch of plain HTTP calls (no bodies, no detail: the writer's usual batch),
 * one typed array each, made by trace-rows.ts encodeCaptured without a call through
 * BatchBuilder.add per entry. Strings are places in `strings` (-1: null).
 */
export interface HttpColumns {
  count: number;
  strings: string[];
  service: Int32Array;
  key: Int32Array;
  method: Int32Array;
  route: Int32Array;
  path: Int32Array;
  status: Float64Array;
  /** In hundredths of a ms, rounded; NaN: none. */
  dur: Float64Array;
  epoch: Float64Array;
  seq: Float64Array;
  numbers: { tag: string; ids: Float64Array; ms: Float64Array };
}

/** A numeric column as its JSON: the one value when every entry has it, else the list (NaN: null). */
function columnJson(values: Float64Array | Int32Array): string {
  const first = values[0];
  let same = true;
  let hasNaN = Number.isNaN(first);
  for (let i = 1; i < values.length; i++) {
    const v = values[i];
    if (v !== first) same = false;
    if (v !== v) hasNaN = true;
  }
  if (hasNaN)
    return JSON.stringify(same && values.length > 0 ? null : Array.from(values, (v) => (Number.isNaN(v) ? null : v)));
  // A typed array's join writes its numbers as JSON does (whole numbers, no exponent below 1e21).
  return same ? String(first) : `[${values.join(',')}]`;
}

/** Differences from the value before (the first whole), as encodeBatch stores ids and times. */
function differencesOf(values: Float64Array): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = i === 0 ? values[0] : values[i] - values[i - 1];
  return out;
}

/**
 * A batch of plain HTTP calls as its stored row: the same encoding as BatchBuilder's (decodeBatch
 * reads both alike), made from typed columns, with its JSON written column by column.
 */
export function encodeHttpColumns(c: HttpColumns): BatchRow {
  const n = c.count;
  const { tag, ids, ms } = c.numbers;
  const [atMin, atMax] = range(ms).map((t) => new Date(t).toISOString());
  const strings = [...c.strings, 'http'];
  const kind = strings.length - 1;
  const ok = new Int32Array(n);
  for (let i = 0; i < n; i++) ok[i] = c.status[i] < 400 ? 1 : 0;
  // Which strings a column names, in the order first named (a flag per string: no Set per entry).
  const spaced = (places: Int32Array): string => {
    const seen = new Uint8Array(strings.length);
    const named: string[] = [];
    for (let i = 0; i < n; i++) {
      const p = places[i];
      if (p >= 0 && !seen[p]) {
        seen[p] = 1;
        named.push(strings[p]);
      }
    }
    return ` ${named.join(' ')} `;
  };
  const data =
    `{"v":1,"n":${n},"s":${JSON.stringify(strings)},"tag":${JSON.stringify(tag)},` +
    `"id":[${differencesOf(ids).join(',')}],"ms":1,"at":[${differencesOf(ms).join(',')}],` +
    `"seq":${consecutive(c.seq) ? String(c.seq[0]) : columnJson(c.seq)},"epoch":${columnJson(c.epoch)},` +
    `"service":${columnJson(c.service)},"kind":${kind},"key":${columnJson(c.key)},` +
    `"method":${columnJson(c.method)},"route":${columnJson(c.route)},"path":${columnJson(c.path)},` +
    `"status":${columnJson(c.status)},"ok":${columnJson(ok)},"cs":1,"dur":${columnJson(c.dur)}}`;
  return {
    id: idText(ids[0], tag),
    at_min: atMin,
    at_max: atMax,
    ...spans(c.epoch, c.seq),
    keys: spaced(c.key),
    services: spaced(c.service),
    kinds: ' http ',
    data,
  };
}

/** Numbers the row's columns hold as they come: every read of the table can select by them. */
type Numbers = ArrayLike<number> & Iterable<number>;

/** A batch's epochs and sequence numbers as its row's ranges, and how many entries it holds. */
function spans(
  epochs: Numbers,
  seqs: Numbers,
): Pick<BatchRow, 'epoch_min' | 'epoch_max' | 'seq_min' | 'seq_max' | 'entries'> {
  const [epochMin, epochMax] = range(epochs);
  const [seqMin, seqMax] = range(seqs);
  return { epoch_min: epochMin, epoch_max: epochMax, seq_min: seqMin, seq_max: seqMax, entries: seqs.length };
}

/** Whether sequence numbers go up by one each (then the row keeps only the first). */
function consecutive(seqs: Numbers): boolean {
  for (let i = 1; i < seqs.length; i++) if (seqs[i] !== seqs[i - 1] + 1) return false;
  return true;
}

/** The smallest and largest of some numbers. */
function range(values: Numbers): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return [min, max];
}

/** `rows` as one stored batch (they are in the order recorded; `numbers` when the writer made them, else read from the rows). */
export function encodeBatch(rows: readonly TraceRow[], numbers?: BatchNumbers): BatchRow {
  const builder = new BatchBuilder();
  for (const r of rows) builder.addRow(r);
  if (numbers) return builder.build({ numbers });
  const parsed = parsedIdentities(rows);
  return builder.build(parsed ? { numbers: parsed } : { ids: rows.map((r) => r.id), ats: rows.map((r) => r.at) });
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

/** A duration stored in hundredths of a ms, in ms (as trace-rows.ts rounds them: to two decimals). */
const hundredths = (d: number | null): number | null => (d === null ? null : d / 100);

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
      duration_ms: e.cs ? hundredths(at(e.dur, i)) : at(e.dur, i),
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
