// User code runs at a lower CPU priority than the server: with every core busy running
// runaway code, the services' event loops still get the CPU when they need it. (Linux: the
// nice value of a thread id applies to that thread only; elsewhere this does nothing.) Mild,
// because the time limits are wall-clock: on a machine busy with other work, a deeply niced
// worker would be starved into timeouts.
//
// Its own module, imported first by the worker, so that the worker's start (loading QuickJS,
// creating its first sandbox: most of a start's CPU) already runs at the lower priority.

import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

const NICE = 5;

try {
  const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (threadId > 0) setPriority(threadId, NICE);
} catch {
  // Not Linux, or not allowed: the thread keeps the process's priority.
}
