// The WebSocket event stream at /v0 (AgentMail's): a client subscribes with
// {"type":"subscribe", event_types?, inbox_ids?, pod_ids?} and then receives the same event
// objects webhooks carry. Events cross instances on the platform bus, after their commit;
// payloads are built only while some instance has a live subscriber for the organization.
// Fair shares: an address or a key past its share of connections is refused at the upgrade with
// a 429 in the mail envelope; each event is encoded once for all its subscribers; a subscriber
// whose queue passes MAIL_WS_MAX_BUFFER is cut, and every queue counts against the platform's
// WebSocket memory budget.
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { Clock } from '../../../platform/clock.js';
import { HttpError } from '../../../platform/errors.js';
import type { EventBus } from '../../../platform/events.js';
import type { App } from '../../../platform/http.js';
import type { Logger } from '../../../platform/logger.js';
import type { BudgetedClient, WsBudget } from '../../../platform/ws-budget.js';
import { EVENT_TYPES, type EventScope, type LiveFeed } from '../webhooks/events.js';

const LIVE_TOPIC = 'mail.live';
const HELLO_TOPIC = 'mail.live.hello';
/** How long an organization counts as listened to after its last announcement. */
const PRESENCE_MS = 60_000;
const ANNOUNCE_MS = 20_000;

type LiveEvent = EventScope & { eventType: string; body: string };

interface Subscriber extends BudgetedClient {
  socket: WebSocket;
  orgId: string;
  eventTypes?: Set<string>;
  inboxIds?: Set<string>;
  podIds?: Set<string>;
}

export interface LiveLimits {
  budget: WsBudget;
  /** Bytes one subscriber may have queued before it is cut off. */
  maxBufferedBytes: number;
  logger: Logger;
}

/**
 * Built with the service's core (job handlers publish events too, in `hamlet worker` as well);
 * `register` adds the WebSocket route when the process serves HTTP.
 */
export class LiveStream implements LiveFeed {
  private readonly subscribers = new Set<Subscriber>();
  /** Organizations with a subscriber on any instance, until the given time (ms). */
  private readonly listened = new Map<string, number>();
  private readonly offs: Array<() => void> = [];
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly bus: EventBus,
    private readonly clock: Clock,
    private readonly limits: LiveLimits,
  ) {
    this.offs.push(bus.subscribe<LiveEvent>(LIVE_TOPIC, (e) => this.dispatch(e)));
    this.offs.push(
      bus.subscribe<{ orgId: string }>(
        HELLO_TOPIC,
        (m) => void this.listened.set(m.orgId, this.clock.ms() + PRESENCE_MS),
      ),
    );
    this.timer = setInterval(() => this.announce(), ANNOUNCE_MS);
    this.timer.unref();
  }

  /** Whether events of this organization should be published for live subscribers. */
  wants(orgId: string): boolean {
    const until = this.listened.get(orgId);
    return until !== undefined && until > this.clock.ms();
  }

  publish(e: LiveEvent): Promise<void> {
    return this.bus.publish(LIVE_TOPIC, e);
  }

  /**
   * In a scope of its own, registered after every other route and hook of the app (so /v0 has
   * them all): the plugin's hooks, an onRequest and an onResponse, then run for /v0 alone
   * rather than for every request of the API.
   */
  async register(app: App): Promise<void> {
    await app.register(async (scope) => this.route(scope));
  }

  private async route(app: FastifyInstance): Promise<void> {
    await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
    app.get(
      '/v0',
      {
        websocket: true,
        schema: { hide: true },
        preHandler: async (request) => this.admit(request),
        // A refused upgrade (bad key, no slot) is answered over HTTP; then its socket must go, or it lingers.
        onResponse: async (request, reply) => {
          if (request.raw.headers.upgrade && reply.statusCode >= 400) request.raw.socket.destroy();
        },
      },
      (socket, request) => this.accept(socket, request.mailOrgId),
    );
  }

  /** Takes a slot of the caller's address and key for as long as the upgraded socket lives. */
  private admit(request: FastifyRequest): void {
    // Only an upgrade holds a connection; a plain GET here takes no slot.
    if (request.raw.headers.upgrade?.toLowerCase() !== 'websocket') return;
    const budget = this.limits.budget;
    const address = budget.claimAddress('mail', request.ip);
    if (!address)
      throw new HttpError(
        429,
        `Too many WebSocket connections from your address (at most ${budget.limits.maxPerAddress})`,
        'rate_limit_exceeded',
      );
    const key = budget.claimKey('mail', request.mailKeyId);
    if (!key) {
      address();
      throw new HttpError(
        429,
        `Too many WebSocket connections with this API key (at most ${budget.limits.maxPerKey})`,
        'rate_limit_exceeded',
      );
    }
    request.raw.socket.once('close', () => (address(), key()));
  }

  private accept(socket: WebSocket, orgId: string): void {
    const sub: Subscriber = {
      socket,
      orgId,
      queuedBytes: () => socket.bufferedAmount,
      cutOff: (reason) => {
        this.limits.logger.warn({ reason }, 'mail websocket: closing a slow client');
        this.subscribers.delete(sub);
        socket.terminate();
      },
    };
    const untrack = this.limits.budget.track(sub);
    socket.on('message', (data) => {
      let msg: { type?: unknown; event_types?: unknown; inbox_ids?: unknown; pod_ids?: unknown };
      try {
        msg = JSON.parse(String(data));
      } catch {
        return this.send(socket, { type: 'error', name: 'ValidationError', message: 'messages must be JSON' });
      }
      if (msg?.type !== 'subscribe')
        return this.send(socket, { type: 'error', name: 'ValidationError', message: 'type must be "subscribe"' });
      const list = (name: string, v: unknown): string[] | undefined | null => {
        if (v === undefined || v === null) return undefined;
        if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) {
          this.send(socket, { type: 'error', name: 'ValidationError', message: `${name} must be an array of strings` });
          return null;
        }
        return v;
      };
      const eventTypes = list('event_types', msg.event_types);
      const inboxIds = list('inbox_ids', msg.inbox_ids);
      const podIds = list('pod_ids', msg.pod_ids);
      if (eventTypes === null || inboxIds === null || podIds === null) return;
      const unknown = eventTypes?.find((t) => !(EVENT_TYPES as readonly string[]).includes(t));
      if (unknown)
        return this.send(socket, {
          type: 'error',
          name: 'ValidationError',
          message: `unknown event type "${unknown}"`,
        });
      sub.eventTypes = eventTypes?.length ? new Set(eventTypes) : undefined;
      sub.inboxIds = inboxIds?.length ? new Set(inboxIds.map((i) => i.toLowerCase())) : undefined;
      sub.podIds = podIds?.length ? new Set(podIds) : undefined;
      const first = !this.subscribers.has(sub);
      this.subscribers.add(sub);
      this.send(socket, {
        type: 'subscribed',
        ...(eventTypes ? { event_types: eventTypes } : {}),
        ...(inboxIds ? { inbox_ids: inboxIds } : {}),
        ...(podIds ? { pod_ids: podIds } : {}),
      });
      if (first) this.hello(orgId);
    });
    const gone = () => {
      this.subscribers.delete(sub);
      untrack();
    };
    socket.on('close', gone);
    socket.on('error', gone);
  }

  private send(socket: WebSocket, msg: unknown): void {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
  }

  private dispatch(e: LiveEvent): void {
    // Encoded once: every subscriber's queue holds the same buffer, not its own copy.
    let frame: Buffer | undefined;
    for (const s of [...this.subscribers]) {
      if (s.orgId !== e.orgId) continue;
      if (s.eventTypes && !s.eventTypes.has(e.eventType)) continue;
      if (s.inboxIds && !s.inboxIds.has(e.inboxId)) continue;
      if (s.podIds && !s.podIds.has(e.podId)) continue;
      if (s.socket.readyState !== s.socket.OPEN) continue;
      s.socket.send((frame ??= Buffer.from(e.body)), { binary: false });
      if (s.socket.bufferedAmount > this.limits.maxBufferedBytes) s.cutOff('client is not reading fast enough');
      else this.limits.budget.report(s);
    }
  }

  private hello(orgId: string): void {
    this.listened.set(orgId, this.clock.ms() + PRESENCE_MS);
    // A lost announcement only delays other instances' publishing until the next one (ANNOUNCE_MS).
    void this.bus
      .publish(HELLO_TOPIC, { orgId })
      .catch((err) =>
        this.limits.logger.warn({ err, service: 'mail', orgId }, 'mail websocket: announcing a subscriber failed'),
      );
  }

  private announce(): void {
    for (const org of new Set([...this.subscribers].map((s) => s.orgId))) this.hello(org);
  }

  /** Closes every subscriber's socket (the HTTP side stops). */
  disconnectAll(): void {
    for (const s of this.subscribers) s.socket.close();
    this.subscribers.clear();
  }

  /** Stops announcing and listening on the bus (the service stops). */
  close(): void {
    clearInterval(this.timer);
    for (const off of this.offs) off();
    this.disconnectAll();
  }
}
