// Saved snapshots live as files in the data directory (worlds/<id>.jsonl.gz), so they can be
// copied, kept in version control or handed to `hamlet world load`. An id is the start of the
// state's hash: saving the same state twice gives the same snapshot.
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { decodeWorld, peekHeader, saveWorld, type WorldHeader } from './file.js';
import type { WorldState } from './state.js';

const SUFFIX = '.jsonl.gz';
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
  constructor(private readonly dir: string) {}

  static inDataDir(dataDir: string): SnapshotFiles {
    return new SnapshotFiles(path.join(dataDir, 'worlds'));
  }

  save(state: WorldState, savedAt: string, name?: string): SnapshotInfo {
    const { header, file } = saveWorld(state, savedAt, name);
    const id = header.hash.slice(0, 16);
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(this.fileOf(id)!, file);
    return infoOf(id, header, file.length);
  }

  list(): SnapshotInfo[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .filter((f) => f.endsWith(SUFFIX))
      .map((f) => {
        const file = readFileSync(path.join(this.dir, f));
        return infoOf(f.slice(0, -SUFFIX.length), peekHeader(file), file.length);
      })
      .sort((a, b) => (a.savedAt < b.savedAt ? 1 : -1));
  }

  /** The file's bytes, or undefined for an unknown (or malformed) id. */
  file(id: string): Buffer | undefined {
    const f = this.fileOf(id);
    return f && existsSync(f) ? readFileSync(f) : undefined;
  }

  load(id: string): { header: WorldHeader; state: WorldState } | undefined {
    const file = this.file(id);
    return file ? decodeWorld(file) : undefined;
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
