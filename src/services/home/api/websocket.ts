// The WebSocket API at /api/websocket: HA's auth phase, then commands with strictly
// increasing ids, answered as results, pongs and events. Outgoing messages are queued per
// connection and sent once per event-loop turn (as one JSON array when the client enabled
// coalesce_messages); a client whose socket buffers more than the bound is cut off, so a
// slow consumer cannot grow the server's memory without bound, and every client's queue counts
// against the platform's WebSocket memory budget, so many slow consumers cannot either. An
// address past its share of connections is refused at the upgrade (HTTP 429 in the home's
// envelope); a key past its share gets HA's auth_invalid with the reason.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket, RawData } from 'ws';
import { jsonShapeProblem } from '../../../platform/json-limits.js';
import { HttpError } from '../../../platform/errors.js';
import type { App } from '../../../platform/http.js';
import type { Platform } from '../../../platform/service.js';
import type { BudgetedClient } from '../../../platform/ws-budget.js';
import { eventJson, MATCH_ALL, type HomeEvent } from '../core/bus.js';
import { userIdOf, type Context } from '../core/context.js';
import { HomeError } from '../core/errors.js';
import { HA_VERSION, type Home } from '../core/home.js';
import type { State } from '../core/state.js';
import { attachTriggers, normalizeTriggers } from '../automations/triggers/index.js';
import type { Automations } from '../automations/engine.js';
import type { Persister } from '../persist.js';
import { compressState, entityMessage, type EntityMessage } from './compressed.js';

export interface WsDeps {
  home: Home;
  platform: Platform;
  persist: Persister;
  automations: Automations;
  maxBufferedBytes: number;
}

const AUTH_TIMEOUT_MS = 10_000;
/** Messages queued beyond which a client is considered stuck (HA: 4096). */
const MAX_QUEUED = 4096;


type Msg = Record<string, unknown> & { id: number; type: string };

/**
 * subscribe_events messages, encoded once per event and subscription id. Clients of one
 * library number their subscriptions alike, so most subscribers of an event share one buffer
 * and every socket queue holds a reference to it instead of its own copy (200 slow readers of
 * a 20 KB event queued 4 MB of copies per event before).
 */
const eventFrames = new WeakMap<HomeEvent, Map<number, Buffer>>();
function eventFrame(e: HomeEvent, subscription: number): Buffer {
  let frames = eventFrames.get(e);
  if (!frames) eventFrames.set(e, (frames = new Map()));
  let frame = frames.get(subscription);
  if (!frame) frames.set(subscription, (frame = Buffer.from(`{"id":${subscription},"type":"event","event":${eventJson(e)}}`)));
  return frame;
}

class CommandError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const formatError = (detail: string) => new CommandError('invalid_format', `Message incorrectly formatted: ${detail}`);

function expectStr(msg: Msg, key: string, required: boolean): string | undefined {
  const v = msg[key];
  if (v === undefined && !required) return undefined;
  if (v === undefined) throw formatError(`required key not provided @ data['${key}']`);
  if (typeof v !== 'string') throw formatError(`expected str for dictionary value @ data['${key}']. Got ${JSON.stringify(v)}`);
  return v;
}

function expectObj(msg: Msg, key: string): Record<string, unknown> | undefined {
  const v = msg[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw formatError(`expected dict for dictionary value @ data['${key}']. Got ${JSON.stringify(v)}`);
  return v as Record<string, unknown>;
}

/** The WebSocket routes (hajs with a trailing-slash base URL asks for "//api/websocket"). */
export function registerWebSocket(app: App, deps: WsDeps): void {
  const budget = deps.platform.websockets;
  const admit = async (request: FastifyRequest) => {
    // Only an upgrade holds a connection; a plain GET here takes no slot.
    if (request.raw.headers.upgrade?.toLowerCase() !== 'websocket') return;
    const release = budget.claimAddress('home', request.ip);
    if (!release) throw new HttpError(429, `Too many WebSocket connections from your address (at most ${budget.limits.maxPerAddress})`);
    // The upgraded socket is this one: its slot is held until it closes.
    request.raw.socket.once('close', release);
  };
  // A refused upgrade is answered over HTTP; then its socket must go, or it lingers.
  const dropRefused = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.raw.headers.upgrade && reply.statusCode >= 400) request.raw.socket.destroy();
  };
  const onSocket = (socket: WebSocket) => void new WsConnection(socket, deps);
  app.get('/api/websocket', { websocket: true, preHandler: admit, onResponse: dropRefused }, onSocket);
  app.get('//api/websocket', { websocket: true, preHandler: admit, onResponse: dropRefused, schema: { hide: true } }, onSocket);
}

/** subscribe_entities events of a single change, shared the same way as eventFrame. */
const entityFrames = new WeakMap<EntityMessage, Map<number, Buffer>>();
function entityFrame(m: EntityMessage, subscription: number): Buffer {
  let frames = entityFrames.get(m);
  if (!frames) entityFrames.set(m, (frames = new Map()));
  let frame = frames.get(subscription);
  if (!frame) {
    const body = m.kind === 'r' ? `[${m.text}]` : `{${m.text}}`;
    frames.set(subscription, (frame = Buffer.from(`{"id":${subscription},"type":"event","event":{"${m.kind}":${body}}}`)));
  }
  return frame;
}

class WsConnection implements BudgetedClient {
  private authed = false;
  private authing = false;
  private readonly early: RawData[] = [];
  private userId: string | null = null;
  private lastId = 0;
  private coalesce = false;
  private readonly subs = new Map<number, () => void>();
  /** Messages waiting for this turn's flush: text, or a shared encoded frame (eventFrame). */
  private outbox: Array<string | Buffer> = [];
  private flushScheduled = false;
  /**
   * subscribe_entities changes waiting to leave, per subscription: changes of different
   * entities share one event (HA's format allows it), so a burst costs one message per
   * client instead of one per change.
   */
  private readonly entityBatches = new Map<number, { a: string[]; c: string[]; r: string[]; ids: Set<string>; only?: EntityMessage }>();
  private closed = false;
  /** Cancels the auth timeout; on the home's clock, so tests under a manual clock move it. */
  private readonly cancelAuthTimeout: () => void;
  private readonly untrack: () => void;
  private releaseKeySlot?: () => void;

  constructor(
    private readonly socket: WebSocket,
    private readonly deps: WsDeps,
  ) {
    socket.on('message', (data, isBinary) => this.onFrame(data, isBinary));
    socket.on('close', () => this.cleanup());
    socket.on('error', () => this.cleanup());
    this.cancelAuthTimeout = deps.home.scheduler.after(AUTH_TIMEOUT_MS, () => this.close());
    this.untrack = deps.platform.websockets.track(this);
    this.sendNow(JSON.stringify({ type: 'auth_required', ha_version: HA_VERSION }));
  }

  queuedBytes(): number {
    return this.socket.bufferedAmount;
  }

  private sendNow(text: string) {
    if (!this.closed) this.socket.send(text);
  }

  /**
   * Queues a message; everything queued in one event-loop turn leaves together, in one frame
   * for clients that enabled coalesce_messages. (Holding events back longer, e.g. 10 ms, to
   * make fewer frames was measured: it made the fan-out's latency worse, not better.)
   */
  private send(text: string | Buffer) {
    if (this.closed) return;
    // Messages leave in the order they were made: pending entity batches go first.
    if (this.entityBatches.size) this.closeEntityBatches();
    this.outbox.push(text);
    if (this.outbox.length > MAX_QUEUED) return this.cutOff('too many queued messages');
    this.scheduleFlush();
  }

  private scheduleFlush() {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  /** Adds a state change to its subscription's pending event, starting a new event when the entity repeats. */
  private queueEntity(subscription: number, m: EntityMessage) {
    if (this.closed) return;
    let b = this.entityBatches.get(subscription);
    if (b?.ids.has(m.entityId)) {
      this.closeEntityBatches();
      b = undefined;
    }
    if (!b) this.entityBatches.set(subscription, (b = { a: [], c: [], r: [], ids: new Set(), only: m }));
    else b.only = undefined;
    b.ids.add(m.entityId);
    b[m.kind].push(m.text);
    this.scheduleFlush();
  }

  private closeEntityBatches() {
    for (const [id, b] of this.entityBatches) {
      // A batch of one change is what every subscriber of that change gets: share its frame.
      if (b.only) {
        this.outbox.push(entityFrame(b.only, id));
        continue;
      }
      const parts: string[] = [];
      if (b.a.length) parts.push(`"a":{${b.a.join(',')}}`);
      if (b.r.length) parts.push(`"r":[${b.r.join(',')}]`);
      if (b.c.length) parts.push(`"c":{${b.c.join(',')}}`);
      this.outbox.push(`{"id":${id},"type":"event","event":{${parts.join(',')}}}`);
    }
    this.entityBatches.clear();
    if (this.outbox.length > MAX_QUEUED) this.cutOff('too many queued messages');
  }

  private flush() {
    this.flushScheduled = false;
    if (this.entityBatches.size) this.closeEntityBatches();
    if (this.closed || this.outbox.length === 0) return;
    if (this.socket.bufferedAmount > this.deps.maxBufferedBytes) return this.cutOff('client is not reading fast enough');
    const out = this.outbox;
    this.outbox = [];
    if (this.coalesce && out.length > 1) this.sendCoalesced(out);
    else for (const m of out) this.socket.send(m, { binary: false });
    this.deps.platform.websockets.report(this);
  }

  /**
   * Runs of text messages leave as one JSON array each; a shared event frame leaves on its
   * own, since copying it into this client's array would undo the sharing.
   */
  private sendCoalesced(out: Array<string | Buffer>) {
    let run: string[] = [];
    const sendRun = () => {
      if (run.length > 1) this.socket.send(`[${run.join(',')}]`);
      else if (run.length === 1) this.socket.send(run[0]!);
      run = [];
    };
    for (const m of out) {
      if (typeof m === 'string') run.push(m);
      else {
        sendRun();
        this.socket.send(m, { binary: false });
      }
    }
    sendRun();
  }

  cutOff(reason: string) {
    this.deps.home.logger.warn({ reason }, 'home websocket: closing a slow client');
    this.outbox = [];
    this.socket.terminate();
    this.cleanup();
  }

  private close() {
    if (this.closed) return;
    this.socket.close();
    this.cleanup();
  }

  private cleanup() {
    if (this.closed) return;
    this.closed = true;
    this.cancelAuthTimeout();
    this.untrack();
    this.releaseKeySlot?.();
    for (const stop of this.subs.values()) stop();
    this.subs.clear();
    this.outbox = [];
    this.entityBatches.clear();
  }

  private result(id: number, result: unknown) {
    this.send(`{"id":${id},"type":"result","success":true,"result":${result === undefined ? 'null' : JSON.stringify(result)}}`);
  }

  private error(id: number, code: string, message: string) {
    this.send(JSON.stringify({ id, type: 'result', success: false, error: { code, message } }));
  }

  private onFrame(data: RawData, isBinary: boolean) {
    if (this.closed) return;
    if (isBinary) return this.close();
    if (!this.authed) {
      if (this.authing) return void this.early.push(data);
      return void this.authenticate(data);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString());
    } catch {
      return this.close();
    }
    for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
      // Shape checked once, without recursion, before any command walks or stores the message.
      const problem = jsonShapeProblem(m, { maxDepth: this.deps.platform.config.http.jsonMaxDepth });
      if (!problem) this.handle(m);
      else this.error(idOf(m), 'invalid_format', `Message ${problem.message}.`);
    }
  }

  private async authenticate(data: RawData) {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(data.toString());
    } catch {
      return this.close();
    }
    const fail = (message: string) => {
      this.sendNow(JSON.stringify({ type: 'auth_invalid', message }));
      this.close();
    };
    if (typeof msg !== 'object' || msg === null || msg.type !== 'auth') return fail(`Auth message incorrectly formatted: value must be auth for dictionary value @ data['type']`);
    const token = msg.access_token ?? msg.api_password;
    if (typeof token !== 'string') return fail(`Auth message incorrectly formatted: required key not provided @ data['access_token']`);
    this.authing = true;
    const key = await this.deps.platform.keys.verify('home', token).catch(() => undefined);
    this.authing = false;
    if (this.closed) return;
    if (!key) return fail('Invalid access token or password');
    const budget = this.deps.platform.websockets;
    this.releaseKeySlot = budget.claimKey('home', key.id);
    if (!this.releaseKeySlot) return fail(`Too many connections with this access token (at most ${budget.limits.maxPerKey})`);
    this.authed = true;
    this.userId = userIdOf(key.id);
    this.cancelAuthTimeout();
    this.sendNow(JSON.stringify({ type: 'auth_ok', ha_version: HA_VERSION }));
    for (const d of this.early.splice(0)) this.onFrame(d, false);
  }

  private handle(raw: unknown) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return this.error(0, 'invalid_format', 'Message incorrectly formatted.');
    const msg = raw as Msg;
    const id = msg.id;
    if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0 || typeof msg.type !== 'string') {
      return this.error(typeof id === 'number' && Number.isInteger(id) ? id : 0, 'invalid_format', 'Message incorrectly formatted.');
    }
    if (id <= this.lastId) return this.error(id, 'id_reuse', 'Identifier values have to increase.');
    this.lastId = id;
    const command = COMMANDS[msg.type];
    if (!command) return this.error(id, 'unknown_command', 'Unknown command.');
    try {
      const r = command.call(this, msg);
      if (r instanceof Promise) r.catch((err) => this.fail(id, err));
    } catch (err) {
      this.fail(id, err);
    }
  }

  private fail(id: number, err: unknown) {
    if (err instanceof CommandError || err instanceof HomeError) return this.error(id, err.code, err.message);
    this.deps.home.logger.error({ err }, 'home websocket command failed');
    this.error(id, 'unknown_error', 'Unknown error');
  }

  private context(): Context {
    return this.deps.home.context(this.userId);
  }

  private subscribe(id: number, stop: () => void) {
    this.subs.set(id, stop);
  }

  // ---- commands --------------------------------------------------------------------------

  supported_features(msg: Msg) {
    const f = expectObj(msg, 'features') ?? {};
    this.coalesce = f.coalesce_messages === 1 || f.coalesce_messages === true;
    this.result(msg.id, null);
  }

  ping(msg: Msg) {
    this.send(`{"id":${msg.id},"type":"pong"}`);
  }

  get_states(msg: Msg) {
    const parts: string[] = [];
    for (const s of this.deps.home.states.all()) parts.push(s.json());
    this.send(`{"id":${msg.id},"type":"result","success":true,"result":[${parts.join(',')}]}`);
  }

  get_config(msg: Msg) {
    this.result(msg.id, this.deps.home.configObject());
  }

  get_services(msg: Msg) {
    this.result(msg.id, this.deps.home.describeServices());
  }

  subscribe_events(msg: Msg) {
    const type = expectStr(msg, 'event_type', false) ?? MATCH_ALL;
    const id = msg.id;
    this.subscribe(id, this.deps.home.bus.listen(type, (e) => this.send(eventFrame(e, id))));
    this.result(id, null);
  }

  unsubscribe_events(msg: Msg) {
    const sub = msg.subscription;
    if (typeof sub !== 'number') throw formatError(`expected int for dictionary value @ data['subscription']. Got ${JSON.stringify(sub)}`);
    const stop = this.subs.get(sub);
    if (!stop) throw new CommandError('not_found', 'Subscription not found.');
    stop();
    this.subs.delete(sub);
    this.entityBatches.delete(sub);
    this.result(msg.id, null);
  }

  subscribe_entities(msg: Msg) {
    const id = msg.id;
    let filter: Set<string> | undefined;
    if (msg.entity_ids !== undefined) {
      if (!Array.isArray(msg.entity_ids) || msg.entity_ids.some((x) => typeof x !== 'string')) throw formatError(`expected a list for dictionary value @ data['entity_ids']`);
      filter = new Set((msg.entity_ids as string[]).map((x) => x.toLowerCase()));
    }
    this.subscribe(
      id,
      this.deps.home.bus.listen('state_changed', (e) => {
        const m = entityMessage(e);
        if (filter && !filter.has(m.entityId)) return;
        this.queueEntity(id, m);
      }),
    );
    this.result(id, null);
    const snapshot: Record<string, unknown> = {};
    for (const s of this.deps.home.states.all()) if (!filter || filter.has(s.entity_id)) snapshot[s.entity_id] = compressState(s);
    this.send(`{"id":${id},"type":"event","event":${JSON.stringify({ a: snapshot })}}`);
  }

  fire_event(msg: Msg) {
    const type = expectStr(msg, 'event_type', true)!;
    const data = expectObj(msg, 'event_data') ?? {};
    const context = this.context();
    this.deps.home.fire(type, data, context, 'LOCAL');
    return this.deps.persist.commit().then(() => this.result(msg.id, { context }));
  }

  async call_service(msg: Msg) {
    const domain = expectStr(msg, 'domain', true)!;
    const service = expectStr(msg, 'service', true)!;
    const data = expectObj(msg, 'service_data') ?? {};
    const returnResponse = msg.return_response === true;
    const context = this.context();
    const r = await this.deps.home.callService(domain, service, data, { target: msg.target, context, returnResponse });
    await this.deps.persist.commit();
    this.result(msg.id, returnResponse ? { context, response: r.response } : { context });
  }

  subscribe_trigger(msg: Msg) {
    const id = msg.id;
    if (msg.trigger === undefined) throw formatError(`required key not provided @ data['trigger']`);
    let triggers;
    try {
      triggers = normalizeTriggers(msg.trigger);
    } catch (err) {
      throw formatError((err as Error).message);
    }
    const variables = expectObj(msg, 'variables') ?? {};
    const stop = attachTriggers(this.deps.home, triggers, (vars, context) =>
      this.send(JSON.stringify({ id, type: 'event', event: { variables: { ...variables, trigger: vars }, context: context ?? this.context() } })),
    );
    this.subscribe(id, stop);
    this.result(id, null);
  }

  validate_config(msg: Msg) {
    this.result(msg.id, this.deps.automations.validateParts(msg));
  }

  'webhook/list'(msg: Msg) {
    this.result(
      msg.id,
      [...this.deps.home.webhooks].map(([webhook_id, h]) => ({ webhook_id, domain: 'automation', name: webhook_id, local_only: h.localOnly, allowed_methods: h.allowedMethods })),
    );
  }
}

/** The command table: a method of WsConnection per command type. */
const COMMANDS: Record<string, (this: WsConnection, msg: Msg) => unknown> = Object.fromEntries(
  ['supported_features', 'ping', 'get_states', 'get_config', 'get_services', 'subscribe_events', 'unsubscribe_events', 'subscribe_entities', 'fire_event', 'call_service', 'subscribe_trigger', 'validate_config', 'webhook/list'].map((name) => [
    name,
    (WsConnection.prototype as unknown as Record<string, (this: WsConnection, msg: Msg) => unknown>)[name]!,
  ]),
);

export type { State };

/** The id of a message, for an error answer, or 0 when it has none usable. */
function idOf(m: unknown): number {
  const id = (m as { id?: unknown } | null)?.id;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : 0;
}
