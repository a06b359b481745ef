// A worker thread that renders posts (see renderer.ts): markdown, highlighting and sanitizing
// are the costliest part of a publish, and here they leave the event loop that answers requests.
// Tasks come in batches (all that arrived in one turn of the main loop) and go back as one
// message: a message costs about as much as rendering a short post.
import { parentPort } from 'node:worker_threads';
import { derivePost } from './derive.js';

export interface RenderTask {
  id: number;
  content: string;
  title: string;
}
export type RenderAnswer = { id: number; html: string; summary: string } | { id: number; error: string };

function renderOne(task: RenderTask): RenderAnswer {
  try {
    return { id: task.id, ...derivePost(task.content, task.title) };
  } catch (err) {
    return { id: task.id, error: String((err as Error)?.message ?? err) };
  }
}

parentPort!.on('message', (tasks: RenderTask[]) => parentPort!.postMessage(tasks.map(renderOne)));
