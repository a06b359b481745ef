// Where each service's HTTP API is reached, for code that calls a service over HTTP (the
// workflow's Hamlet nodes). The operator's HAMLET_<SERVICE>_URL wins; otherwise the address a
// running service reported, or the one its settings ask for (a `hamlet worker` serves nothing
// itself but reaches the API processes there).
export class Directory {
  private readonly running = new Map<string, string>();
  private readonly configured = new Map<string, string>();
  private readonly keyHeaderOf = new Map<string, string>();

  constructor(private readonly overrides: Record<string, string>) {}

  /** The address a service's settings ask for (before, or without, starting it here). */
  expect(service: string, url: string): void {
    this.configured.set(service, url);
  }

  /** The address a service listens on now (its port may have been 0). */
  listening(service: string, url: string): void {
    this.running.set(service, url);
  }

  /** The operator's public URL of a service (HAMLET_<SERVICE>_URL), if set. */
  /** Records the header a service reads keys from (ServiceDefinition.keyHeader), for whoever calls it. */
  takesKeysIn(service: string, header: string | undefined): void {
    if (header) this.keyHeaderOf.set(service, header);
  }

  /** The headers that carry `key` to a service: its own key header, else a bearer token. */
  keyHeaders(service: string, key: string): Record<string, string> {
    const header = this.keyHeaderOf.get(service);
    return header ? { [header]: key } : { authorization: `Bearer ${key}` };
  }

  publicUrl(service: string): string | undefined {
    return this.overrides[service];
  }

  url(service: string): string | undefined {
    return this.overrides[service] ?? this.running.get(service) ?? this.configured.get(service);
  }
}

/** The host to reach a server listening on `host` from this machine: a wildcard address means loopback. */
export function reachableHost(host: string): string {
  return host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
}

/** `http://host:port` for a server listening on `host` (IPv6 literals in brackets). */
export function reachableUrl(host: string, port: number): string {
  const h = reachableHost(host);
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}
