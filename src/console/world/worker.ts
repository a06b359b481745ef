// The world worker: a thread that does the world's long reads for the console (worker-client.ts)
// so the services never wait on them: saving the world now from a connection of its own
// (stream-save.ts), checking an uploaded snapshot file end to end (file.ts), and answering a
// page of a diff (diff.ts). Each is streamed; the thread's heap is capped besides.
import { parentPort } from 'node:worker_threads';
import { diffAnswer, type DiffRefs, type DiffTask } from './diff.js';
import { readSnapshotFile, type FileLimits } from './file.js';
import { saveStreamed, type SaveTask } from './stream-save.js';

export type WorldTask =
  | ({ kind: 'save' } & SaveTask)
  | { kind: 'verify'; file: string; limits: FileLimits }
  | ({ kind: 'diff'; labels: DiffRefs; refs: DiffRefs } & DiffTask);

export interface WorldTaskAnswer {
  id: number;
  result?: unknown;
  error?: { message: string; statusCode?: number; code?: string };
}

function run(task: WorldTask): Promise<unknown> {
  switch (task.kind) {
    case 'save':
      return saveStreamed(task);
    case 'verify':
      return readSnapshotFile(task.file, task.limits);
    case 'diff':
      return diffAnswer(task);
  }
}

parentPort!.on('message', (message: { id: number; task: WorldTask }) => {
  run(message.task).then(
    (result) => parentPort!.postMessage({ id: message.id, result } satisfies WorldTaskAnswer),
    (err: Error & { statusCode?: number; code?: string }) =>
      parentPort!.postMessage({
        id: message.id,
        error: {
          message: err.message,
          statusCode: err.statusCode,
          code: typeof err.code === 'string' ? err.code : undefined,
        },
      } satisfies WorldTaskAnswer),
  );
});
