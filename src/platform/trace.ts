// The trace of what agents did: every API call of every service, every message over SMTP,
// every command on the home WebSocket, every MCP tool call, and the domain events worth a line
// in the console's activity feed (a mail received, a post published, a light turned on, an
// execution finished). Each entry names the API key that acted by its id, never the secret.
//
// Recording sits on every hot path, so on the event loop it only captures: numbers (sequence
// number, epoch, the clock's time, id, status, duration, the places of the service, key id,
// method, route and raw URL in the batch's list of strings, and the URL's flags) written into a Float64Array, and
// the odd object into a flat list (trace-rows.ts CapturedBatch); HTTP calls are recorded
// from the log controller Fastify calls once per response anyway (http.ts), not from a hook.
// Every FLUSH_MS or BATCH_SIZE entries the batch goes to the trace's writer on a worker thread
// with a database connection of its own (trace-writer.ts, trace-store.ts; the event loop writes
// over its numbers and list once they are copied): it masks and caps the texts (trace-rows.ts), stores the batch as one row
// (trace-batch.ts), trims the table, and hands each stored batch back to be published on the
// event bus for live followers (only when someone follows), so what they hear about is already
// readable. Reads (trace-read.ts) flush first: a query sees every entry recorded before it. A
// kill -9 loses at most the last FLUSH_MS of entries plus the batches the writer had not
// committed yet (docs/harness.md). Bodies are kept only with HAMLET_TRACE_BODIES=on, every
// credential in them masked (redact.ts) and capped.
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
import type { Db } from './db.js';
import { LocalEventBus, type EventBus } from './events.js';
import type { App } from './http.js';
import type { Logger } from './logger.js';
import { secretParamValues, secretPathPattern, secretPathPrefix } from './redact.js';
import { TRACE_RECORDED } from './topics.js';
import { TraceReader } from './trace-read.js';
import {
  NUMBER_SLOTS,
  NumberSlot,
  storedPath,
  UrlFlag,
  VALUE_SLOTS,
  ValueSlot,
  type CapturedBatch,
  type HttpExtra,
} from './trace-rows.js';
import { TraceWriter } from './trace-writer.js';

export { bodyText, bodyTexts } from './trace-rows.js';

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

/** Real time a captured entry may wait before its batch goes to the writer: at most this much is lost to a kill -9 (see docs/harness.md). */
const FLUSH_MS = 200;
/** Entries per batch at most: large, since the writer's cost per row falls with the rows per transaction (SQLite's commit, its index pages). */
const BATCH_SIZE = 2000;
/** Entries held while the database cannot take them; new ones are dropped beyond this. */
const MAX_BUFFERED = 50_000;
/** URLs longer than this are made into their stored path on the event loop, not sent whole to the writer. */
const LONG_URL = 2048;
/** Real time between retention sweeps on a busy trace (moving the clock sweeps at once). */
const PRUNE_EVERY_MS = 60_000;
/** Bodies of these types are kept as text; others as their type and size. */
const TEXT_TYPE = /json|^text\/|xml|x-www-form-urlencoded/i;

export class Trace {
  /** Captured entries not yet sent to the writer (trace-rows.ts CapturedBatch): their numbers (in the writer's shared buffer), their values, how many. */
  private numbers: Float64Array;
  /** Written by index, not pushed: a list that grows by pushes is copied as it grows, and again by every young-generation collection while it lives. */
  private values = newValues();
  /** Whether an entry of this batch has a value that is not null (else the values are not sent). */
  private hasValues = false;
  private count = 0;
  /** The batch's strings, and where each is in them (CapturedBatch). */
  private strings: string[] = [];
  private readonly places = new Map<string, number>();
  /** The URL the last HTTP call of this batch had, and its place (urlPlace). */
  private lastUrl = '';
  private lastUrlPlace = -1;
  private timer: NodeJS.Timeout | undefined;
  private readonly writer: TraceWriter;
  private readonly reader: TraceReader;
  private lastPruneMs = 0;
  private dropped = 0;
  private readonly idTag = randomBytes(3).toString('hex');
  private lastId = 0;
  /** The epoch entries are recorded in now, and the last sequence number given (resume() reads both from the table). */
  private epochNow = 0;
  private seqNow = 0;
  private readonly stopFollowingClock: () => void;
  private closed = false;
  private readonly responses = new WeakMap<FastifyRequest, unknown>();
  /** Followers in this process; stored entries come back from the writer only when someone hears them. */
  private followers = 0;
  /** Another instance may follow through a shared bus (Redis): then every batch is announced. */
  private readonly sharedBus: boolean;
  /** Where routes carry secrets in their paths (from every attached app), for masking URLs inside bodies. */
  private readonly secretPrefixes = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventBus,
    private readonly logger: Logger,
    readonly settings: TraceSettings,
  ) {
    this.sharedBus = !(events instanceof LocalEventBus);
    this.reader = new TraceReader(db);
    this.writer = new TraceWriter(
      db,
      BATCH_SIZE * NUMBER_SLOTS,
      { bodies: settings.bodies, maxEntries: settings.maxEntries, idTag: this.idTag },
      {
        written: (entries) => {
          if (entries)
            this.events
              .publish(TRACE_RECORDED, entries)
              .catch((err: unknown) => this.logger.warn({ err }, 'trace: announcing entries failed'));
        },
        lost: (count, error) =>
          this.logger.error({ err: new Error(error), entries: count }, 'trace: writing entries failed; they are lost'),
        warn: (message, error) => this.logger.error({ err: new Error(error) }, message),
      },
    );
    this.numbers = this.writer.numbers;
    this.stopFollowingClock = clock.onAdvance(() => {
      if (!this.closed) void this.prune();
    });
  }

  /** Continues the epochs and sequence numbers where the stored entries end, and starts the writer (openPlatform calls it once the table exists). */
  async resume(): Promise<void> {
    const row = await this.db.kysely
      .selectFrom('platform_trace')
      .select((eb) => [
        eb.fn.max<number | string | null>('epoch_max').as('epoch'),
        eb.fn.max<number | string | null>('seq_max').as('seq'),
      ])
      .executeTakeFirst();
    this.epochNow = Math.max(this.epochNow, Number(row?.epoch ?? 0));
    this.seqNow = Math.max(this.seqNow, Number(row?.seq ?? 0));
    if (this.settings.enabled) await this.writer.open();
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

  /** Records one entry (a no-op with HAMLET_TRACE=off). Never throws, never waits; the writer makes the row. */
  record(input: TraceInput): void {
    if (!this.enabled || this.full()) return;
    // The input itself goes to the writer (the caller hands it over): its texts are capped and masked there.
    this.captureValues(input, null);
    this.captureNumbers(NaN, NaN, -1, -1, -1, -1, -1, 0);
    this.captured();
  }

  /** A domain event for the activity feed, with a sentence for people. */
  event(e: {
    service: string;
    summary: string;
    keyId?: string | null;
    detail?: Record<string, unknown>;
    ok?: boolean;
  }): void {
    this.record({ kind: 'event', service: e.service, summary: e.summary, keyId: e.keyId, detail: e.detail, ok: e.ok });
  }

  /**
   * Records every request of a service's app (createApp calls this); /healthz is left out.
   * Returns what records a completed request: createApp calls it from its log controller, which
   * Fastify calls once per response anyway (an onResponse hook would cost every request
   * Fastify's hook runner, a tenth of what recording costs). Undefined with HAMLET_TRACE=off.
   */
  attach(app: App, service: string): ((request: FastifyRequest, reply: FastifyReply) => void) | undefined {
    if (!this.settings.enabled) return undefined;
    if (this.settings.bodies) {
      app.addHook('onRoute', (route) => this.noteSecretPath(route.url));
      app.addHook('onSend', async (request, reply, payload) => {
        this.responses.set(request, keptResponse(payload, reply.getHeader('content-type')));
        return payload;
      });
    }
    return (request, reply) => this.recordHttp(service, request, reply);
  }

  /**
   * An HTTP call, captured as references: the raw URL, the route's pattern, the bodies as the
   * request and reply hold them. Masking and capping them is the writer's work (trace-rows.ts).
   */
  private recordHttp(service: string, request: FastifyRequest, reply: FastifyReply): void {
    if (!this.enabled || this.full()) return;
    const url = request.url;
    if (url.startsWith('/healthz')) return;
    // A getter that builds an object: read once.
    const route = request.routeOptions;
    const keyId = request.apiKeyId;
    // A call without a key keeps no query values: anyone can send them, as long as a URL goes.
    let flags = keyId === null && url.includes('?') ? UrlFlag.DropQuery : 0;
    let extra: HttpExtra | null = null;
    const secrets = secretParamValues(request.params);
    if (secrets) extra = { secrets };
    if (this.settings.bodies) {
      extra = {
        ...extra,
        requestBody: sendable(request.body),
        responseBody: this.responses.get(request),
        secretFields: route.config?.traceSecretFields,
      };
    }
    let path = url;
    if (url.length > LONG_URL) {
      // A long URL (anyone can send one) is masked and cut here: copying it whole to the writer's thread would cost more.
      path = storedPath(url, secrets, (flags & UrlFlag.DropQuery) !== 0);
      flags |= UrlFlag.Stored;
    }
    this.captureValues(null, extra);
    this.captureNumbers(
      reply.statusCode,
      reply.elapsedTime,
      this.place(service),
      keyId ? this.place(keyId) : -1,
      this.place(request.method),
      route.url ? this.place(route.url) : -1,
      this.urlPlace(path),
      flags,
    );
    this.captured();
  }

  /** Notes a route whose path carries a secret, so the URLs bodies hold are masked there too. */
  private noteSecretPath(route: string): void {
    const prefix = secretPathPrefix(route);
    if (prefix === undefined || this.secretPrefixes.has(prefix)) return;
    this.secretPrefixes.add(prefix);
    this.writer.setSecretPaths(secretPathPattern(this.secretPrefixes)?.source);
  }

  /** Follows new entries once they are stored, a batch at a time (on every instance, through the bus). */
  follow(handler: (entries: TraceEntry[]) => void): () => void {
    this.followers++;
    const unsubscribe = this.events.subscribe(TRACE_RECORDED, handler);
    let following = true;
    return () => {
      if (!following) return;
      following = false;
      this.followers--;
      unsubscribe();
    };
  }

  /** Stores everything recorded so far; resolves once it is stored. Queries call it first, so they see every entry recorded before them. */
  async flush(): Promise<void> {
    this.send();
    await this.writer.flush();
  }

  /** Deletes entries older than the retention, by the platform's clock; returns how many. */
  prune(): Promise<number> {
    this.send();
    this.lastPruneMs = Date.now();
    return this.writer.prune(new Date(this.clock.ms() - this.settings.retentionMs).toISOString());
  }

  /** One page of entries matching the query. */
  async query(q: TraceQuery): Promise<TracePage> {
    await this.flush();
    const limit = Math.max(1, Math.min(q.limit ?? 100, 1000));
    const after = q.cursor ? decodeCursor(q.cursor) : undefined;
    const { entries, more } = await this.reader.page(q, limit, after);
    const last = entries[entries.length - 1];
    return { entries, nextCursor: more && last ? encodeCursor(last) : null };
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
    await this.writer.close();
  }

  /** The values of the next entry (trace-rows.ts CapturedBatch); captureNumbers then counts it. */
  private captureValues(input: TraceInput | null, extra: HttpExtra | null): void {
    const v = this.count * VALUE_SLOTS;
    const values = this.values;
    values[v + ValueSlot.Input] = input;
    values[v + ValueSlot.Extra] = extra;
    if (input !== null || extra !== null) this.hasValues = true;
  }

  /**
   * The numbers of the next entry: its sequence number, epoch, time and id, and an HTTP call's
   * status, duration, the places of its service, key id, method, route and URL in the
   * batch's strings (-1: none) and its UrlFlags; then counts the entry.
   */
  private captureNumbers(
    status: number,
    durationMs: number,
    service: number,
    keyId: number,
    method: number,
    route: number,
    url: number,
    flags: number,
  ): void {
    const n = this.count * NUMBER_SLOTS;
    const numbers = this.numbers;
    numbers[n + NumberSlot.Seq] = ++this.seqNow;
    numbers[n + NumberSlot.Epoch] = this.epochNow;
    numbers[n + NumberSlot.At] = this.clock.ms();
    numbers[n + NumberSlot.Id] = this.nextId();
    numbers[n + NumberSlot.Status] = status;
    numbers[n + NumberSlot.DurationMs] = durationMs;
    numbers[n + NumberSlot.Service] = service;
    numbers[n + NumberSlot.KeyId] = keyId;
    numbers[n + NumberSlot.Method] = method;
    numbers[n + NumberSlot.Route] = route;
    numbers[n + NumberSlot.Url] = url;
    numbers[n + NumberSlot.Flags] = flags;
    this.count++;
  }

  /** Where a string is in the batch's strings (added when new). The same few strings come again and again, hashed once. */
  private place(text: string): number {
    let place = this.places.get(text);
    if (place === undefined) {
      place = this.strings.length;
      this.strings.push(text);
      this.places.set(text, place);
    }
    return place;
  }

  /**
   * place() for a request's URL: every request brings its own copy of the string, which the
   * map would hash anew each time; most are the very URL of the call before, compared first.
   */
  private urlPlace(url: string): number {
    if (url !== this.lastUrl) {
      this.lastUrl = url;
      this.lastUrlPlace = this.place(url);
    }
    return this.lastUrlPlace;
  }

  /** Past MAX_BUFFERED entries waiting for the database, new ones are dropped (and said so). */
  private full(): boolean {
    if (this.writer.unwritten + this.count < MAX_BUFFERED) return false;
    if (this.dropped++ % 1000 === 0)
      this.logger.warn({ dropped: this.dropped }, 'trace: the database is not keeping up; dropping new entries');
    return true;
  }

  /** An entry was captured: its batch goes when full, or FLUSH_MS after its first entry. */
  private captured(): void {
    if (this.count >= BATCH_SIZE) this.send();
    else this.timer ??= setTimeout(() => this.send(), FLUSH_MS).unref();
  }

  /** Hands what is captured to the writer (at once; it is stored in the order sent). */
  private send(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.count) return;
    const batch: Omit<CapturedBatch, 'numbers'> = {
      count: this.count,
      values: this.hasValues ? this.values : undefined,
      strings: this.strings,
    };
    const copied = this.writer.write(batch, this.followers > 0 || this.sharedBus);
    // The numbers stay in the writer's buffer until stored; the next batch gets another.
    this.numbers = this.writer.numbers;
    // Copied to the writer's thread, the values are written over by the next batch (what lies
    // past a batch's count is never read), so recording allocates nothing; handed over in
    // process, they are the writer's, and the next batch gets its own.
    if (batch.values && !copied) this.values = newValues();
    this.count = 0;
    this.hasValues = false;
    this.strings = [];
    this.places.clear();
    this.lastUrl = '';
    if (Date.now() - this.lastPruneMs > PRUNE_EVERY_MS) void this.prune();
  }

  /** Real-time microseconds, strictly increasing in this process (the writer adds the process's tag). */
  private nextId(): number {
    this.lastId = Math.max(this.lastId + 1, Date.now() * 1000);
    return this.lastId;
  }
}

/** A batch's values, all slots there from the start (a list without holes is copied to a thread as one dense run). */
const newValues = (): unknown[] => Array.from({ length: BATCH_SIZE * VALUE_SLOTS }, () => null);

/** A request body as it can be handed to the writer thread: a stream is named, not read. */
function sendable(body: unknown): unknown {
  return body && typeof body === 'object' && typeof (body as { pipe?: unknown }).pipe === 'function'
    ? '[stream]'
    : body;
}

const encodeCursor = (e: Pick<TraceEntry, 'at' | 'id'>): string => Buffer.from(`${e.at}|${e.id}`).toString('base64url');

/** The position a cursor names, or undefined for one this trace did not hand out. */
export function decodeCursor(cursor: string): { at: string; id: string } | undefined {
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!at || !id || rest.length || Number.isNaN(Date.parse(at))) return undefined;
  return { at, id };
}

/** A response payload as the trace keeps it: text as it is, other bytes as their type and size. */
function keptResponse(payload: unknown, contentType: unknown): unknown {
  if (!Buffer.isBuffer(payload) || typeof contentType !== 'string' || TEXT_TYPE.test(contentType)) return payload;
  return `[${contentType.split(';')[0]}, ${payload.length} bytes]`;
}
