// Saved snapshots live as files in the data directory (worlds/<id>.jsonl.gz), so they can be
// copied, kept in version control or handed to `hamlet world load`. An id is the start of the
// state's hash: saving the same state twice gives the same snapshot.
//
// Beside each file its header is stored (worlds/<id>.json), so listing reads a few hundred bytes
// per snapshot and never inflates one; a file copied in without it is listed from its first
// line alone (read under the line limit), and its header is stored then.
import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync, type ReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../platform/logger.js';
import { checkHeader, decodeWorldFile, readHeader, type FileLimits, type WorldHeader } from './file.js';
import type { WorldState } from './state.js';

const SUFFIX = '.jsonl.gz';
const HEADER = '.json';
const ID = /^[0-9a-f]{16}$/;

export interface SnapshotInfo {
  id: string;
  hash: string;
  savedAt: string;
  name?: string;
  bytes: number;
  rows: number;
  clock?: WorldHeader['clock'];
}

export class SnapshotFiles {
  constructor(
    readonly dir: string,
    private readonly limits: FileLimits,
    private readonly logger?: Logger,
  ) {}

  static inDataDir(dataDir: string, limits: FileLimits, logger?: Logger): SnapshotFiles {
    return new SnapshotFiles(path.join(dataDir, 'worlds'), limits, logger);
  }

  /** A path in the folder for a file being written; `adopt` moves it into place, `discard` removes it. */
  async incoming(): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    return path.join(this.dir, `.incoming-${randomUUID()}`);
  }

  /** Moves a checked file into place under its header's id, its header stored beside it. */
  async adopt(file: string, header: WorldHeader): Promise<SnapshotInfo> {
    const id = header.hash.slice(0, 16);
    await rename(file, this.fileOf(id)!);
    const { size } = await stat(this.fileOf(id)!);
    await this.storeHeader(id, header, size);
    return infoOf(id, header, size);
  }

  async discard(file: string): Promise<void> {
    await rm(file, { force: true });
    await rm(`${file}.rows`, { force: true });
  }

  async list(): Promise<SnapshotInfo[]> {
    if (!existsSync(this.dir)) return [];
    const infos: SnapshotInfo[] = [];
    for (const f of await readdir(this.dir)) {
      const id = f.slice(0, -SUFFIX.length);
      if (!f.endsWith(SUFFIX) || !ID.test(id)) continue;
      const info = await this.info(id).catch((err: Error) => {
        this.logger?.warn({ file: f, err: err.message }, 'world snapshot not listed: its header cannot be read');
        return undefined;
      });
      if (info) infos.push(info);
    }
    return infos.sort((a, b) => (a.savedAt < b.savedAt ? 1 : -1));
  }

  /** The file's path, or undefined for an unknown (or malformed) id. */
  path(id: string): string | undefined {
    const f = this.fileOf(id);
    return f && existsSync(f) ? f : undefined;
  }

  /** The file as a stream (a download). */
  open(id: string): ReadStream | undefined {
    const f = this.path(id);
    return f ? createReadStream(f) : undefined;
  }

  /** The file's rows in memory (a restore), checked end to end under the limits. */
  load(id: string): Promise<{ header: WorldHeader; state: WorldState }> | undefined {
    const f = this.path(id);
    return f ? decodeWorldFile(f, this.limits) : undefined;
  }

  /** Keeps the newest `keep` snapshots (by when they were saved here), removing the others. */
  async prune(keep: number): Promise<void> {
    if (!existsSync(this.dir)) return;
    const files = (await readdir(this.dir)).filter((f) => f.endsWith(SUFFIX));
    const dated = await Promise.all(
      files.map(async (f) => ({ f, at: (await stat(path.join(this.dir, f)).catch(() => ({ mtimeMs: 0 }))).mtimeMs })),
    );
    for (const { f } of dated.sort((a, b) => b.at - a.at).slice(keep)) {
      await rm(path.join(this.dir, f), { force: true });
      await rm(path.join(this.dir, f.slice(0, -SUFFIX.length) + HEADER), { force: true });
    }
  }

  private async info(id: string): Promise<SnapshotInfo> {
    const stored = await readFile(path.join(this.dir, id + HEADER), 'utf8').catch(() => undefined);
    if (stored) {
      try {
        const { header, bytes } = JSON.parse(stored) as { header: unknown; bytes: number };
        return infoOf(id, checkHeader(JSON.stringify(header), this.limits), bytes);
      } catch {
        // A damaged header file: read the snapshot's own first line instead.
      }
    }
    const file = this.fileOf(id)!;
    const header = await readHeader(file, this.limits);
    const { size } = await stat(file);
    await this.storeHeader(id, header, size).catch(() => {});
    return infoOf(id, header, size);
  }

  private storeHeader(id: string, header: WorldHeader, bytes: number): Promise<void> {
    return writeFile(path.join(this.dir, id + HEADER), JSON.stringify({ header, bytes }));
  }

  private fileOf(id: string): string | undefined {
    return ID.test(id) ? path.join(this.dir, id + SUFFIX) : undefined;
  }
}

const infoOf = (id: string, h: WorldHeader, bytes: number): SnapshotInfo => ({
  id,
  hash: h.hash,
  savedAt: h.savedAt,
  ...(h.name ? { name: h.name } : {}),
  bytes,
  rows: h.tables.reduce((n, t) => n + t.rows, 0),
  ...(h.clock ? { clock: h.clock } : {}),
});
