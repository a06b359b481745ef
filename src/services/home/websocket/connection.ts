// One WebSocket client of /api/websocket: HA's auth phase, then commands with strictly
// increasing ids (commands.ts), answered as results, pongs and events. Outgoing messages are
// queued per connection and sent once per event-loop turn (as one JSON array when the client
// enabled coalesce_messages); a client whose socket buffers more than the bound is cut off, so
// a slow consumer cannot grow the server's memory without bound, and every client's queue
// counts against the platform's WebSocket memory budget, so many slow consumers cannot either.
// A key past its share of connections gets HA's auth_invalid with the reason.
import type { WebSocket, RawData } from 'ws';
import { jsonShapeProblem } from '../../../platform/json-limits.js';
import type { Platform } from '../../../platform/service.js';
import type { BudgetedClient } from '../../../platform/ws-budget.js';
import type { Automations } from '../automations/engine.js';
import { userIdOf, type Context } from '../core/context.js';
import { HomeError } from '../core/errors.js';
import { HA_VERSION, type Home } from '../core/home.js';
import type { Persister } from '../recorder/persister.js';
import type { HomeStore } from '../store/index.js';
import { COMMANDS, type Session, type SessionUser } from './commands.js';
import type { EntityMessage } from './compressed.js';
import { entityFrame } from './frames.js';
import { CommandError, idOf, type Msg } from './messages.js';

export interface ConnectionDeps {
  home: Home;
  platform: Platform;
  persist: Persister;
  store: HomeStore;
  automations: Automations;
  /** Outgoing bytes a client may have buffered before it is cut off (HOME_WS_MAX_BUFFER). */
  maxBufferedBytes: number;
}

const AUTH_TIMEOUT_MS = 10_000;
/** Messages queued beyond which a client is considered stuck (HA: 4096). */
const MAX_QUEUED = 4096;

export class WsConnection implements BudgetedClient, Session {
  readonly home: Home;
  readonly automations: Automations;
  readonly persist: Persister;
  readonly store: HomeStore;
  private authed = false;
  private authing = false;
  private readonly early: RawData[] = [];
  private userId: string | null = null;
  private userName: string | null = null;
  /** The id of the access token's key, for the trace. */
  private keyId: string | null = null;
  private lastId = 0;
  private coalescing = false;
  private readonly subs = new Map<number, () => void>();
  /** Messages waiting for this turn's flush: text, or a shared encoded frame (frames.ts). */
  private outbox: Array<string | Buffer> = [];
  private flushScheduled = false;
  /**
   * subscribe_entities changes waiting to leave, per subscription: changes of different
   * entities share one event (HA's format allows it), so a burst costs one message per
   * client instead of one per change.
   */
  private readonly entityBatches = new Map<
    number,
    { a: string[]; c: string[]; r: string[]; ids: Set<string>; only?: EntityMessage }
  >();
  private closed = false;
  /** Cancels the auth timeout; on the home's clock, so tests under a manual clock move it. */
  private readonly cancelAuthTimeout: () => void;
  private readonly untrack: () => void;
  private releaseKeySlot?: () => void;

  constructor(
    private readonly socket: WebSocket,
    private readonly deps: ConnectionDeps,
  ) {
    this.home = deps.home;
    this.automations = deps.automations;
    this.persist = deps.persist;
    this.store = deps.store;
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
  send(text: string | Buffer) {
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
  queueEntity(subscription: number, m: EntityMessage) {
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
    if (this.socket.bufferedAmount > this.deps.maxBufferedBytes)
      return this.cutOff('client is not reading fast enough');
    const out = this.outbox;
    this.outbox = [];
    if (this.coalescing && out.length > 1) this.sendCoalesced(out);
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
      else if (run.length === 1) this.socket.send(run[0]);
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
    this.home.logger.warn({ reason }, 'home websocket: closing a slow client');
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

  // ---- the Session commands work through ---------------------------------------------------

  context(): Context {
    return this.home.context(this.userId);
  }

  user(): SessionUser {
    return { id: this.userId!, name: this.userName };
  }

  result(id: number, result: unknown) {
    this.send(
      `{"id":${id},"type":"result","success":true,"result":${result === undefined ? 'null' : JSON.stringify(result)}}`,
    );
  }

  subscribe(id: number, stop: () => void) {
    this.subs.set(id, stop);
  }

  unsubscribe(id: number): boolean {
    const stop = this.subs.get(id);
    if (!stop) return false;
    stop();
    this.subs.delete(id);
    this.entityBatches.delete(id);
    return true;
  }

  coalesce(on: boolean) {
    this.coalescing = on;
  }

  // ---- incoming ------------------------------------------------------------------------------

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
    if (typeof msg !== 'object' || msg === null || msg.type !== 'auth')
      return fail(`Auth message incorrectly formatted: value must be auth for dictionary value @ data['type']`);
    const token = msg.access_token ?? msg.api_password;
    if (typeof token !== 'string')
      return fail(`Auth message incorrectly formatted: required key not provided @ data['access_token']`);
    this.authing = true;
    const key = await this.deps.platform.keys.verify('home', token).catch((err: unknown) => {
      // A key store that cannot answer refuses the client (as an invalid token would), loudly.
      this.home.logger.error({ err, service: 'home' }, 'home websocket: verifying an access token failed');
      return undefined;
    });
    this.authing = false;
    if (this.closed) return;
    if (!key) return fail('Invalid access token or password');
    const budget = this.deps.platform.websockets;
    this.releaseKeySlot = budget.claimKey('home', key.id);
    if (!this.releaseKeySlot)
      return fail(`Too many connections with this access token (at most ${budget.limits.maxPerKey})`);
    this.authed = true;
    this.userId = userIdOf(key.id);
    this.userName = key.name;
    this.keyId = key.id;
    this.cancelAuthTimeout();
    this.sendNow(JSON.stringify({ type: 'auth_ok', ha_version: HA_VERSION }));
    for (const d of this.early.splice(0)) this.onFrame(d, false);
  }

  private handle(raw: unknown) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      return this.error(0, 'invalid_format', 'Message incorrectly formatted.');
    const msg = raw as Msg;
    const id = msg.id;
    if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0 || typeof msg.type !== 'string') {
      return this.error(
        typeof id === 'number' && Number.isInteger(id) ? id : 0,
        'invalid_format',
        'Message incorrectly formatted.',
      );
    }
    if (id <= this.lastId) return this.error(id, 'id_reuse', 'Identifier values have to increase.');
    this.lastId = id;
    const command = COMMANDS.get(msg.type);
    const traced = this.traceCommand(id, msg.type);
    if (!command) {
      traced(false);
      return this.error(id, 'unknown_command', 'Unknown command.');
    }
    try {
      const r = command(this, msg);
      if (r instanceof Promise)
        r.then(
          () => traced(true),
          (err) => {
            traced(false);
            this.fail(id, err);
          },
        );
      else traced(true);
    } catch (err) {
      traced(false);
      this.fail(id, err);
    }
  }

  /** Records a command in the trace once its outcome is known (a command that throws answered success: false). */
  private traceCommand(id: number, type: string): (success: boolean) => void {
    const started = performance.now();
    // Pings are the client's keep-alive, not something it did.
    if (type === 'ping') return () => {};
    return (success) =>
      this.deps.platform.trace.record({
        service: 'home',
        kind: 'ws',
        keyId: this.keyId,
        method: type,
        route: '/api/websocket',
        ok: success,
        durationMs: performance.now() - started,
        detail: { id },
      });
  }

  private fail(id: number, err: unknown) {
    if (err instanceof CommandError || err instanceof HomeError) return this.error(id, err.code, err.message);
    this.home.logger.error({ err, service: 'home', command: id }, 'home websocket command failed');
    this.error(id, 'unknown_error', 'Unknown error');
  }
}
