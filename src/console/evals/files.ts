// The files of evaluation runs, read for the console's /evals pages, which take folder names
// from the URL: a name is one plain path segment (no `..`, no slash, no NUL, whatever its URL
// encoding was), the path it makes must stay inside the runs folder once symlinks are
// followed, a file must be a regular file (a pipe would block the read for ever), and no more
// than a cap is read of it. What cannot be read is a sentence for the page, never a throw.
import { constants, promises as fs } from 'node:fs';
import type { ReadStream } from 'node:fs';
import path from 'node:path';

const MiB = 1024 * 1024;
/** The most of a summary.json or result.json the console reads (the runner's are a few KB to a few hundred). */
export const MAX_RESULT_BYTES = 4 * MiB;
/** The most of an episode's diff.json the console reads to show its rows. */
export const MAX_DIFF_BYTES = 16 * MiB;

/** A run's folder, a task's id, an episode's number: one segment, as the runner names them. */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
export const isSegment = (name: string): boolean => SEGMENT.test(name);
export const isEpisodeNumber = (name: string): boolean => /^[1-9][0-9]{0,5}$/.test(name);

/** What reading a file gave: its text, or why not (missing: there is no such file). */
export type Read<T> = { ok: true; value: T } | { ok: false; missing: boolean; error: string };

const count = (n: number) => n.toLocaleString('en-US');

export class RunsFolder {
  constructor(readonly root: string) {}

  /**
   * The path of `segments` under the root, each checked, when it exists and stays inside the
   * root with every symlink followed; undefined otherwise (the page answers 404).
   */
  async resolve(...segments: string[]): Promise<string | undefined> {
    if (!segments.every(isSegment)) return undefined;
    let root: string;
    let real: string;
    try {
      root = await fs.realpath(this.root);
      real = await fs.realpath(path.join(this.root, ...segments));
    } catch {
      return undefined;
    }
    return real.startsWith(root + path.sep) ? real : undefined;
  }

  /** Like resolve, for a folder: undefined when the path is a file. */
  async resolveDir(...segments: string[]): Promise<string | undefined> {
    const dir = await this.resolve(...segments);
    if (!dir) return undefined;
    const stat = await fs.stat(dir).catch(() => undefined);
    return stat?.isDirectory() ? dir : undefined;
  }

  /** The run folders directly under the root (no symlink out of it), each with when it last changed. */
  async runs(): Promise<Array<{ name: string; mtimeMs: number }>> {
    let names: string[];
    try {
      names = await fs.readdir(this.root);
    } catch {
      return [];
    }
    const found: Array<{ name: string; mtimeMs: number }> = [];
    for (const name of names.filter(isSegment)) {
      const dir = await this.resolve(name);
      const stat = dir ? await fs.stat(dir).catch(() => undefined) : undefined;
      if (!dir || !stat?.isDirectory()) continue;
      // A finished run's time is its summary's; a run still going has none yet.
      const summary = await fs.stat(path.join(dir, 'summary.json')).catch(() => undefined);
      found.push({ name, mtimeMs: summary?.mtimeMs ?? stat.mtimeMs });
    }
    return found.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.name < b.name ? 1 : -1));
  }
}

/** Opens a regular file without blocking on it (a pipe or a device is refused, not waited on). */
async function openFile(file: string, label: string): Promise<Read<fs.FileHandle>> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, missing: true, error: `${label} does not exist` };
    return { ok: false, missing: false, error: `${label} cannot be opened (${code ?? 'error'})` };
  }
  const stat = await handle.stat();
  if (!stat.isFile()) {
    await handle.close();
    return { ok: false, missing: false, error: `${label} is not a file` };
  }
  return { ok: true, value: handle };
}

/** At most `cap` bytes of a file as text; a larger file is refused with its size. */
async function readCapped(file: string, label: string, cap: number): Promise<Read<string>> {
  const opened = await openFile(file, label);
  if (!opened.ok) return opened;
  const handle = opened.value;
  try {
    const { size } = await handle.stat();
    const tooLarge = (bytes: number): Read<string> => ({
      ok: false,
      missing: false,
      error: `${label} is ${count(bytes)} bytes, more than the ${count(cap)} bytes the console reads`,
    });
    if (size > cap) return tooLarge(size);
    // The file may grow after the stat: read one byte past the cap to know.
    const buffer = Buffer.alloc(Math.min(cap + 1, size + 1));
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > cap) return tooLarge(filled);
    return { ok: true, value: buffer.subarray(0, filled).toString('utf8') };
  } finally {
    await handle.close();
  }
}

/** A capped file parsed as JSON, with its size; what is wrong is said with the file's label. */
export async function readJson(
  file: string,
  label: string,
  cap: number,
): Promise<Read<{ json: unknown; bytes: number }>> {
  const text = await readCapped(file, label, cap);
  if (!text.ok) return text;
  try {
    return { ok: true, value: { json: JSON.parse(text.value) as unknown, bytes: text.value.length } };
  } catch (err) {
    return { ok: false, missing: false, error: `${label} is not JSON (${(err as Error).message.slice(0, 200)})` };
  }
}

/** A stream of a whole regular file (a download: the page links to it), or why not. */
export async function streamFile(file: string, label: string): Promise<Read<ReadStream>> {
  const opened = await openFile(file, label);
  if (!opened.ok) return opened;
  return { ok: true, value: opened.value.createReadStream() };
}
