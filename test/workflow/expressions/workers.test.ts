// The sandbox worker pool (issue 9, "user code off the event loop"): runaway code costs a
// worker, never the event loop; what QuickJS cannot interrupt is stopped from outside (the
// worker is terminated and replaced); an AbortSignal abandons a run; the pool size is a setting.
// Issue 27: a spare worker is kept while every worker is busy, and a run that waits for a worker
// its whole time limit fails without starting (so every run answers within its limit).
import { afterAll, describe, expect, it } from 'vitest';
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

/** Runs `work` while measuring how late a 10 ms timer fires on this thread (the event loop's stall). */
async function worstStall<T>(work: () => Promise<T>): Promise<{ result: PromiseSettledResult<T>; stallMs: number }> {
  let worst = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 10);
    last = now;
  }, 10);
  try {
    const [result] = await Promise.allSettled([work()]);
    return { result: result!, stallMs: worst };
  } finally {
    clearInterval(timer);
  }
}

describe('runaway code', () => {
  it('a catastrophic regex is stopped by the time limit, away from the event loop', async () => {
    await ex.runCode({ code: 'return [];', mode: 'runOnceForAllItems', data }); // a worker is up
    for (const run of [
      () => ex.runCode({ code: `return [{ json: { v: ${CATASTROPHIC} } }];`, mode: 'runOnceForAllItems', data }),
      () => ex.resolve(`={{ ${CATASTROPHIC} }}`, data),
    ]) {
      const { result, stallMs } = await worstStall(run);
      expect(result.status).toBe('rejected');
      const error = (result as PromiseRejectedResult).reason as SandboxLimitError;
      expect(error).toBeInstanceOf(SandboxLimitError);
      expect(error.kind).toBe('timeout');
      expect(error.message).toBe('Execution timed out after 1000 ms');
      // The event loop never waited for the regex (generous: the machine is shared).
      expect(stallMs).toBeLessThan(250);
    }
    expect(await ex.resolve('={{ $json.name.toUpperCase() }}', data)).toBe('X');
  });

  it('endless loops in every mode run beside the event loop, not on it', async () => {
    const { result, stallMs } = await worstStall(() =>
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
    expect(stallMs).toBeLessThan(250);
  });
});

describe('abandoning a run', () => {
  it('an aborted signal stops the run at once (the worker is replaced) and rejects with its reason', async () => {
    const controller = new AbortController();
    // One worker and no spare, so that a second run has to wait.
    const slow = createExpressions({ timeoutMs: 60_000, memoryBytes: 32 * 1024 * 1024, workers: 1, maxWorkers: 1 });
    try {
      expect(await slow.resolve('={{ 0 }}', data)).toBe(0); // the worker is up
      const running = slow.runCode({ code: 'while (true) {}', mode: 'runOnceForAllItems', data, signal: controller.signal });
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
    const two = createExpressions({ timeoutMs: 400, memoryBytes: 32 * 1024 * 1024, workers: 2, maxWorkers: 2 });
    try {
      await two.resolve('={{ 1 + 1 }}', data); // the workers are up
      const started = performance.now();
      const answered: number[] = [];
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, () => two.runCode({ code: 'while (true) {}', mode: 'runOnceForAllItems', data }).finally(() => answered.push(performance.now() - started))),
      );
      const errors = results.map((r) => (r as PromiseRejectedResult).reason as SandboxLimitError);
      expect(errors.map((e) => e.message)).toEqual(Array(5).fill('Execution timed out after 400 ms'));
      // Two ran until their limit; the others waited for a worker (all, or all but one that got a
      // worker with its time nearly spent), and never started.
      const neverStarted = errors.filter((e) => e.description?.includes('never started') && e.description.includes('WORKFLOW_SANDBOX_MAX_WORKERS'));
      expect(neverStarted.length).toBeGreaterThanOrEqual(2);
      // Each answered about when its limit ran out, not after the runs before it (generous: the machine is shared).
      expect(Math.max(...answered)).toBeLessThan(400 + 500 + 1000);
      // Interrupted from inside each time: the same two workers served all of them.
      expect(two.stats().workersStarted).toBe(2);
    } finally {
      two.close();
    }
  });

  it('keeps a spare worker while every worker is busy: a run does not wait behind runaway code', async () => {
    const pool = createExpressions({ timeoutMs: 60_000, memoryBytes: 32 * 1024 * 1024, workers: 1, maxWorkers: 3 });
    try {
      await pool.resolve('={{ 1 + 1 }}', data);
      const controller = new AbortController();
      const runaway = pool.runCode({ code: 'while (true) {}', mode: 'runOnceForAllItems', data, signal: controller.signal }).catch((e: unknown) => e);
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
    expect(readSettings(readWorkflowSettings, { WORKFLOW_SANDBOX_WORKERS: '3', WORKFLOW_SANDBOX_MAX_WORKERS: '10' }).sandbox.maxWorkers).toBe(10);
    expect(() => readSettings(readWorkflowSettings, { WORKFLOW_SANDBOX_WORKERS: '3', WORKFLOW_SANDBOX_MAX_WORKERS: '2' })).toThrow(/WORKFLOW_SANDBOX_MAX_WORKERS/);
  });
});
