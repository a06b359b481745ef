// Where a worker thread's code is, for the services that run one (the blog's renderer, the
// workflow's sandbox): the build's .js next to the caller, or in source mode (the caller is .ts,
// under vitest or tsx) the .ts source, loaded through tsx by the one tsx-entry.mjs beside this file.
export interface WorkerEntry {
  /** What `new Worker(url)` runs. */
  url: URL;
  /** Source mode: the TypeScript worker tsx-entry.mjs loads (pass it as workerData.sourceEntry). */
  sourceEntry?: string;
  /** Source mode: modules tsx-entry.mjs loads before the worker (pass as workerData.sourcePreload). */
  sourcePreload?: string[];
}

/**
 * The worker `name` (a file beside the caller, without extension) as seen from the caller's
 * `import.meta.url`. `preload` names files beside it that source mode loads first (the built
 * worker imports them itself; in source mode they would otherwise wait for the worker's compile).
 */
export function workerEntry(callerUrl: string, name: string, opts: { preload?: string[] } = {}): WorkerEntry {
  if (!callerUrl.endsWith('.ts')) return { url: new URL(`./${name}.js`, callerUrl) };
  const source = (file: string) => new URL(`./${file}.ts`, callerUrl).href;
  return {
    url: new URL('./tsx-entry.mjs', import.meta.url),
    sourceEntry: source(name),
    ...(opts.preload ? { sourcePreload: opts.preload.map(source) } : {}),
  };
}
