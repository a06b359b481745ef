// A worker thread that renders posts (see renderer.ts): markdown, highlighting and sanitizing
// are the costliest part of a publish, and here they leave the event loop that answers requests.
import { parentPort } from 'node:worker_threads';
import { derivePost } from './derive.js';

export interface RenderTask {
  id: number;
  content: string;
  title: string;
}
export type RenderAnswer = { id: number; html: string; summary: string } | { id: number; error: string };

parentPort!.on('message', (task: RenderTask) => {
  try {
    parentPort!.postMessage({ id: task.id, ...derivePost(task.content, task.title) } satisfies RenderAnswer);
  } catch (err) {
    parentPort!.postMessage({ id: task.id, error: String((err as Error)?.message ?? err) } satisfies RenderAnswer);
  }
});
parentPort!.postMessage({ ready: true });
