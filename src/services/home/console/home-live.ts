// The console's own connection to the home, over Home Assistant's WebSocket API (/api/websocket)
// as any HA client speaks it: auth with the console's home key, `subscribe_events` for
// state_changed, `get_states`, and the config/*_registry lists (which the home offers only over
// the WebSocket). It keeps the states and registries in memory, so the dashboard renders without
// asking the home anything, and hands every state change to the console's listeners (the SSE
// streams browsers hold open). It connects on first use and reconnects while anyone listens,
// then passes on, as changes, what changed while it was away.
import WebSocket from 'ws';
import type { Logger } from '../../../platform/logger.js';

export interface HassState {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
  last_changed: string;
  last_updated: string;
}

export interface HomeRegistries {
  floors: Array<{ floor_id: string; name: string; level: number | null }>;
  areas: Array<{ area_id: string; name: string; floor_id: string | null }>;
  devices: Array<{ id: string; area_id: string | null; name: string | null }>;
  entities: Array<{ entity_id: string; area_id: string | null; device_id: string | null }>;
}

export type StateListener = (entityId: string, state: HassState | null) => void;

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

const RECONNECT_MS = 1000;

export class HomeLink {
  /** Every entity's current state, kept up to date by state_changed events. */
  states = new Map<string, HassState>();
  registries: HomeRegistries = { floors: [], areas: [], devices: [], entities: [] };
  private ws?: WebSocket;
  private connecting?: Promise<void>;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<StateListener>();
  private closed = false;
  private reconnectTimer?: NodeJS.Timeout;
  private everConnected = false;

  constructor(
    private readonly baseUrl: () => string | undefined,
    private readonly token: () => string | undefined,
    private readonly logger: Logger,
  ) {}

  /** Whether the home runs somewhere this console can reach. */
  get available(): boolean {
    return Boolean(this.baseUrl() && this.token());
  }

  /** Connected, subscribed and holding a full set of states (connects on first call). */
  ready(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the console is stopping'));
    if (this.ws?.readyState === WebSocket.OPEN && this.connecting) return this.connecting;
    this.connecting ??= this.connect().catch((err: unknown) => {
      this.connecting = undefined;
      throw err;
    });
    return this.connecting;
  }

  /** Calls fn with every state change (state null: the entity was removed); returns the unsubscribe. */
  onChange(fn: StateListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** One WebSocket command; resolves with its result, rejects with the home's error message. */
  async command<T>(msg: Record<string, unknown>): Promise<T> {
    await this.ready();
    return this.send<T>(msg);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.ws?.close();
    this.listeners.clear();
  }

  private send<T>(msg: Record<string, unknown>): Promise<T> {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.reject(new Error('not connected to the home'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve, reject });
      ws.send(JSON.stringify({ ...msg, id }));
    });
  }

  private async connect(): Promise<void> {
    const base = this.baseUrl();
    const token = this.token();
    if (!base || !token) throw new Error('the home service is not reachable from this console');
    const ws = new WebSocket(base.replace(/^http/, 'ws') + '/api/websocket');
    this.ws = ws;
    await new Promise<void>((resolve, reject) => {
      ws.on('message', (data) => {
        const msg = JSON.parse(String(data)) as Record<string, unknown>;
        if (msg.type === 'auth_required') ws.send(JSON.stringify({ type: 'auth', access_token: token }));
        else if (msg.type === 'auth_ok') resolve();
        else if (msg.type === 'auth_invalid')
          reject(new Error(`the home refused the console's key: ${String(msg.message)}`));
        else this.receive(msg);
      });
      ws.on('error', reject);
      ws.on('close', () => {
        reject(new Error('the home closed the connection'));
        this.dropped(ws);
      });
    });
    // Subscribe before reading the states: a change in between arrives after the snapshot.
    await this.send({ type: 'subscribe_events', event_type: 'state_changed' });
    const [states, floors, areas, devices, entities] = await Promise.all([
      this.send<HassState[]>({ type: 'get_states' }),
      this.send<HomeRegistries['floors']>({ type: 'config/floor_registry/list' }),
      this.send<HomeRegistries['areas']>({ type: 'config/area_registry/list' }),
      this.send<HomeRegistries['devices']>({ type: 'config/device_registry/list' }),
      this.send<HomeRegistries['entities']>({ type: 'config/entity_registry/list' }),
    ]);
    const before = this.states;
    const reconnected = this.everConnected;
    this.everConnected = true;
    this.states = new Map(states.map((s) => [s.entity_id, s]));
    this.registries = { floors, areas, devices, entities };
    // Back after a drop: what changed while the link was down reaches the listeners as changes,
    // so the pages they feed do not keep showing the states from before.
    if (!reconnected) return;
    for (const [id, s] of this.states) if (before.get(id)?.last_updated !== s.last_updated) this.tell(id, s);
    for (const id of before.keys()) if (!this.states.has(id)) this.tell(id, null);
  }

  private tell(id: string, state: HassState | null): void {
    for (const fn of this.listeners) {
      try {
        fn(id, state);
      } catch (err) {
        this.logger.warn({ err }, 'a console listener of home states failed');
      }
    }
  }

  private receive(msg: Record<string, unknown>): void {
    if (msg.type === 'result') {
      const p = this.pending.get(msg.id as number);
      if (!p) return;
      this.pending.delete(msg.id as number);
      if (msg.success) p.resolve(msg.result);
      else
        p.reject(
          new Error(String((msg.error as { message?: string } | undefined)?.message ?? 'the home refused the command')),
        );
      return;
    }
    if (msg.type !== 'event') return;
    const event = msg.event as { event_type?: string; data?: { entity_id: string; new_state: HassState | null } };
    if (event.event_type !== 'state_changed' || !event.data) return;
    const { entity_id: id, new_state: next } = event.data;
    if (next) this.states.set(id, next);
    else this.states.delete(id);
    this.tell(id, next);
  }

  /** The socket is gone: fail what waited on it, and come back while browsers are listening. */
  private dropped(ws: WebSocket): void {
    if (this.ws !== ws) return;
    this.ws = undefined;
    this.connecting = undefined;
    for (const p of this.pending.values()) p.reject(new Error('the home closed the connection'));
    this.pending.clear();
    if (this.closed || this.listeners.size === 0) return;
    this.reconnectTimer = setTimeout(() => {
      this.ready().catch((err: unknown) => this.logger.warn({ err }, 'the console could not reconnect to the home'));
    }, RECONNECT_MS);
  }
}
