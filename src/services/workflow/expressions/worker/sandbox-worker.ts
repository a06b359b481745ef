// A sandbox worker thread: QuickJS sandboxes (sandbox-pool.ts) running one task at a time for
// the main thread's SandboxWorkers (worker/pool.ts). A runaway task costs this thread only; the
// main thread terminates it when it does not answer in time.
//
// How the sandbox reads the run's data, which stays in the main thread: the prelude reads data
// lazily and synchronously (`__hamletHost` must answer before QuickJS continues), so a read is a
// synchronous call to the main thread. The worker posts the request on its own MessagePort and
// sleeps in Atomics.wait on a shared flag; the main thread answers from its event loop (it
// never blocks: it posts the answer, then sets the flag and notifies), and the worker takes the
// answer with receiveMessageOnPort. The alternatives were worse: copying all of a run's data
// (every node's output) into each task costs far more than the few reads a run makes, and
// making the sandbox asynchronous would need QuickJS's asyncify build (slower, and re-entrant
// in ways the prelude does not expect). The items a run nearly always reads are sent along
// with the task (Prefetched), so the common run makes no call at all.

import './priority.js';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { SandboxPool } from '../sandbox-pool.js';
import type { HostArgs } from '../sandbox/host-ops.js';
import { toWire, type HostAnswer, type HostRequest, type Task, type TaskResult, type WorkerSetup } from './protocol.js';
import { afterRunMs, RunWatch } from './run-watch.js';
import { SandboxRuns, TemplateFailure, type DataChannel } from './sandbox-runs.js';

const setup = workerData as WorkerSetup;
const flag = new Int32Array(setup.signal);
const port = setup.hostPort;
const watch = new RunWatch(setup.watch);
const AFTER_RUN_MS = afterRunMs(setup.limits.timeoutMs);
let currentTask = 0;
const pool = new SandboxPool(setup.limits, {
  // The deadline the main thread's watchdog holds this worker to (see worker/run-watch.ts).
  onDeadline: (deadline) =>
    watch.publish(
      currentTask,
      performance.timeOrigin + (deadline === Infinity ? performance.now() + AFTER_RUN_MS : deadline),
    ),
});
const runs = new SandboxRuns(pool, setup.limits.timeoutMs);

/** Asks the main thread for a data operation of task `id`, and waits for the answer. */
function callMain(id: number, op: string, args: HostArgs): string | undefined {
  Atomics.store(flag, 0, 0);
  port.postMessage({ id, op, args } satisfies HostRequest);
  for (;;) {
    const received = receiveMessageOnPort(port);
    if (received) {
      const answer = received.message as HostAnswer;
      if (answer.id === id) return answer.answer;
      continue;
    }
    // Returns at once when the flag is already set; the timeout only guards against a lost wake-up.
    Atomics.wait(flag, 0, 0, 100);
  }
}

function channelFor(task: Task): DataChannel {
  const { prefetched } = task;
  const items = new Map(prefetched.inputItems);
  return (op, args) => {
    if (op === 'inputCount') return prefetched.inputCount;
    if (op === 'context') return prefetched.context;
    if (op === 'inputItem' && items.has(Number(args[0]))) return items.get(Number(args[0]));
    return callMain(task.id, op, args);
  };
}

async function perform(task: Task): Promise<TaskResult> {
  // QuickJS instances are replaced in the background after a crash; wait for one if needed.
  await pool.ready();
  let logs: string[] | undefined;
  const done = (result: TaskResult): TaskResult => ({ ...result, created: pool.created, logs });
  const channel = channelFor(task);
  currentTask = task.id;
  // The task's deadline in this thread's performance.now().
  const deadline = task.deadline - performance.timeOrigin;
  try {
    if (task.kind === 'templates') {
      return done({
        id: task.id,
        created: 0,
        ok: true,
        values: runs.evaluateTemplates(task.sources, task.info, channel, deadline),
      });
    }
    const outcome = runs.runCode(
      task.code,
      task.mode,
      task.info,
      channel,
      (lines) => {
        logs = lines;
      },
      deadline,
    );
    return done({ id: task.id, created: 0, ok: true, code: outcome });
  } catch (error) {
    if (error instanceof TemplateFailure)
      return done({ id: task.id, created: 0, ok: false, error: toWire(error.error), failedAt: error.index });
    return done({ id: task.id, created: 0, ok: false, error: toWire(error) });
  }
}

/**
 * Between tasks: disposes the sandboxes the last run left (after its answer went out), and
 * keeps a sandbox ready (after a start, or after a run that broke its sandbox), so that
 * creating one (the prelude: tens of ms, hundreds on a loaded machine) does not delay the next run.
 */
async function warm(): Promise<void> {
  pool.sweep();
  await pool.ready();
  if (pool.idleCount === 0) pool.release(pool.acquire());
}

parentPort!.on('message', (task: Task) => {
  void perform(task)
    .then((result) => parentPort!.postMessage(result))
    .then(warm);
});
await warm();
parentPort!.postMessage({ ready: true });
