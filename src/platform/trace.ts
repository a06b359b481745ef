// The trace of what agents did: every API call of every service, every message over SMTP,
// every command on the home WebSocket, every MCP tool call, and the domain events worth a line
// in the console's activity feed (a mail received, a post published, a light turned on, an
// execution finished). Each entry names the API key that acted by its id, never the secret.
//
// Recording sits on every hot path, so it costs one object and an array push: entries are
// written to platform_trace in batches (every FLUSH_MS or BATCH_SIZE entries, whichever comes
// first) off the request's path, with one prepared statement per row on SQLite, and each
// written batch is published on the event bus for live followers (so what they hear about is
// already readable). Bodies are kept only with HAMLET_TRACE_BODIES=on, every credential in them
// masked (redact.ts) and capped.
//
// Anyone can call a service, so nobody's call may cost the disk much (issue 27): every text an
// entry keeps is capped (paths and the like at 2 KB, detail and bodies at 4 KB), the query
// values of unauthenticated calls are not kept at all, and the table holds at most
// HAMLET_TRACE_MAX_ENTRIES entries, the oldest leaving first. Entries older than
// HAMLET_TRACE_RETENTION (by platform.clock, so a test or an evaluator moving time moves it
// too) are deleted as well. HAMLET_TRACE=off records nothing.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from './clock.js';
import { sql, type Db } from './db.js';
import type { EventBus } from './events.js';
import type { App } from './http.js';
import type { Logger } from './logger.js';
import { isSecretName, loggableUrl, REDACTED, redactText, redactUrl, secretPathPattern, secretPathPrefix } from './redact.js';
import { TRACE_RECORDED } from './topics.js';

/** http: an API call; smtp: a message over SMTP; ws: a WebSocket command; mcp: an MCP tool call; event: a domain event. */
export const TRACE_KINDS = ['http', 'smtp', 'ws', 'mcp', 'event'] as const;
export type TraceKind = (typeof TRACE_KINDS)[number];

/** HAMLET_TRACE=off, HAMLET_TRACE_BODIES=on, HAMLET_TRACE_RETENTION (read in src/config.ts). */
export interface TraceSettings {
  enabled: boolean;
  bodies: boolean;
  retentionMs: number;
  /** HAMLET_TRACE_MAX_ENTRIES: past it the oldest entries leave first. */
  maxEntries: number;
}

/**
 * What a caller records. The fields mean, per kind:
 * - http: method, route (the pattern, e.g. /v0/inboxes/:inbox_id/messages), path (the concrete
 *   URL, credentials masked), status;
 * - smtp: method 'DATA', route 'smtp' or 'submission', status the reply code, detail {from, to};
 * - ws: method the command's `type`, route the socket's path, detail {id}, ok its success;
 * - mcp: method 'tools/call', route the tool's name, service the service the tool acts on;
 * - event: summary, a sentence for people ("Mail from a@x.test to b@y.test: Hello").
 */
export interface TraceInput {
  service: string;
  kind: TraceKind;
  /** The id of the API key that acted (platform_keys.id), never the key itself. */
  keyId?: string | null;
  method?: string | null;
  route?: string | null;
  path?: string | null;
  status?: number | null;
  /** Defaults to status < 400 (HTTP statuses and SMTP reply codes alike), or true without a status. */
  ok?: boolean;
  durationMs?: number | null;
  summary?: string | null;
  detail?: Record<string, unknown> | null;
  /** Kept only with HAMLET_TRACE_BODIES=on; redacted and capped. */
  requestBody?: unknown;
  responseBody?: unknown;
  /** Fields of these bodies, at any depth, whose values are secret though their names do not say so (a credential's `data`). */
  secretFields?: readonly string[];
}

export interface TraceEntry {
  /** Sorts after every earlier entry of this process with the same time (a frozen clock). */
  id: string;
  /** The world's timeline the entry belongs to: every restore or reset of the world starts the next one (an episode). */
  epoch: number;
  /** Increases by one with every entry this process records (kept across restarts): the order, even when the clock is frozen. */
  seq: number;
  /** ISO 8601, from platform.clock. */
  at: string;
  service: string;
  kind: TraceKind;
  keyId: string | null;
  method: string | null;
  route: string | null;
  path: string | null;
  status: number | null;
  ok: boolean;
  durationMs: number | null;
  summary: string | null;
  detail: Record<string, unknown> | null;
  requestBody: string | null;
  responseBody: string | null;
}

export interface TraceQuery {
  keyId?: string;
  /** Only the entries of this epoch (one episode): restores and resets start epochs. */
  epoch?: number;
  service?: string[];
  kind?: TraceKind[];
  /** ISO times: at >= since, at < until. */
  since?: string;
  until?: string;
  limit?: number;
  /** From a previous page's nextCursor. */
  cursor?: string;
  /** newest (default) or oldest first. */
  order?: 'newest' | 'oldest';
}

export interface TracePage {
  entries: TraceEntry[];
  /** Pass back as `cursor` for the next page; null on the last. */
  nextCursor: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The id of the API key that authenticated this request; set by each service's auth code, read by the trace. */
    apiKeyId: string | null;
  }
  interface FastifyContextConfig {
    /** Body fields (at any depth) whose values the trace never keeps although their names sound harmless, e.g. a credential's `data`. */
    traceSecretFields?: readonly string[];
  }
}

const FLUSH_MS = 200;
const BATCH_SIZE = 250;
/** Entries held while the database cannot take them; the oldest are dropped beyond this. */
const MAX_BUFFERED = 50_000;
const MAX_BODY_CHARS = 4096;
/** A path, method, route or summary: longer ones are cut (a path of a 404 is whatever a caller sent). */
const MAX_TEXT_CHARS = 2048;
/** An entry's detail as JSON (SMTP envelopes can name a hundred recipients). */
const MAX_DETAIL_CHARS = 4096;
/** Real time between retention sweeps on a busy trace (moving the clock sweeps at once). */
const PRUNE_EVERY_MS = 60_000;
/** Entries deleted per statement when the table is over its cap (SQLite deletes on the event loop). */
const EVICT_CHUNK = 2000;
/** Bodies of these types are kept as text; others as their type and size. */
const TEXT_TYPE = /json|^text\/|xml|x-www-form-urlencoded/i;

export class Trace {
  private buffer: TraceEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** A write of the buffer is queued: recording more joins it. */
  private flushQueued = false;
  private insertRow?: import('better-sqlite3').Statement;
  /** Writes and sweeps run one after another, in the order they were asked for. */
  private chain: Promise<void> = Promise.resolve();
  private lastPruneMs = 0;
  private dropped = 0;
  private readonly idTag = randomBytes(3).toString('hex');
  private lastSeq = 0;
  /** The epoch entries are recorded in now, and the last sequence number given (resume() reads both from the table). */
  private epochNow = 0;
  private seqNow = 0;
  private readonly stopFollowingClock: () => void;
  private closed = false;
  private readonly responses = new WeakMap<FastifyRequest, unknown>();
  /** Rows in the table as this process knows it: counted once, then kept up to date (recounted on PostgreSQL, where other instances write too). */
  private storedRows: number | undefined;
  /** Where routes carry secrets in their paths (from every attached app), for masking URLs inside bodies. */
  private readonly secretPrefixes = new Set<string>();
  private secretPaths: RegExp | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventBus,
    private readonly logger: Logger,
    readonly settings: TraceSettings,
  ) {
    this.stopFollowingClock = clock.onAdvance(() => {
      if (!this.closed) void this.prune();
    });
  }

  /** Continues the epochs and sequence numbers where the stored entries end (openPlatform calls it once the table exists). */
  async resume(): Promise<void> {
    const row = await this.db.kysely
      .selectFrom('platform_trace')
      .select((eb) => [eb.fn.max<number | string | null>('epoch').as('epoch'), eb.fn.max<number | string | null>('seq').as('seq')])
      .executeTakeFirst();
    this.epochNow = Math.max(this.epochNow, Number(row?.epoch ?? 0));
    this.seqNow = Math.max(this.seqNow, Number(row?.seq ?? 0));
  }

  /** The epoch entries are recorded in now. */
  get epoch(): number {
    return this.epochNow;
  }

  /** Starts the next epoch (the world was restored or reset: what follows is another timeline); returns it. */
  startEpoch(): number {
    return ++this.epochNow;
  }

  get enabled(): boolean {
    return this.settings.enabled && !this.closed;
  }

  /** Records one entry (a no-op with HAMLET_TRACE=off). Never throws, never waits. */
  record(input: TraceInput): void {
    if (!this.enabled) return;
    const status = input.status ?? null;
    const entry: TraceEntry = {
      id: this.nextId(),
      epoch: this.epochNow,
      seq: ++this.seqNow,
      at: this.clock.now().toISOString(),
      service: input.service,
      kind: input.kind,
      keyId: input.keyId ?? null,
      method: input.method ?? null,
      route: input.route ?? null,
      path: capped(input.path),
      status,
      ok: input.ok ?? (status === null || status < 400),
      durationMs: input.durationMs === undefined || input.durationMs === null ? null : Math.round(input.durationMs * 100) / 100,
      summary: capped(input.summary),
      detail: input.detail ?? null,
      requestBody: null,
      responseBody: null,
    };
    if (input.kind !== 'http') {
      // HTTP paths come masked (recordHttp); an MCP call names the path it called.
      if (entry.path) entry.path = redactUrl(entry.path);
      entry.method = capped(entry.method);
      entry.route = capped(entry.route);
    }
    if (this.settings.bodies && (input.requestBody !== undefined || input.responseBody !== undefined)) {
      [entry.requestBody, entry.responseBody] = bodyTexts([input.requestBody, input.responseBody], { secretFields: input.secretFields, secretPaths: this.secretPaths });
    }
    this.enqueue(entry);
  }

  /** A domain event for the activity feed, with a sentence for people. */
  event(e: { service: string; summary: string; keyId?: string | null; detail?: Record<string, unknown>; ok?: boolean }): void {
    this.record({ kind: 'event', service: e.service, summary: e.summary, keyId: e.keyId, detail: e.detail, ok: e.ok });
  }

  /** Records every request of a service's app (createApp calls this); /healthz is left out. */
  attach(app: App, service: string): void {
    if (!this.settings.enabled) return;
    if (this.settings.bodies) {
      app.addHook('onRoute', (route) => this.noteSecretPath(route.url));
      app.addHook('onSend', async (request, reply, payload) => {
        this.responses.set(request, keptResponse(payload, reply.getHeader('content-type')));
        return payload;
      });
    }
    app.addHook('onResponse', (request, reply, done) => {
      this.recordHttp(service, request, reply);
      done();
    });
  }

  private recordHttp(service: string, request: FastifyRequest, reply: FastifyReply): void {
    if (request.url.startsWith('/healthz')) return;
    // A getter that builds an object: read once.
    const route = request.routeOptions;
    this.record({
      service,
      kind: 'http',
      keyId: request.apiKeyId,
      method: request.method,
      route: route.url ?? null,
      // A call without a key keeps no query values: anyone can send them, as long as a URL goes.
      path: loggableUrl(request, request.apiKeyId === null),
      status: reply.statusCode,
      durationMs: reply.elapsedTime,
      requestBody: this.settings.bodies ? request.body : undefined,
      responseBody: this.settings.bodies ? this.responses.get(request) : undefined,
      secretFields: this.settings.bodies ? route.config?.traceSecretFields : undefined,
    });
  }

  /** Notes a route whose path carries a secret, so the URLs bodies hold are masked there too. */
  private noteSecretPath(route: string): void {
    const prefix = secretPathPrefix(route);
    if (prefix === undefined || this.secretPrefixes.has(prefix)) return;
    this.secretPrefixes.add(prefix);
    this.secretPaths = secretPathPattern(this.secretPrefixes);
  }

  /** Follows new entries once they are stored, a batch at a time (on every instance, through the bus). */
  follow(handler: (entries: TraceEntry[]) => void): () => void {
    return this.events.subscribe(TRACE_RECORDED, handler);
  }

  /** Writes what is buffered; resolves once it is stored. Queries call it first. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.flushQueued = true;
    this.chain = this.chain.then(() => this.writeBuffered());
    return this.chain;
  }

  /** Deletes entries older than the retention, by the platform's clock; returns how many. */
  prune(): Promise<number> {
    let deleted = 0;
    this.chain = this.chain
      .then(() => this.writeBuffered())
      .then(async () => {
        this.lastPruneMs = Date.now();
        const cutoff = new Date(this.clock.ms() - this.settings.retentionMs).toISOString();
        const result = await this.db.kysely.deleteFrom('platform_trace').where('at', '<', cutoff).executeTakeFirst();
        deleted = Number(result.numDeletedRows ?? 0);
        if (this.storedRows !== undefined) this.storedRows -= deleted;
        // Other instances write the same table on PostgreSQL: a fresh count catches their rows.
        if (this.db.dialect === 'postgres') this.storedRows = undefined;
        await this.evictOverCap();
      })
      .catch((err: unknown) => this.logger.error({ err }, 'trace: deleting old entries failed'));
    return this.chain.then(() => deleted);
  }

  /** One page of entries matching the query. */
  async query(q: TraceQuery): Promise<TracePage> {
    await this.flush();
    const newest = q.order !== 'oldest';
    const limit = Math.max(1, Math.min(q.limit ?? 100, 1000));
    let sel = this.db.kysely.selectFrom('platform_trace').selectAll();
    if (q.keyId) sel = sel.where('key_id', '=', q.keyId);
    if (q.epoch !== undefined) sel = sel.where('epoch', '=', q.epoch);
    if (q.service?.length) sel = sel.where('service', 'in', q.service);
    if (q.kind?.length) sel = sel.where('kind', 'in', q.kind);
    if (q.since) sel = sel.where('at', '>=', q.since);
    if (q.until) sel = sel.where('at', '<', q.until);
    const after = q.cursor ? decodeCursor(q.cursor) : undefined;
    if (after) {
      const cmp = newest ? '<' : '>';
      sel = sel.where((eb) => eb.or([eb('at', cmp, after.at), eb.and([eb('at', '=', after.at), eb('id', cmp, after.id)])]));
    }
    const dir = newest ? 'desc' : 'asc';
    const rows = (await sel.orderBy('at', dir).orderBy('id', dir).limit(limit + 1).execute()) as TraceRow[];
    const entries = rows.slice(0, limit).map(entryOfRow);
    const last = entries[entries.length - 1];
    return { entries, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
  }

  /** Every entry matching the query, page by page (for exports that stream). */
  async *all(q: Omit<TraceQuery, 'cursor' | 'limit'>): AsyncGenerator<TraceEntry> {
    let cursor: string | undefined;
    do {
      const page = await this.query({ ...q, cursor, limit: 500 });
      yield* page.entries;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  /** Stops recording and writes what is buffered (before the database closes). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.stopFollowingClock();
    await this.flush();
    this.closed = true;
  }

  private enqueue(entry: TraceEntry): void {
    if (this.buffer.length >= MAX_BUFFERED) {
      this.buffer.shift();
      if (this.dropped++ % 1000 === 0) this.logger.warn({ dropped: this.dropped }, 'trace: the database is not keeping up; dropping the oldest unwritten entries');
    }
    this.buffer.push(entry);
    if (this.flushQueued) return;
    if (this.buffer.length >= BATCH_SIZE) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  private async writeBuffered(): Promise<void> {
    this.flushQueued = false;
    const batch = this.buffer;
    if (!batch.length) return;
    this.buffer = [];
    try {
      await this.insert(batch.map(rowOfEntry));
    } catch (err) {
      this.logger.error({ err, entries: batch.length }, 'trace: writing entries failed; they are lost');
      return;
    }
    this.events.publish(TRACE_RECORDED, batch).catch((err: unknown) => this.logger.warn({ err }, 'trace: announcing entries failed'));
    if (this.storedRows !== undefined) this.storedRows += batch.length;
    await this.evictOverCap().catch((err: unknown) => this.logger.error({ err }, 'trace: deleting the oldest entries over HAMLET_TRACE_MAX_ENTRIES failed'));
    if (Date.now() - this.lastPruneMs > PRUNE_EVERY_MS) void this.prune();
  }

  /**
   * Keeps the table within HAMLET_TRACE_MAX_ENTRIES: once over, deletes the oldest entries down
   * to a little under the cap (so a full table is trimmed every few batches, not every one), a
   * chunk per statement, by the (at, id) index.
   */
  private async evictOverCap(): Promise<void> {
    const max = this.settings.maxEntries;
    if (this.storedRows === undefined) {
      const counted = await this.db.kysely.selectFrom('platform_trace').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
      this.storedRows = Number(counted.n);
    }
    if (this.storedRows <= max) return;
    let excess = this.storedRows - max + Math.min(Math.ceil(max / 100), EVICT_CHUNK);
    while (excess > 0) {
      const chunk = Math.min(excess, EVICT_CHUNK);
      const last = await this.db.kysely.selectFrom('platform_trace').select(['at', 'id']).orderBy('at').orderBy('id').offset(chunk - 1).limit(1).executeTakeFirst();
      if (!last) {
        // Fewer rows than this process thought (someone else deleted some): count again next time.
        this.storedRows = undefined;
        return;
      }
      const result = await this.db.kysely
        .deleteFrom('platform_trace')
        .where((eb) => eb.or([eb('at', '<', last.at), eb.and([eb('at', '=', last.at), eb('id', '<=', last.id)])]))
        .executeTakeFirst();
      const deleted = Number(result.numDeletedRows ?? 0);
      this.storedRows -= deleted;
      excess -= chunk;
    }
  }

  /** Embedded mode: one prepared statement per row in one transaction (Kysely would compile a 4,000-parameter statement per batch). */
  private async insert(rows: TraceRow[]): Promise<void> {
    const { sqlite } = this.db;
    if (sqlite) {
      await sqlite.run((raw) => {
        const insert = (this.insertRow ??= raw.prepare(`INSERT INTO platform_trace (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`));
        raw.transaction(() => {
          for (const row of rows) insert.run(row);
        })();
      });
      return;
    }
    // PostgreSQL: the whole batch as one JSON parameter, expanded by the server into the table's
    // row type. One short statement to parse instead of a 3,000-parameter VALUES list per 200
    // rows: about a quarter less work for PostgreSQL per row, and less for Node.
    await sql`INSERT INTO platform_trace SELECT * FROM json_populate_recordset(NULL::platform_trace, ${jsonForPostgres(rows)})`.execute(this.db.kysely);
  }

  /** Real-time microseconds, strictly increasing in this process, plus a tag of the process. */
  private nextId(): string {
    this.lastSeq = Math.max(this.lastSeq + 1, Date.now() * 1000);
    return `${this.lastSeq.toString(36).padStart(11, '0')}${this.idTag}`;
  }
}

interface TraceRow {
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

const COLUMNS: Array<keyof TraceRow> = ['id', 'epoch', 'seq', 'at', 'service', 'kind', 'key_id', 'method', 'route', 'path', 'status', 'ok', 'duration_ms', 'summary', 'detail', 'request_body', 'response_body'];

function rowOfEntry(e: TraceEntry): TraceRow {
  let detail: string | null = null;
  if (e.detail) {
    const stored = storedDetail(e.detail);
    detail = stored.json;
    // Followers hear what was stored.
    if (stored.cut) e.detail = JSON.parse(detail) as Record<string, unknown>;
  }
  return {
    id: e.id,
    epoch: e.epoch,
    seq: e.seq,
    at: e.at,
    service: e.service,
    kind: e.kind,
    key_id: e.keyId,
    method: e.method,
    route: e.route,
    path: e.path,
    status: e.status,
    ok: e.ok ? 1 : 0,
    duration_ms: e.durationMs,
    summary: e.summary,
    detail,
    request_body: e.requestBody,
    response_body: e.responseBody,
  };
}

function entryOfRow(r: TraceRow): TraceEntry {
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

/** An escaped NUL: PostgreSQL text cannot hold one, and one would lose the whole batch. Escaped backslashes before it are kept. */
const ESCAPED_NUL = /(?<!\\)((?:\\\\)*)\\u0000/g;

/** Rows as JSON PostgreSQL takes: a NUL in any text (a body, a path) becomes U+FFFD, as an undecodable byte would. */
function jsonForPostgres(rows: unknown[]): string {
  return JSON.stringify(rows).replace(ESCAPED_NUL, '$1\\ufffd');
}

const encodeCursor = (e: Pick<TraceEntry, 'at' | 'id'>): string => Buffer.from(`${e.at}|${e.id}`).toString('base64url');

/** The position a cursor names, or undefined for one this trace did not hand out. */
export function decodeCursor(cursor: string): { at: string; id: string } | undefined {
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!at || !id || rest.length || Number.isNaN(Date.parse(at))) return undefined;
  return { at, id };
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
function storedDetail(detail: Record<string, unknown>): { json: string; cut: boolean } {
  const json = JSON.stringify(detail);
  if (json.length <= MAX_DETAIL_CHARS) return { json, cut: false };
  const shrunk = JSON.stringify(detail, (_key, value: unknown) => {
    if (typeof value === 'string' && value.length > 256) return cut(value, 256);
    if (Array.isArray(value) && value.length > 20) return [...(value as unknown[]).slice(0, 20), `…[${value.length - 20} more]`];
    return value;
  });
  return { json: shrunk.length <= MAX_DETAIL_CHARS ? shrunk : JSON.stringify({ truncated: cut(shrunk, MAX_DETAIL_CHARS - 64) }), cut: true };
}

/** A response payload as the trace keeps it: text as it is, other bytes as their type and size. */
function keptResponse(payload: unknown, contentType: unknown): unknown {
  if (!Buffer.isBuffer(payload) || typeof contentType !== 'string' || TEXT_TYPE.test(contentType)) return payload;
  return `[${contentType.split(';')[0]}, ${payload.length} bytes]`;
}

/**
 * A call's bodies as the trace keeps them (HAMLET_TRACE_BODIES=on): JSON with the values of
 * secret-named fields (and of `secretFields`) masked, and each such value masked wherever else
 * it appears in either body (a verification code in a message's text); then every credential
 * the text holds (redact.ts redactText: keys and tokens by their shape, secret query values,
 * the secret segments of `secretPaths`); each cut at MAX_BODY_CHARS.
 */
export function bodyTexts(bodies: unknown[], opts: { secretFields?: readonly string[]; secretPaths?: RegExp } = {}): Array<string | null> {
  const secrets = new Set<string>();
  const fields = opts.secretFields?.length ? new Set(opts.secretFields) : undefined;
  return bodies
    .map((body) => serialized(body, (value, depth) => redactJson(value, depth, fields, secrets)))
    .map((text) => {
      if (text === null) return null;
      // Cut first (with room for what masking changes): a long body costs no more than a short one.
      let out = redactText(text.length > MAX_BODY_CHARS + 1024 ? text.slice(0, MAX_BODY_CHARS + 1024) : text, opts.secretPaths);
      for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
      return cut(out, MAX_BODY_CHARS);
    });
}

/** One body as the trace keeps it (see bodyTexts). */
export function bodyText(body: unknown, opts: { secretFields?: readonly string[]; secretPaths?: RegExp } = {}): string | null {
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
