// The console's way to a service: its public HTTP API at the address the directory knows,
// authenticated with a key the console holds for that service. Keys of admin-keyed services
// (mail, home, workflow) are minted at start under the name `hamlet-console`, so the plaintext
// lives only in this process's memory, and revoked when the console stops. They are not revoked
// at the next start: with several instances, another instance's console still uses its own. A
// process killed outright leaves its keys live but unknown to anyone.
import { CONSOLE_KEY_NAME } from './keys.js';
import type { Platform } from './service.js';

export interface ServiceResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export class ServiceClient {
  private readonly keys = new Map<string, string>();
  /** Every key this process minted, revoked by release(). */
  private readonly minted: Array<{ service: string; id: string }> = [];

  constructor(private readonly platform: Platform) {}

  /** Mints this process's key for each admin-keyed service. */
  async prepare(adminKeyed: string[]): Promise<void> {
    for (const service of adminKeyed) this.keys.set(service, await this.mint(service));
  }

  /** A new key of a service for the console's own use (e.g. one per mail organization), revoked when the console stops. */
  async mint(service: string, opts: { name?: string; ownerId?: string } = {}): Promise<string> {
    const { key, record } = await this.platform.keys.create(service, {
      name: opts.name ?? CONSOLE_KEY_NAME,
      ownerId: opts.ownerId,
    });
    this.minted.push({ service, id: record.id });
    return key;
  }

  /** Revokes the keys this process minted (at stop). */
  async release(): Promise<void> {
    for (const { service, id } of this.minted.splice(0)) await this.platform.keys.revoke({ service, id });
  }

  /** The key the console holds for a service, for callers that speak another protocol (the home WebSocket). */
  keyFor(service: string): string | undefined {
    return this.keys.get(service);
  }

  /** The base URL of a service's HTTP API, or undefined when it runs nowhere this process knows. */
  baseUrl(service: string): string | undefined {
    return this.platform.directory.url(service);
  }

  /**
   * Calls `path` on a service. JSON bodies are sent and read as JSON; the key goes in the header
   * the service declares (n8n's X-N8N-API-KEY for workflow), else as a bearer token.
   */
  async request<T = unknown>(
    service: string,
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string>; auth?: string } = {},
  ): Promise<ServiceResponse<T>> {
    const base = this.baseUrl(service);
    if (!base)
      throw new Error(
        `the ${service} service is not reachable from this process (not started, and no HAMLET_${service.toUpperCase()}_URL)`,
      );
    const key = init.auth ?? this.keys.get(service);
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...init.headers,
      ...(key ? this.platform.directory.keyHeaders(service, key) : {}),
    };
    let body: string | undefined;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(base + path, { method: init.method ?? 'GET', headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    if (/json/.test(res.headers.get('content-type') ?? '') && text) parsed = JSON.parse(text) as unknown;
    return { status: res.status, body: parsed as T, headers: res.headers };
  }
}
