// The one folder Read/Write Files from Disk may use (WORKFLOW_FILES_DIR, or n8n's
// N8N_RESTRICT_FILE_ACCESS_TO): every path a workflow gives is resolved against it and refused
// when it, or what a symbolic link in it points to, lies outside.
//
// How: a path is first checked as written (no `..` out of the folder); then the real path of
// what exists (fs.realpath, every link followed) must still be inside the folder's real path;
// the file itself is opened with O_NOFOLLOW, so a link put in place between the check and the
// open fails instead of being followed. Folders a write needs are made one level at a time,
// each checked before the next, so a link to elsewhere is never created through. Hard links
// are not detected: whoever may write into the folder decides what it holds.
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { NodeOperationError } from '../engine/node-type.js';

/** The largest file the node reads into an item. */
const MAX_DISK_FILE_BYTES = 256 * 1024 * 1024;
/** The most files one selector may match, and directories one walk may visit. */
const MAX_MATCHES = 10_000;
const MAX_DIRECTORIES = 10_000;

const inside = (root: string, p: string) => {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

export class DiskFolder {
  private realRoot?: string;

  constructor(readonly root: string) {}

  private refuse(given: string): NodeOperationError {
    return new NodeOperationError(
      `Access to the file is not allowed. Allowed paths: ${this.root}`,
      `"${given}" is outside the folder this server lets workflows use (WORKFLOW_FILES_DIR)`,
    );
  }

  private async real(): Promise<string> {
    if (this.realRoot) return this.realRoot;
    try {
      this.realRoot = await fs.realpath(this.root);
    } catch {
      throw new NodeOperationError(`The folder WORKFLOW_FILES_DIR names (${this.root}) does not exist`);
    }
    return this.realRoot;
  }

  /** The absolute path `given` names (relative ones are inside the folder), checked as written. */
  lexical(given: string): string {
    if (given.includes('\0')) throw this.refuse(given);
    const abs = path.resolve(this.root, given);
    if (!inside(path.resolve(this.root), abs)) throw this.refuse(given);
    return abs;
  }

  /** The real path of an existing file inside the folder (links followed and checked). */
  async existing(given: string): Promise<string> {
    const abs = this.lexical(given);
    const root = await this.real();
    const real = await fs.realpath(abs);
    if (!inside(root, real)) throw this.refuse(given);
    return real;
  }

  /** The bytes of a file inside the folder. */
  async read(given: string): Promise<Buffer> {
    const real = await this.existing(given);
    const handle = await fs.open(real, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw new NodeOperationError(`"${given}" is not a file`);
      if (stat.size > MAX_DISK_FILE_BYTES) throw new NodeOperationError('The file is too large');
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  /** Writes (or appends) a file inside the folder, making the folders on its way. */
  async write(given: string, bytes: Buffer, append: boolean): Promise<void> {
    const abs = this.lexical(given);
    const root = await this.real();
    // Walk down from the folder: each level that exists must really be inside; missing ones are made.
    const rel = path.relative(path.resolve(this.root), path.dirname(abs));
    let dir = root;
    for (const part of rel === '' ? [] : rel.split(path.sep)) {
      const next = path.join(dir, part);
      try {
        await fs.mkdir(next);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const real = await fs.realpath(next);
      if (!inside(root, real)) throw this.refuse(given);
      dir = real;
    }
    const flags =
      (append
        ? constants.O_APPEND | constants.O_CREAT | constants.O_WRONLY
        : constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC) | constants.O_NOFOLLOW;
    let handle;
    try {
      handle = await fs.open(path.join(dir, path.basename(abs)), flags, 0o644);
    } catch (e) {
      // O_NOFOLLOW: the file is a symbolic link (ELOOP); never written through.
      if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw this.refuse(given);
      throw e;
    }
    try {
      await handle.writeFile(bytes);
    } finally {
      await handle.close();
    }
  }

  /**
   * The files a glob selector (`*`, `?`, `**`, `[…]`, `{a,b}`; names starting with a dot only
   * when the pattern's part does) matches inside the folder, in the form the selector was
   * written (absolute or relative), sorted. Links are checked like any path.
   */
  async glob(selector: string): Promise<string[]> {
    const abs = this.lexical(selector);
    const base = path.resolve(this.root);
    const rel = path.relative(base, abs);
    const parts = rel === '' ? [] : rel.split(path.sep);
    const root = await this.real();
    const found: string[] = [];
    let visited = 0;
    const walk = async (dir: string, i: number): Promise<void> => {
      if (found.length >= MAX_MATCHES) return;
      if (++visited > MAX_DIRECTORIES) throw new NodeOperationError('The file selector reaches too many folders');
      if (i === parts.length) return;
      const part = parts[i];
      const last = i === parts.length - 1;
      if (!/[*?[{]/.test(part)) {
        const next = path.join(dir, part.replace(/\\(.)/g, '$1'));
        const stat = await fs.lstat(next).catch(() => undefined);
        if (!stat) return;
        if (last) {
          if (await this.isFileInside(next, root)) found.push(next);
        } else if (stat.isDirectory() || (stat.isSymbolicLink() && (await this.isDirInside(next, root))))
          await walk(next, i + 1);
        return;
      }
      const entries = (await fs.readdir(dir, { withFileTypes: true }).catch(() => [])).sort((a, b) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
      );
      if (part === '**') {
        // Zero folders, then each folder below (links to folders are not descended into).
        await walk(dir, i + 1);
        for (const e of entries) if (e.isDirectory() && !e.name.startsWith('.')) await walk(path.join(dir, e.name), i);
        return;
      }
      const re = globPart(part);
      for (const e of entries) {
        if (!re.test(e.name) || (e.name.startsWith('.') && !part.startsWith('.'))) continue;
        const next = path.join(dir, e.name);
        if (last) {
          if (await this.isFileInside(next, root)) found.push(next);
        } else if (e.isDirectory() || (e.isSymbolicLink() && (await this.isDirInside(next, root))))
          await walk(next, i + 1);
      }
    };
    await walk(base, 0);
    const unique = [...new Set(found)];
    return unique.map((p) => (path.isAbsolute(selector) ? p : path.relative(base, p)));
  }

  private async isFileInside(p: string, root: string): Promise<boolean> {
    const real = await fs.realpath(p).catch(() => undefined);
    if (!real || !inside(root, real)) return false;
    return (await fs.stat(real)).isFile();
  }

  private async isDirInside(p: string, root: string): Promise<boolean> {
    const real = await fs.realpath(p).catch(() => undefined);
    return Boolean(real && inside(root, real) && (await fs.stat(real)).isDirectory());
  }
}

/** One path part of a glob as a regular expression. */
function globPart(part: string): RegExp {
  let re = '';
  for (let i = 0; i < part.length; i++) {
    const c = part[i];
    if (c === '\\' && i + 1 < part.length) re += part[++i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = part.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        const body = part.slice(i + 1, end).replace(/\\/g, '\\\\');
        re += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else if (c === '{') {
      const end = part.indexOf('}', i + 1);
      if (end < 0) re += '\\{';
      else {
        re += `(?:${part
          .slice(i + 1, end)
          .split(',')
          .map((alt) => globPart(alt).source.slice(1, -1))
          .join('|')})`;
        i = end;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}
