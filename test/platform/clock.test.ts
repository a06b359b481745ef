// The controllable clock and its timer queue, without a server: a frozen clock holds time and
// timers while real time passes (vitest's fake timers stand in for real seconds), a running one
// follows it, jumps skip, and `advance` walks every due time in order, timers and other sources
// of due work interleaved, each run with the clock at its own due time.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ControllableClock, ManualClock } from '../../src/platform/clock.js';
import { Timers, timersFor } from '../../src/platform/timers.js';

const T0 = Date.parse('2026-01-05T09:00:00.000Z');
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(11, 19);

afterEach(() => {
  vi.useRealTimers();
});

describe('ControllableClock', () => {
  it('follows system time until frozen, then stands still while real seconds pass', () => {
    vi.useFakeTimers({ now: T0 });
    const clock = new ControllableClock();
    expect(clock.ms()).toBe(T0);
    vi.advanceTimersByTime(5000);
    expect(clock.ms()).toBe(T0 + 5000);
    clock.freeze();
    vi.advanceTimersByTime(60_000);
    expect(clock.state()).toEqual({ frozen: true, now: new Date(T0 + 5000).toISOString() });
    // Unfrozen, it runs on from where it stood: no jump to real time.
    clock.unfreeze();
    vi.advanceTimersByTime(1000);
    expect(clock.ms()).toBe(T0 + 6000);
  });

  it('jumps frozen or running, and restores a saved state exactly', () => {
    vi.useFakeTimers({ now: T0 });
    const clock = new ControllableClock({ now: '2030-06-01T12:00:00.000Z' });
    vi.advanceTimersByTime(2000);
    expect(clock.now().toISOString()).toBe('2030-06-01T12:00:02.000Z');
    clock.freeze();
    const saved = clock.state();
    clock.set('2031-01-01T00:00:00.000Z');
    clock.unfreeze();
    vi.advanceTimersByTime(10_000);
    expect(clock.state()).toEqual({ frozen: false, now: '2031-01-01T00:00:10.000Z' });
    clock.restore(saved);
    vi.advanceTimersByTime(10_000);
    expect(clock.state()).toEqual({ frozen: true, now: '2030-06-01T12:00:02.000Z' });
    clock.restore({ frozen: false, now: '2029-01-01T00:00:00.000Z' });
    vi.advanceTimersByTime(1000);
    expect(clock.now().toISOString()).toBe('2029-01-01T00:00:01.000Z');
    expect(() => clock.set('not a time')).toThrow(RangeError);
  });

  it('a ManualClock is frozen at exactly its start', () => {
    const clock = new ManualClock('2026-01-01T00:00:00.123Z');
    expect(clock.frozen).toBe(true);
    expect(clock.now().toISOString()).toBe('2026-01-01T00:00:00.123Z');
    clock.advance(877);
    expect(clock.now().toISOString()).toBe('2026-01-01T00:00:01.000Z');
  });
});

describe('Timers', () => {
  it('under a frozen clock nothing fires while real time passes; a running clock fires on time', () => {
    vi.useFakeTimers({ now: T0 });
    const clock = new ControllableClock({ frozen: true });
    const timers = new Timers(clock);
    const fired: string[] = [];
    timers.after(5000, () => fired.push('a'));
    vi.advanceTimersByTime(60_000);
    expect(fired).toEqual([]);
    clock.unfreeze();
    vi.advanceTimersByTime(4999);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['a']);
  });

  it('a jump runs what became due once, in time order; cancelled timers never run', () => {
    const clock = new ManualClock(T0);
    const timers = new Timers(clock);
    const fired: string[] = [];
    timers.at(T0 + 3 * HOUR, () => fired.push('c'));
    timers.at(T0 + HOUR, () => fired.push('a'));
    const cancel = timers.at(T0 + 2 * HOUR, () => fired.push('cancelled'));
    timers.at(T0 + HOUR, () => fired.push('a2')); // same time: in the order added
    timers.every(HOUR, () => fired.push(`every@${iso(clock.ms())}`));
    cancel();
    clock.advance(24 * HOUR);
    expect(fired).toEqual(['a', 'a2', 'every@09:00:00', 'c']);
  });

  it('advance steps through every due time: an hourly timer fires 24 times, interleaved with others and with a source', async () => {
    const clock = new ManualClock(T0);
    const timers = new Timers(clock);
    const fired: string[] = [];
    timers.every(HOUR, () => fired.push(`hourly ${iso(clock.ms())}`));
    timers.at(T0 + 90 * 60_000, async () => {
      await Promise.resolve();
      fired.push(`once ${iso(clock.ms())}`);
      // Work scheduled while advancing, inside the window, runs in the same advance.
      timers.after(15 * 60_000, () => fired.push(`follow-up ${iso(clock.ms())}`));
    });
    // A source of due work kept elsewhere (as the jobs table is): due at 02:30 and 04:45 after T0.
    const jobs = [T0 + 150 * 60_000, T0 + 285 * 60_000];
    timers.addSource({
      nextDue: async () => jobs[0],
      settle: async () => {
        while (jobs.length && jobs[0] <= clock.ms()) fired.push(`job ${iso(jobs.shift()!)} at ${iso(clock.ms())}`);
      },
    });
    const end = await timers.advance(24 * HOUR);
    expect(end.getTime()).toBe(T0 + 24 * HOUR);
    expect(clock.frozen).toBe(true);
    expect(fired.filter((f) => f.startsWith('hourly')).length).toBe(24);
    expect(fired.slice(0, 9)).toEqual([
      'hourly 10:00:00',
      'once 10:30:00',
      'follow-up 10:45:00',
      'hourly 11:00:00',
      'job 11:30:00 at 11:30:00',
      'hourly 12:00:00',
      'hourly 13:00:00',
      'job 13:45:00 at 13:45:00',
      'hourly 14:00:00',
    ]);
    expect(fired.at(-1)).toBe('hourly 09:00:00');
  });

  it('a clock set back (a restored world) re-arms repeating timers from the new time', async () => {
    const clock = new ManualClock(T0);
    const timers = new Timers(clock);
    const fired: string[] = [];
    timers.every(HOUR, () => fired.push(iso(clock.ms())));
    const saved = clock.state();
    await timers.advance(5 * HOUR);
    expect(fired).toEqual(['10:00:00', '11:00:00', '12:00:00', '13:00:00', '14:00:00']);
    fired.length = 0;
    clock.restore(saved);
    await timers.advance(2 * HOUR);
    expect(fired).toEqual(['10:00:00', '11:00:00']);
  });

  it('a hold keeps timers from running while a world is replaced: a timer cancelled before the release never runs', () => {
    const clock = new ManualClock(T0);
    const timers = new Timers(clock);
    const fired: string[] = [];
    const oldWorlds = timers.at(T0 + HOUR, () => fired.push('old world'));
    timers.at(T0 + 2 * HOUR, () => fired.push('kept'));
    const release = timers.hold();
    // The restored clock jumps past both; the old world's services reload and drop their timer.
    clock.restore({ frozen: true, now: new Date(T0 + 24 * HOUR).toISOString() });
    expect(fired).toEqual([]);
    oldWorlds();
    release();
    expect(fired).toEqual(['kept']);
    release(); // a second release changes nothing
    const again = timers.hold();
    timers.at(T0 + 24 * HOUR, () => fired.push('due now'));
    expect(fired).toEqual(['kept']);
    again();
    expect(fired).toEqual(['kept', 'due now']);
  });

  it('advance leaves a running clock running, from the target time', async () => {
    vi.useFakeTimers({ now: T0 });
    const clock = new ControllableClock();
    const timers = new Timers(clock);
    const end = await timers.advance(HOUR);
    expect(end.getTime()).toBe(T0 + HOUR);
    expect(clock.frozen).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(clock.ms()).toBe(T0 + HOUR + 1000);
  });

  it('sleep follows the clock and rejects on abort; every clock has one shared queue', async () => {
    const clock = new ManualClock(T0);
    expect(timersFor(clock)).toBe(timersFor(clock));
    const timers = timersFor(clock);
    let woke = false;
    const slept = timers.sleep(1000).then(() => (woke = true));
    clock.advance(999);
    await Promise.resolve();
    expect(woke).toBe(false);
    clock.advance(1);
    await slept;
    expect(woke).toBe(true);
    const ac = new AbortController();
    const aborted = timers.sleep(1000, ac.signal);
    ac.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
  });
});
