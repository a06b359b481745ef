// Fair shares for the live streams of every service in the process, WebSockets (the home's
// /api/websocket, mail's /v0) and server-sent events (the console's live pages) alike: how
// many connections one key and one client address may hold (per service), and one memory
// budget for the bytes all clients together have queued that the kernel has not taken yet.
//
// Why a shared budget: each service caps what one client may have queued (HOME_WS_MAX_BUFFER,
// 16 MB), but that cap is per client. 200 subscribers that never read each filled theirs
// before being cut: 200 × 16 MB, the 3.5 GB RSS measured here (3.6 GB observed). The budget bounds the
// sum: past it, the clients with the most queued are cut first (a reader that keeps up has
// nothing queued, so it keeps its stream), until the sum is back under three quarters of the
// budget. With many slow clients that is the same as a smaller cap for each.
/** HAMLET_WS_MAX_PER_KEY, HAMLET_WS_MAX_PER_ADDRESS, HAMLET_WS_MEMORY_BUDGET (read in src/config.ts). */
export interface WsLimits {
  maxPerKey: number;
  maxPerAddress: number;
  memoryBudgetBytes: number;
}

export interface BudgetedClient {
  /** Bytes queued for this client that the kernel has not taken yet. */
  queuedBytes(): number;
  /** Closes the client because it does not read fast enough. */
  cutOff(reason: string): void;
}

/** What the budget leaves queued after cutting clients: room before the next cut. */
const SHED_TO = 0.75;

export class WsBudget {
  private readonly slots = new Map<string, number>();
  /** Each tracked client with the queue size it last reported. */
  private readonly clients = new Map<BudgetedClient, number>();
  private total = 0;
  /** Clients cut because the budget was exceeded, since start (for the soak report and tests). */
  cuts = 0;

  constructor(readonly limits: WsLimits) {}

  /** Takes one of an address's connection slots for a service; undefined when it holds them all. */
  claimAddress(service: string, address: string): (() => void) | undefined {
    return this.claim(`${service} address ${address}`, this.limits.maxPerAddress);
  }

  /** Takes one of a key's connection slots; undefined when it holds them all. */
  claimKey(service: string, keyId: string): (() => void) | undefined {
    return this.claim(`${service} key ${keyId}`, this.limits.maxPerKey);
  }

  /** Starts counting a client's queue against the budget; the result stops it (idempotent). */
  track(client: BudgetedClient): () => void {
    this.clients.set(client, 0);
    return () => this.untrack(client);
  }

  /** Called after sending to a client: records its queue and cuts clients if the sum is over budget. */
  report(client: BudgetedClient): void {
    const before = this.clients.get(client);
    if (before === undefined) return;
    const now = client.queuedBytes();
    this.clients.set(client, now);
    this.total += now - before;
    if (this.total > this.limits.memoryBudgetBytes) this.shed();
  }

  /** Bytes queued for all tracked clients, as last reported. */
  queuedBytes(): number {
    return this.total;
  }

  private claim(slot: string, max: number): (() => void) | undefined {
    const held = this.slots.get(slot) ?? 0;
    if (held >= max) return undefined;
    this.slots.set(slot, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.slots.get(slot) ?? 1) - 1;
      if (left > 0) this.slots.set(slot, left);
      else this.slots.delete(slot);
    };
  }

  private untrack(client: BudgetedClient): void {
    const last = this.clients.get(client);
    if (last === undefined) return;
    this.clients.delete(client);
    this.total -= last;
  }

  private shed(): void {
    // Reports lag behind (a queue shrinks as the kernel takes bytes, unreported), so measure
    // every queue again before cutting anyone.
    const sizes: Array<[BudgetedClient, number]> = [];
    this.total = 0;
    for (const client of this.clients.keys()) {
      const bytes = client.queuedBytes();
      this.clients.set(client, bytes);
      this.total += bytes;
      sizes.push([client, bytes]);
    }
    if (this.total <= this.limits.memoryBudgetBytes) return;
    sizes.sort((a, b) => b[1] - a[1]);
    const target = this.limits.memoryBudgetBytes * SHED_TO;
    for (const [client, bytes] of sizes) {
      if (this.total <= target || bytes === 0) break;
      this.untrack(client);
      this.cuts++;
      client.cutOff(
        `the live streams of this server have more than ${this.limits.memoryBudgetBytes} bytes queued together; this one had the most (${bytes})`,
      );
    }
  }
}
