// A run's files as the /evals pages use them: a summary, an episode's result, its row diff,
// each read capped (files.ts) and checked (shapes.ts), or the sentence saying what is wrong.
import path from 'node:path';
import { MAX_DIFF_BYTES, MAX_RESULT_BYTES, readJson, type Read, type RunsFolder } from './files.js';
import {
  diffRows,
  episodeView,
  runView,
  ShapeError,
  type DiffRowView,
  type EpisodeView,
  type RunView,
} from './shapes.js';

/** The most a run's page reads of its episodes' results together, so a run of huge files stays a page. */
export const MAX_RUN_PAGE_BYTES = 64 * 1024 * 1024;
/** The most the list of runs reads of their summaries together. */
export const MAX_LIST_PAGE_BYTES = 64 * 1024 * 1024;

async function load<T>(
  file: string,
  label: string,
  cap: number,
  view: (json: unknown, label: string) => T,
): Promise<Read<T> & { bytes: number }> {
  const read = await readJson(file, label, cap);
  if (!read.ok) return { ...read, bytes: 0 };
  try {
    return { ok: true, value: view(read.value.json, label), bytes: read.value.bytes };
  } catch (err) {
    if (!(err instanceof ShapeError)) throw err;
    return { ok: false, missing: false, error: err.message, bytes: read.value.bytes };
  }
}

/** summary.json of a run folder already resolved inside the runs folder. */
export function loadSummary(runDir: string, cap = MAX_RESULT_BYTES): Promise<Read<RunView> & { bytes: number }> {
  return load(path.join(runDir, 'summary.json'), 'summary.json', cap, runView);
}

/** The folder of an episode, when its names are plain and it lies inside the runs folder. */
export function episodeDir(
  folder: RunsFolder,
  run: string,
  task: string,
  episode: number,
): Promise<string | undefined> {
  return folder.resolveDir(run, task, String(episode));
}

export async function loadEpisode(
  dir: string,
  label: string,
  cap = MAX_RESULT_BYTES,
): Promise<Read<EpisodeView> & { bytes: number }> {
  return load(path.join(dir, 'result.json'), label, cap, episodeView);
}

export function loadDiff(dir: string): Promise<Read<DiffRowView[]>> {
  return load(path.join(dir, 'diff.json'), 'diff.json', MAX_DIFF_BYTES, diffRows);
}
