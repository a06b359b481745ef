// The shared WebSocket budget on its own: connection slots per key and address, and the memory
// budget cutting the clients with the most queued first, never one that has nothing queued.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/platform/settings.js';
import { WsBudget, type BudgetedClient } from '../../src/platform/ws-budget.js';

class FakeClient implements BudgetedClient {
  cut?: string;
  constructor(public queued: number) {}
  queuedBytes() {
    return this.queued;
  }
  cutOff(reason: string) {
    this.cut = reason;
  }
}

const MB = 1024 * 1024;

describe('WsBudget', () => {
  it('gives each key and address its share of slots per service, and takes them back once', () => {
    const b = new WsBudget({ maxPerKey: 2, maxPerAddress: 3, memoryBudgetBytes: 64 * MB });
    const k1 = b.claimKey('home', 'k');
    const k2 = b.claimKey('home', 'k');
    expect(k1 && k2).toBeTruthy();
    expect(b.claimKey('home', 'k')).toBeUndefined();
    expect(b.claimKey('mail', 'k')).toBeTruthy(); // another service counts apart
    k1!();
    k1!(); // releasing twice frees one slot only
    expect(b.claimKey('home', 'k')).toBeTruthy();
    expect(b.claimKey('home', 'k')).toBeUndefined();
    for (let i = 0; i < 3; i++) expect(b.claimAddress('home', '10.0.0.1')).toBeTruthy();
    expect(b.claimAddress('home', '10.0.0.1')).toBeUndefined();
    expect(b.claimAddress('home', '10.0.0.2')).toBeTruthy();
  });

  it('cuts the clients with the most queued first, down to three quarters of the budget', () => {
    const b = new WsBudget({ maxPerKey: 10, maxPerAddress: 10, memoryBudgetBytes: 10 * MB });
    const fast = new FakeClient(0);
    const slow = [1, 2, 3, 4].map((mb) => new FakeClient(mb * MB));
    for (const c of [fast, ...slow]) b.track(c);
    for (const c of [fast, ...slow]) b.report(c);
    // 10 MB queued: at the budget, not over it.
    expect(slow.some((c) => c.cut)).toBe(false);
    slow[3].queued = 5 * MB;
    b.report(slow[3]);
    // 11 MB: the 5 MB client goes, which leaves 6 MB, under three quarters of the budget.
    expect(slow.map((c) => Boolean(c.cut))).toEqual([false, false, false, true]);
    expect(fast.cut).toBeUndefined();
    expect(b.queuedBytes()).toBe(6 * MB);
    expect(b.cuts).toBe(1);
  });

  it('measures again before cutting: a queue that drained unreported saves its client', () => {
    const b = new WsBudget({ maxPerKey: 10, maxPerAddress: 10, memoryBudgetBytes: 10 * MB });
    const drained = new FakeClient(8 * MB);
    const other = new FakeClient(1 * MB);
    b.track(drained);
    b.track(other);
    b.report(drained);
    b.report(other);
    drained.queued = 0; // the kernel took it; no report since
    other.queued = 3 * MB;
    b.report(other); // the stale sum says 11 MB, the real one 3 MB
    expect(drained.cut ?? other.cut).toBeUndefined();
    expect(b.queuedBytes()).toBe(3 * MB);
  });

  it('stops counting a client once untracked', () => {
    const b = new WsBudget({ maxPerKey: 10, maxPerAddress: 10, memoryBudgetBytes: 10 * MB });
    const c = new FakeClient(4 * MB);
    const untrack = b.track(c);
    b.report(c);
    untrack();
    untrack();
    expect(b.queuedBytes()).toBe(0);
    b.report(c); // a late report of an untracked client is ignored
    expect(b.queuedBytes()).toBe(0);
  });

  it('reads its settings from the environment and reports bad values', () => {
    expect(
      loadConfig({
        HAMLET_WS_MAX_PER_KEY: '5',
        HAMLET_WS_MAX_PER_ADDRESS: '7',
        HAMLET_WS_MEMORY_BUDGET: String(32 * MB),
      }).websockets,
    ).toEqual({ maxPerKey: 5, maxPerAddress: 7, memoryBudgetBytes: 32 * MB });
    expect(loadConfig({}).websockets).toEqual({ maxPerKey: 50, maxPerAddress: 200, memoryBudgetBytes: 64 * MB });
    try {
      loadConfig({ HAMLET_WS_MAX_PER_KEY: '0', HAMLET_WS_MAX_PER_ADDRESS: 'lots', HAMLET_WS_MEMORY_BUDGET: '1000' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).problems).toHaveLength(3);
    }
  });
});
