// Files above a size leave the stored execution data for the data directory, as n8n's
// filesystem mode keeps them: in a saved execution such a binary property holds an `id`
// ("filesystem-v2:executions/<execution>/<sha256>") and `data: "filesystem-v2"` instead of
// its base64, and the bytes are one file per content under <dataDir>/workflow-binary/<execution>/.
// During a run the bytes stay in memory; they are written when the execution is saved and
// read back when it is loaded to run again (a Wait resumed, a retry). The folder of an
// execution goes with it (deleted, pruned, or not saved).
//
// Only ids of the execution being loaded are read back: an id a Code node wrote into its own
// output naming another execution's file stays a dangling reference, never that file's bytes.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const MODE = 'filesystem-v2';
const ID = /^filesystem-v2:executions\/(\d{1,20})\/([0-9a-f]{64})$/;

type Entry = Record<string, unknown> & { data?: unknown; id?: unknown };

export interface SpillWriter {
  binary(value: Record<string, unknown>): Record<string, unknown>;
  replacer(key: string, value: unknown): unknown;
}

export class BinarySpill {
  constructor(
    /** <dataDir>/workflow-binary */
    private readonly dir: string,
    /** Files of at least this many bytes are spilled; 0 spills none. */
    private readonly thresholdBytes: number,
  ) {}

  private folder(executionId: string): string {
    if (!/^\d{1,20}$/.test(executionId)) throw new Error(`not an execution id: ${executionId}`);
    return path.join(this.dir, executionId);
  }

  /**
   * What saving one execution's data uses: `binary` turns an item's binary object into the one
   * to store (each file whose bytes reach the threshold written once per content, replaced by
   * its reference; the same object when nothing changes), `replacer` does it for JSON.stringify
   * (for the small parts of the data; node outputs go item by item through `binary`, a replacer
   * function being called for every value). Undefined when nothing is spilled.
   */
  writer(executionId: string): SpillWriter | undefined {
    if (!this.thresholdBytes) return undefined;
    const written = new Set<string>();
    // base64 length of the threshold: no decoding just to measure.
    const minChars = Math.ceil(this.thresholdBytes / 3) * 4;
    const binary = (value: Record<string, unknown>): Record<string, unknown> => {
      let out: Record<string, unknown> | undefined;
      for (const [name, raw] of Object.entries(value)) {
        const entry = raw as Entry | null;
        if (
          !entry ||
          typeof entry !== 'object' ||
          typeof entry.data !== 'string' ||
          entry.data.length < minChars ||
          entry.data === MODE
        )
          continue;
        const bytes = Buffer.from(entry.data, 'base64');
        if (bytes.length < this.thresholdBytes) continue;
        const hash = createHash('sha256').update(bytes).digest('hex');
        if (!written.has(hash)) {
          const folder = this.folder(executionId);
          mkdirSync(folder, { recursive: true });
          writeFileSync(path.join(folder, hash), bytes);
          written.add(hash);
        }
        out ??= { ...value };
        out[name] = { ...entry, data: MODE, id: `${MODE}:executions/${executionId}/${hash}` };
      }
      return out ?? value;
    };
    return {
      binary,
      replacer: (key, value) =>
        key === 'binary' && value && typeof value === 'object' && !Array.isArray(value)
          ? binary(value as Record<string, unknown>)
          : value,
    };
  }

  /**
   * A JSON.parse reviver for one execution's data: references to this execution's files get
   * their bytes back; a reference whose file is gone (or names another execution) loses its
   * `data`, so a node reading it fails as on a missing file.
   */
  reviver(executionId: string): (key: string, value: unknown) => unknown {
    return (key, value) => {
      if (key !== 'binary' || !value || typeof value !== 'object' || Array.isArray(value)) return value;
      for (const entry of Object.values(value as Record<string, Entry | null>)) {
        if (!entry || typeof entry !== 'object' || entry.data !== MODE || typeof entry.id !== 'string') continue;
        const m = ID.exec(entry.id);
        const file = m && m[1] === executionId ? path.join(this.dir, m[1], m[2]) : undefined;
        if (file && existsSync(file)) {
          entry.data = readFileSync(file).toString('base64');
          delete entry.id;
        } else delete entry.data;
      }
      return value;
    };
  }

  /** Drops an execution's files. */
  remove(executionId: string): void {
    if (/^\d{1,20}$/.test(executionId)) rmSync(this.folder(executionId), { recursive: true, force: true });
  }

  /** Drops the files of executions that no longer exist (after pruning); resolves to how many folders went. */
  async sweep(exists: (executionId: string) => Promise<boolean>): Promise<number> {
    if (!existsSync(this.dir)) return 0;
    let removed = 0;
    for (const name of readdirSync(this.dir)) {
      if (!/^\d{1,20}$/.test(name) || (await exists(name))) continue;
      this.remove(name);
      removed++;
    }
    return removed;
  }
}
