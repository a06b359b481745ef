// Files that several processes on one data directory may create at the same moment (a
// generated key, a self-signed certificate). Written under a temporary name and linked into
// place: a reader sees the whole file or none (never a half-written one), and the first
// process's file wins.
import { linkSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

/** Creates `file` with `content` unless it exists; true when this call's content was placed. */
export function createOnce(file: string, content: string, mode = 0o600): boolean {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, content, { mode });
  try {
    linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkSync(tmp);
  }
}
