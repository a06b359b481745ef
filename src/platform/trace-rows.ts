// What the trace stores, made from what it captured: each entry's row (trace-batch.ts stores a
// batch of them as one row of platform_trace) and the entries read back, every text capped and
// every credential masked (issue 27, redact.ts). This runs off the request's path, in the trace's
// writer (trace-store.ts, on its worker thread): recording a call only captures numbers and
// references (trace.ts), and the work of turning them into rows is done here.
import { isSecretName, maskedUrl, REDACTED, redactText, redactUrl } from './redact.js';
import type { TraceEntry, TraceInput, TraceKind } from './trace.js';
import {
  BatchBuilder,
  encodeHttpColumns,
  idText,
  type BatchNumbers,
  type BatchRow,
  type HttpColumns,
} from './trace-batch.js';

const MAX_BODY_CHARS = 4096;
/** A path, method, route or summary: longer ones are cut (a path of a 404 is whatever a caller sent). */
const MAX_TEXT_CHARS = 2048;
/** An entry's detail as JSON (SMTP envelopes can name a hundred recipients). */
const MAX_DETAIL_CHARS = 4096;

/**
 * What recording captures, flat, for a batch of `count` entries: NUMBER_SLOTS numbers each in
 * one Float64Array (written without allocating; copying it to the writer's thread is one copy
 * of its bytes), VALUE_SLOTS values each (the odd object) in one list, and the batch's
 * strings: an HTTP call's service, key id, method, route and URL are numbers, their places in
 * `strings`, so each goes to the writer's thread once per batch rather than once per call (a
 * string copied to a thread is a new string there, hashed anew when looked up), and a request's
 * URL is not kept alive by the batch when an earlier call had the same (a string that lives
 * through a batch outlives the young generation: keeping every request's URL cost the event
 * loop a third more garbage collection than no trace at all).
 */
export interface CapturedBatch {
  count: number;
  numbers: Float64Array;
  /** Absent when every value of the batch is null (most HTTP calls have none): nothing to copy. */
  values?: unknown[];
  strings: string[];
}
export const NUMBER_SLOTS = 12;
export const VALUE_SLOTS = 2;
/** The number slots of one captured entry. */
export const NumberSlot = {
  Seq: 0,
  Epoch: 1,
  /** platform.clock's time in ms. */
  At: 2,
  /** The entry's id as a number (real-time microseconds, strictly increasing in the process). */
  Id: 3,
  /** An HTTP call's status and duration (NaN for other entries, whose TraceInput holds them). */
  Status: 4,
  DurationMs: 5,
  /** An HTTP call's service, key id, method, route and raw URL (the writer masks it): places in the batch's strings (-1: none). */
  Service: 6,
  KeyId: 7,
  Method: 8,
  Route: 9,
  Url: 10,
  /** An HTTP call's UrlFlags: what its URL needs, as bits, so that most calls need no value slot (no object per call). */
  Flags: 11,
} as const;
/** The bits of an HTTP call's Flags slot. */
export const UrlFlag = {
  /** A call without a key keeps no query values. */
  DropQuery: 1,
  /** The URL's string is the path as stored already (storedPath): trace.ts does that for long URLs. */
  Stored: 2,
} as const;
/** The value slots of one captured entry. */
export const ValueSlot = {
  /** Any entry but an HTTP call: its TraceInput (copied to the writer as it is); an HTTP call: null. */
  Input: 0,
  /** An HTTP call: an HttpExtra when it has any of its fields, else null. */
  Extra: 1,
} as const;
const Num = NumberSlot;
const Val = ValueSlot;

/** What an HTTP call's capture holds beyond the slots, only when it has any (most calls have none). */
export interface HttpExtra {
  /** Values of path parameters with secret names, masked in the path. */
  secrets?: string[];
  requestBody?: unknown;
  responseBody?: unknown;
  secretFields?: readonly string[];
}

/**
 * An HTTP call's path as stored: credentials masked, and cut at MAX_TEXT_CHARS. A call without a
 * key keeps no query values: anyone can send them, as long as a URL goes.
 */
export function storedPath(url: string, secrets: readonly string[] | undefined, dropQuery: boolean): string {
  return capped(maskedUrl(url, secrets, dropQuery))!;
}

/**
 * Rows of a captured batch, as they are stored (texts capped, credentials masked), and the
 * numbers their ids and times were made of (trace-batch.ts stores those, not the texts).
 */
export function rowsOfRecords(
  batch: CapturedBatch,
  opts: {
    idTag: string;
    bodies: boolean;
    secretPaths?: RegExp;
  },
): { rows: TraceRow[]; numbers: BatchNumbers } {
  const rows: TraceRow[] = [];
  const numbers: BatchNumbers = { tag: opts.idTag, ids: [], ms: [] };
  const time = isoTimes();
  // A batch mostly repeats its URLs (the same list called again and again): each is masked once.
  const paths = new Map<number, string>();
  for (let e = 0; e < batch.count; e++) {
    const n = e * NUMBER_SLOTS;
    const v = e * VALUE_SLOTS;
    const input = batch.values?.[v + Val.Input];
    const idNumber = batch.numbers[n + Num.Id];
    const ms = batch.numbers[n + Num.At];
    numbers.ids.push(idNumber);
    numbers.ms.push(ms);
    const id = idText(idNumber, opts.idTag);
    const at = time(ms);
    rows.push(
      typeof input === 'object' && input !== null
        ? otherRow(batch, n, id, at, input as TraceInput, opts)
        : httpRow(batch, n, v, id, at, opts, paths),
    );
  }
  return { rows, numbers };
}

/** ISO times of clock readings; a batch's entries mostly share their millisecond (or all of it, on a frozen clock). */
function isoTimes(): (ms: number) => string {
  let lastMs = NaN;
  let lastText = '';
  return (ms) => {
    if (ms !== lastMs) {
      lastMs = ms;
      lastText = new Date(ms).toISOString();
    }
    return lastText;
  };
}

const roundedMs = (ms: number | null | undefined): number | null =>
  ms === undefined || ms === null || Number.isNaN(ms) ? null : Math.round(ms * 100) / 100;

/** An HTTP call's path as stored (masked once per URL in a batch: `paths` keyed by its place, negative when query values are dropped). */
function httpPath(batch: CapturedBatch, n: number, extra: HttpExtra | null, paths: Map<number, string>): string {
  const urlPlace = batch.numbers[n + Num.Url];
  const url = batch.strings[urlPlace];
  const flags = batch.numbers[n + Num.Flags];
  if (flags & UrlFlag.Stored) return url;
  const drop = (flags & UrlFlag.DropQuery) !== 0;
  if (extra?.secrets) return storedPath(url, extra.secrets, drop);
  const name = drop ? -1 - urlPlace : urlPlace;
  let known = paths.get(name);
  if (known === undefined) paths.set(name, (known = storedPath(url, undefined, drop)));
  return known;
}

/** An HTTP call's bodies as kept (HAMLET_TRACE_BODIES=on), or undefined. */
function httpBodies(extra: HttpExtra | null, opts: { bodies: boolean; secretPaths?: RegExp }) {
  if (!opts.bodies || !extra || (extra.requestBody === undefined && extra.responseBody === undefined)) return undefined;
  return bodyTexts([extra.requestBody, extra.responseBody], {
    secretFields: extra.secretFields,
    secretPaths: opts.secretPaths,
  });
}

const extraAt = (batch: CapturedBatch, v: number) => batch.values?.[v + Val.Extra] ?? null;

function httpRow(
  batch: CapturedBatch,
  n: number,
  v: number,
  id: string,
  at: string,
  opts: { bodies: boolean; secretPaths?: RegExp },
  paths: Map<number, string>,
): TraceRow {
  const extra = extraAt(batch, v);
  const bodies = httpBodies(extra, opts);
  const status = batch.numbers[n + Num.Status];
  return {
    id,
    epoch: batch.numbers[n + Num.Epoch],
    seq: batch.numbers[n + Num.Seq],
    at,
    service: stringAt(batch, n + Num.Service)!,
    kind: 'http',
    key_id: stringAt(batch, n + Num.KeyId),
    method: stringAt(batch, n + Num.Method),
    route: stringAt(batch, n + Num.Route),
    path: httpPath(batch, n, extra, paths),
    status,
    ok: status < 400 ? 1 : 0,
    duration_ms: roundedMs(batch.numbers[n + Num.DurationMs]),
    summary: null,
    detail: null,
    request_body: bodies?.[0] ?? null,
    response_body: bodies?.[1] ?? null,
  };
}

/**
 * A captured batch as its stored row, without a row object per HTTP call (the writer's usual
 * case: nobody follows the trace, so no entries are announced): each call's columns go
 * straight from the captured numbers into the batch (trace-batch.ts BatchBuilder).
 */
export function encodeCaptured(
  batch: CapturedBatch,
  opts: { idTag: string; bodies: boolean; secretPaths?: RegExp },
): BatchRow {
  // Without values every entry is an HTTP call with nothing beyond its numbers: column by column.
  if (!batch.values) return encodeHttpColumns(plainHttpColumns(batch, opts.idTag));
  const builder = new BatchBuilder();
  const numbers: BatchNumbers = {
    tag: opts.idTag,
    ids: new Array<number>(batch.count),
    ms: new Array<number>(batch.count),
  };
  const paths = new Map<number, string>();
  const nums = batch.numbers;
  for (let e = 0; e < batch.count; e++) {
    const n = e * NUMBER_SLOTS;
    const v = e * VALUE_SLOTS;
    numbers.ids[e] = nums[n + Num.Id];
    numbers.ms[e] = nums[n + Num.At];
    const input = batch.values?.[v + Val.Input];
    if (typeof input === 'object' && input !== null) {
      builder.addRow(otherRow(batch, n, '', '', input as TraceInput, opts));
      continue;
    }
    const extra = extraAt(batch, v);
    const bodies = httpBodies(extra, opts);
    const status = nums[n + Num.Status];
    builder.add(
      nums[n + Num.Epoch],
      nums[n + Num.Seq],
      stringAt(batch, n + Num.Service)!,
      'http',
      stringAt(batch, n + Num.KeyId),
      stringAt(batch, n + Num.Method),
      stringAt(batch, n + Num.Route),
      httpPath(batch, n, extra, paths),
      status,
      status < 400 ? 1 : 0,
      nums[n + Num.DurationMs],
      bodies && (bodies[0] !== null || bodies[1] !== null) ? [null, null, bodies[0], bodies[1]] : undefined,
    );
  }
  return builder.build({ numbers });
}

/**
 * The columns of a batch of plain HTTP calls (encodeCaptured's usual case), read straight from
 * its numbers. The strings are a table of their own holding only what the entries name, each
 * URL as stored (masked once per URL and flags): a raw URL never reaches the row.
 */
function plainHttpColumns(batch: CapturedBatch, tag: string): HttpColumns {
  const n = batch.count;
  const nums = batch.numbers;
  const strings: string[] = [];
  const index = new Map<string, number>();
  const intern = (text: string): number => {
    let i = index.get(text);
    if (i === undefined) index.set(text, (i = strings.push(text) - 1));
    return i;
  };
  // A captured place's place in the new table (-2: not yet seen); URLs by place and flags.
  const remap = new Int32Array(batch.strings.length).fill(-2);
  const placeOf = (place: number): number => {
    if (place < 0) return -1;
    if (remap[place] === -2) remap[place] = intern(batch.strings[place]);
    return remap[place];
  };
  const paths = new Map<number, number>();
  const c: HttpColumns = {
    count: n,
    strings,
    service: new Int32Array(n),
    key: new Int32Array(n),
    method: new Int32Array(n),
    route: new Int32Array(n),
    path: new Int32Array(n),
    status: new Float64Array(n),
    dur: new Float64Array(n),
    epoch: new Float64Array(n),
    seq: new Float64Array(n),
    numbers: { tag, ids: new Float64Array(n), ms: new Float64Array(n) },
  };
  for (let e = 0; e < n; e++) {
    const at = e * NUMBER_SLOTS;
    c.numbers.ids[e] = nums[at + Num.Id];
    c.numbers.ms[e] = nums[at + Num.At];
    c.epoch[e] = nums[at + Num.Epoch];
    c.seq[e] = nums[at + Num.Seq];
    c.status[e] = nums[at + Num.Status];
    const d = nums[at + Num.DurationMs];
    c.dur[e] = Number.isNaN(d) ? NaN : Math.round(d * 100);
    c.service[e] = placeOf(nums[at + Num.Service]);
    c.key[e] = placeOf(nums[at + Num.KeyId]);
    c.method[e] = placeOf(nums[at + Num.Method]);
    c.route[e] = placeOf(nums[at + Num.Route]);
    const url = nums[at + Num.Url];
    const flags = nums[at + Num.Flags];
    const name = url * 4 + flags;
    let path = paths.get(name);
    if (path === undefined) {
      const text = batch.strings[url];
      const stored = flags & UrlFlag.Stored ? text : storedPath(text, undefined, (flags & UrlFlag.DropQuery) !== 0);
      paths.set(name, (path = intern(stored)));
    }
    c.path[e] = path;
  }
  return c;
}

/** The string a number slot names (trace.ts interns them per batch), or null. */
function stringAt(batch: CapturedBatch, slot: number): string | null {
  const place = batch.numbers[slot];
  return place < 0 ? null : batch.strings[place];
}

function otherRow(
  batch: CapturedBatch,
  n: number,
  id: string,
  at: string,
  input: TraceInput,
  opts: { bodies: boolean; secretPaths?: RegExp },
): TraceRow {
  const status = input.status ?? null;
  const [requestBody, responseBody] =
    opts.bodies && (input.requestBody !== undefined || input.responseBody !== undefined)
      ? bodyTexts([input.requestBody, input.responseBody], {
          secretFields: input.secretFields,
          secretPaths: opts.secretPaths,
        })
      : [null, null];
  return {
    id,
    epoch: batch.numbers[n + Num.Epoch],
    seq: batch.numbers[n + Num.Seq],
    at,
    service: input.service,
    kind: input.kind,
    key_id: input.keyId ?? null,
    method: capped(input.method),
    route: capped(input.route),
    // An MCP call names the path it called.
    path: input.path ? capped(redactUrl(input.path)) : null,
    status,
    ok: (input.ok ?? (status === null || status < 400)) ? 1 : 0,
    duration_ms: roundedMs(input.durationMs),
    summary: capped(input.summary),
    detail: input.detail ? storedDetail(input.detail) : null,
    request_body: requestBody ?? null,
    response_body: responseBody ?? null,
  };
}

export interface TraceRow {
  id: string;
  epoch: number;
  seq: number;
  at: string;
  service: string;
  kind: string;
  key_id: string | null;
  method: string | null;
  route: string | null;
  path: string | null;
  status: number | null;
  ok: number;
  duration_ms: number | null;
  summary: string | null;
  detail: string | null;
  request_body: string | null;
  response_body: string | null;
}

export function entryOfRow(r: TraceRow): TraceEntry {
  return {
    id: r.id,
    epoch: Number(r.epoch),
    seq: Number(r.seq),
    at: r.at,
    service: r.service,
    kind: r.kind as TraceKind,
    keyId: r.key_id,
    method: r.method,
    route: r.route,
    path: r.path,
    status: r.status === null ? null : Number(r.status),
    ok: Number(r.ok) === 1,
    durationMs: r.duration_ms === null ? null : Number(r.duration_ms),
    summary: r.summary,
    detail: r.detail ? (JSON.parse(r.detail) as Record<string, unknown>) : null,
    requestBody: r.request_body,
    responseBody: r.response_body,
  };
}

/** A text cut at `max` characters, saying how much was left out. */
function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…[${text.length - max} more characters]` : text;
}

/** An entry's path, method, route or summary as stored. */
function capped(text: string | null | undefined): string | null {
  if (text === undefined || text === null) return null;
  return text.length > MAX_TEXT_CHARS ? cut(text, MAX_TEXT_CHARS) : text;
}

/** An entry's detail as stored JSON: as it is when short; else long strings and lists cut, and at worst the JSON text itself. */
function storedDetail(detail: Record<string, unknown>): string {
  const json = JSON.stringify(detail);
  if (json.length <= MAX_DETAIL_CHARS) return json;
  const shrunk = JSON.stringify(detail, (_key, value: unknown) => {
    if (typeof value === 'string' && value.length > 256) return cut(value, 256);
    if (Array.isArray(value) && value.length > 20)
      return [...(value as unknown[]).slice(0, 20), `…[${value.length - 20} more]`];
    return value;
  });
  return shrunk.length <= MAX_DETAIL_CHARS ? shrunk : JSON.stringify({ truncated: cut(shrunk, MAX_DETAIL_CHARS - 64) });
}

/**
 * A call's bodies as the trace keeps them (HAMLET_TRACE_BODIES=on): JSON with the values of
 * secret-named fields (and of `secretFields`) masked, and each such value masked wherever else
 * it appears in either body (a verification code in a message's text); then every credential
 * the text holds (redact.ts redactText: keys and tokens by their shape, secret query values,
 * the secret segments of `secretPaths`); each cut at MAX_BODY_CHARS.
 */
export function bodyTexts(
  bodies: unknown[],
  opts: { secretFields?: readonly string[]; secretPaths?: RegExp } = {},
): Array<string | null> {
  const secrets = new Set<string>();
  const fields = opts.secretFields?.length ? new Set(opts.secretFields) : undefined;
  return bodies
    .map((body) => serialized(body, (value, depth) => redactJson(value, depth, fields, secrets)))
    .map((text) => {
      if (text === null) return null;
      // Cut first (with room for what masking changes): a long body costs no more than a short one.
      let out = redactText(
        text.length > MAX_BODY_CHARS + 1024 ? text.slice(0, MAX_BODY_CHARS + 1024) : text,
        opts.secretPaths,
      );
      for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
      return cut(out, MAX_BODY_CHARS);
    });
}

/** One body as the trace keeps it (see bodyTexts). */
export function bodyText(
  body: unknown,
  opts: { secretFields?: readonly string[]; secretPaths?: RegExp } = {},
): string | null {
  return bodyTexts([body], opts)[0]!;
}

/** A body as text, JSON redacted by `redact`; null for none. */
function serialized(body: unknown, redact: (value: unknown, depth: number) => unknown): string | null {
  if (body === undefined || body === null || body === '') return null;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    const raw = body.toString();
    const parsed = /^\s*[[{]/.test(raw) ? tryJson(raw) : undefined;
    return parsed === undefined ? raw : JSON.stringify(redact(parsed, 0));
  }
  if (typeof body === 'object' && typeof (body as { pipe?: unknown }).pipe === 'function') return '[stream]';
  return JSON.stringify(redact(body, 0)) ?? String(body);
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Values this short are not looked for elsewhere in a body: they would mask ordinary words. */
const MIN_ECHOED_SECRET = 8;

/**
 * A copy with the values of secret fields masked (bodies are depth-limited by the edge); the
 * masked strings long enough to recognise go into `secrets`, as they appear in JSON text.
 */
function redactJson(value: unknown, depth: number, fields: Set<string> | undefined, secrets: Set<string>): unknown {
  if (depth > 64) return '[…]';
  if (Array.isArray(value)) return value.map((v) => redactJson(v, depth + 1, fields, secrets));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v !== null && v !== '' && (isSecretName(k) || fields?.has(k))) {
      collectSecrets(v, secrets);
      out[k] = REDACTED;
    } else {
      out[k] = redactJson(v, depth + 1, fields, secrets);
    }
  }
  return out;
}

function collectSecrets(value: unknown, secrets: Set<string>, depth = 0): void {
  if (typeof value === 'string') {
    if (value.length >= MIN_ECHOED_SECRET) secrets.add(JSON.stringify(value).slice(1, -1));
  } else if (value && typeof value === 'object' && depth < 8) {
    for (const v of Object.values(value)) collectSecrets(v, secrets, depth + 1);
  }
}
