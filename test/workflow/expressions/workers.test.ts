// The sandbox worker pool (issue 9, "user code off the event loop"): runaway code costs a
// worker, never the event loop; what QuickJS cannot interrupt is stopped from outside (the
// worker is terminated and replaced); an AbortSignal abandons a run; the pool size is a setting.
// Issue 27: a spare worker is kept while every worker is busy, and a run that waits for a worker
// its whole time limit fails without starting (so every run answers within its limit).
import { afterAll, describe, expect, it, vi } from 'vitest';
import { waitFor } from '../../helpers/wait.js';
import { ConfigError } from '../../../src/platform/settings.js';
import { readSettings } from '../../../src/platform/settings.js';
import { readWorkflowSettings } from '../../../src/services/workflow/settings.js';
import { createExpressions, SandboxLimitError } from '../../../src/services/workflow/expressions/index.js';
import { items, makeData } from './helpers.js';

const ex = createExpressions({ timeoutMs: 1000, memoryBytes: 32 * 1024 * 1024, workers: 2 });
afterAll(() => ex.close());
const data = makeData({ input: items({ name: 'x' }) });
const CATASTROPHIC = "/^(a+)+$/.test('a'.repeat(40) + 'b')";

/**
 * Runs `work` while counting turns of this thread's event loop (a setImmediate each). Code run
 * on the event loop would hold every turn until it ended; run in a worker, the loop keeps
 * turning the whole time. Counting turns, not measuring a timer's lateness, keeps the test
 * about where the code runs, not about how busy the machine is.
 */
async function turnsWhile<T>(work: () => Promise<T>): Promise<{ result: PromiseSettledResult<T>; turns: number }> {
  let turns = 0;
  let done = false;
  const counting = (async () => {
    while (!done) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      turns++;
    }
  })();
  try {
    const [result] = await Promise.allSettled([work()]);
    return { result: result, turns };
  } finally {
    done = true;
    await counting;
  }
}

/** A time limit's worth of code on the event loop would leave at most a turn or two. */
const TURNS_OFF_THE_LOOP = 20;

describe('runaway code', () => {
  it('a catastrophic regex is stopped by the time limit, away from the event loop', async () => {
    await ex.runCode({ code: 'return [];', mode: 'runOnceForAllItems', data }); // a worker is up
    for (const run of [
      () => ex.runCode({ code: `return [{ json: { v: ${CATASTROPHIC} } }];`, mode: 'runOnceForAllItems', data }),
      () => ex.resolve(`={{ ${CATASTROPHIC} }}`, data),
    ]) {
      const { result, turns } = await turnsWhile(run);
      expect(result.status).toBe('rejected');
      const error = (result as PromiseRejectedResult).reason as SandboxLimitError;
      expect(error).toBeInstanceOf(SandboxLimitError);
      expect(error.kind).toBe('timeout');
      expect(error.message).toBe('Execution timed out after 1000 ms');
      // The event loop kept turning while the regex ran.
      expect(turns).toBeGreaterThan(TURNS_OFF_THE_LOOP);
    }
    expect(await ex.resolve('={{ $json.name.toUpperCase() }}', data)).toBe('X');
  });

  it('endless loops in every mode run beside the event loop, not on it', async () => {
    const { result, turns } = await turnsWhile(() =>
      Promise.allSettled([
        ex.runCode({ code: 'while (true) {}', mode: 'runOnceForAllItems', data }),
        ex.runCode({ code: 'while (true) {}', mode: 'runOnceForEachItem', data }),
        ex.runFunction({ code: 'while (true) {}', perItem: false, data }),
        ex.runFunction({ code: 'while (true) {}', perItem: true, data }),
        ex.resolve('={{ (() => { while (true) {} })() }}', data),
      ]),
    );
    const outcomes = (result as PromiseFulfilledResult<PromiseSettledResult<unknown>[]>).value;
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect(((outcome as PromiseRejectedResult).reason as Error).message).toBe('Execution timed out after 1000 ms');
    }
    expect(turns).toBeGreaterThan(TURNS_OFF_THE_LOOP);
  });
});

describe('abandoning a run', () => {
  it('an aborted signal stops the run at once (the worker is replaced) and rejects with its reason', async () => {
    const controller = new AbortController();
    // One worker and no spare, so that a second run has to wait.
    const slow = createExpressions({ timeoutMs: 60_000, memoryBytes: 32 * 1024 * 1024, workers: 1, maxWorkers: 1 });
    try {
      expect(await slow.resolve('={{ 0 }}', data)).toBe(0); // the worker is up
      const running = slow.runCode({
        code: 'while (true) {}',
        mode: 'runOnceForAllItems',
        data,
        signal: controller.signal,
      });
      // Queued behind it (one worker): abandoned without ever running.
      const queued = slow.resolve('={{ 1 + 1 }}', data, controller.signal);
      const reason = new Error('stopped by the test');
      // The subject: an abort while the run is in its worker.
      await waitFor(() => slow.stats().inWorkers === 1, { message: 'the endless run to reach its worker' });
      controller.abort(reason);
      await expect(running).rejects.toBe(reason);
      await expect(queued).rejects.toBe(reason);
      // Already aborted: never starts.
      await expect(slow.resolve('={{ 2 + 2 }}', data, controller.signal)).rejects.toBe(reason);
      expect(await slow.resolve('={{ 3 + 3 }}', data)).toBe(6);
      expect(slow.stats().workersStarted).toBe(2);
    } finally {
      slow.close();
    }
  });

  it('close() ends runs in progress', async () => {
    const closing = createExpressions({ timeoutMs: 60_000, memoryBytes: 32 * 1024 * 1024, workers: 1 });
    const running = closing.runCode({ code: 'while (true) {}', mode: 'runOnceForAllItems', data });
    await waitFor(() => closing.stats().inWorkers === 1, { message: 'the endless run to reach its worker' });
    closing.close();
    await expect(running).rejects.toThrow('expressions are closed');
  });
});

describe('pool size', () => {
  it('runs at most WORKFLOW_SANDBOX_MAX_WORKERS runs at once; one that waits its whole time limit fails without starting', async () => {
    // Behaviour, not timings: two endless runs hold both workers (their own limit is far away,
    // and the test ends them with a signal), so the three runs queued behind them can only end
    // by waiting out their limit. The main thread's clock (the queue's timers and
    // performance.now) is the fake one, moved by the test; the workers keep real time, so
    // nothing here races a clock.
    const LIMIT_MS = 120_000;
    const two = createExpressions({ timeoutMs: LIMIT_MS, memoryBytes: 32 * 1024 * 1024, workers: 2, maxWorkers: 2 });
    const holding = new AbortController();
    try {
      const holders = [1, 2].map(() =>
        two
          .runCode({ code: 'while (true) {}', mode: 'runOnceForAllItems', data, signal: holding.signal })
          .catch((e: unknown) => e),
      );
      await waitFor(() => two.stats().inWorkers === 2, {
        timeoutMs: 25_000,
        message: 'the two endless runs to reach their workers',
      });
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      const answered: string[] = [];
      const waiting = [1, 2, 3].map((n) =>
        two.runCode({ code: 'while (true) {}', mode: 'runOnceForAllItems', data }).then(
          () => answered.push(`${n} ran`),
          (e: SandboxLimitError) =>
            answered.push(
              e.description?.includes('never started') && e.description.includes('WORKFLOW_SANDBOX_MAX_WORKERS')
                ? `${n} never started`
                : `${n}: ${e.message}`,
            ),
        ),
      );
      // Three runs wait and the pool is at its most: no third thread, no third run in a worker.
      expect(two.stats()).toMatchObject({ workersStarted: 2, inWorkers: 2 });
      await vi.advanceTimersByTimeAsync(LIMIT_MS - 1);
      expect(answered).toEqual([]); // not before their limit
      // At the limit; the pool fails expired runs one per turn of the event loop (a timer each).
      await vi.advanceTimersByTimeAsync(1);
      for (let turn = 0; turn < 3 && answered.length < 3; turn++) await vi.advanceTimersByTimeAsync(1);
      await Promise.all(waiting);
      // Each answered when its own limit ran out, while the runs before it still held the workers.
      expect(answered.sort()).toEqual(['1 never started', '2 never started', '3 never started']);
      expect(two.stats()).toMatchObject({ workersStarted: 2, inWorkers: 2 });
      vi.useRealTimers();
      holding.abort(new Error('released by the test'));
      expect((await Promise.all(holders)).map((e) => (e as Error).message)).toEqual([
        'released by the test',
        'released by the test',
      ]);
    } finally {
      vi.useRealTimers();
      two.close();
    }
  }, 60_000);

  it('keeps a spare worker while every worker is busy: a run does not wait behind runaway code', async () => {
    const pool = createExpressions({ timeoutMs: 60_000, memoryBytes: 32 * 1024 * 1024, workers: 1, maxWorkers: 3 });
    try {
      await pool.resolve('={{ 1 + 1 }}', data);
      const controller = new AbortController();
      const runaway = pool
        .runCode({ code: 'while (true) {}', mode: 'runOnceForAllItems', data, signal: controller.signal })
        .catch((e: unknown) => e);
      await waitFor(() => pool.stats().inWorkers === 1, { message: 'the endless run to reach its worker' });
      // The spare started when the only worker became busy; this run takes it (or waits for it to be up).
      expect(await pool.resolve('={{ 2 + 2 }}', data)).toBe(4);
      expect(pool.stats().workersStarted).toBeGreaterThanOrEqual(2);
      expect(pool.stats().workersStarted).toBeLessThanOrEqual(3);
      controller.abort(new Error('done'));
      await runaway;
    } finally {
      pool.close();
    }
  });

  it('WORKFLOW_SANDBOX_WORKERS is read and checked; the default is the number of cores', async () => {
    const { availableParallelism } = await import('node:os');
    expect(readSettings(readWorkflowSettings, {}).sandbox.workers).toBe(availableParallelism());
    expect(readSettings(readWorkflowSettings, { WORKFLOW_SANDBOX_WORKERS: '3' }).sandbox.workers).toBe(3);
    for (const bad of ['0', 'many', '-1']) {
      expect(() => readSettings(readWorkflowSettings, { WORKFLOW_SANDBOX_WORKERS: bad })).toThrow(ConfigError);
      expect(() => readSettings(readWorkflowSettings, { WORKFLOW_SANDBOX_MAX_WORKERS: bad })).toThrow(ConfigError);
    }
    // The most at once: the kept number and a spare by default, never fewer than the kept number.
    expect(readSettings(readWorkflowSettings, { WORKFLOW_SANDBOX_WORKERS: '3' }).sandbox.maxWorkers).toBe(4);
    expect(
      readSettings(readWorkflowSettings, { WORKFLOW_SANDBOX_WORKERS: '3', WORKFLOW_SANDBOX_MAX_WORKERS: '10' }).sandbox
        .maxWorkers,
    ).toBe(10);
    expect(() =>
      readSettings(readWorkflowSettings, { WORKFLOW_SANDBOX_WORKERS: '3', WORKFLOW_SANDBOX_MAX_WORKERS: '2' }),
    ).toThrow(/WORKFLOW_SANDBOX_MAX_WORKERS/);
  });
});
