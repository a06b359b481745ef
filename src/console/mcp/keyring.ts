// The keys an agent holds, one per service at most. Hamlet's keys carry their service in their
// prefix (`hamlet_mail_…`), so a caller hands them over in any order and each goes only to its
// own service: the MCP server acts with exactly the agent's rights, never more (admin keys and
// the console's own keys are never used for a tool).
const SERVICE_KEY = /^hamlet_(blog|mail|community|home|workflow)_[A-Za-z0-9]+$/;

export class KeyRing {
  private readonly keys = new Map<string, string>();

  constructor(keys: Iterable<string> = []) {
    for (const key of keys) this.add(key);
  }

  /** Keys from `Authorization: Bearer <key>` and `X-Hamlet-Keys: <key>, <key>` (either or both). */
  static fromHeaders(headers: Record<string, string | string[] | undefined>): KeyRing {
    const found: string[] = [];
    const auth = headers.authorization;
    const bearer = typeof auth === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1] : undefined;
    if (bearer) found.push(bearer);
    const list = headers['x-hamlet-keys'];
    for (const value of Array.isArray(list) ? list : list ? [list] : []) found.push(...value.split(/[\s,]+/));
    return new KeyRing(found);
  }

  /** Adds a key if it is a service key; returns whether it was. */
  add(key: string): boolean {
    const service = SERVICE_KEY.exec(key.trim())?.[1];
    if (!service) return false;
    this.keys.set(service, key.trim());
    return true;
  }

  get(service: string): string | undefined {
    return this.keys.get(service);
  }

  services(): string[] {
    return [...this.keys.keys()];
  }

  /** Remembers keys a response hands out (a registration's `api_key`), for sessions that last (stdio). */
  learnFrom(value: unknown, depth = 0): void {
    if (depth > 4 || value === null || typeof value !== 'object') return;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (typeof v === 'string' && /api_?key/i.test(k)) this.add(v);
      else this.learnFrom(v, depth + 1);
    }
  }
}
