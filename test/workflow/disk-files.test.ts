// Read/Write Files from Disk's folder (nodes/disk-files.ts): hostile paths first. Every way out
// of the one allowed folder — `..`, absolute paths, a prefix-named sibling, symbolic links to a
// file or a folder outside, a link put where a file is written — must be refused and leave the
// outside untouched; inside, reading, writing, appending, folders and globs work.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DiskFolder } from '../../src/services/workflow/nodes/disk-files.js';
import readWriteFile from '../../src/services/workflow/nodes/readWriteFile.js';
import type { NodeContext } from '../../src/services/workflow/engine/node-type.js';
import { startWorkflowServer } from './helpers.js';

let top: string;
let root: string;
let outside: string;
let folder: DiskFolder;
const refused = /Access to the file is not allowed/;

beforeAll(() => {
  top = mkdtempSync(path.join(tmpdir(), 'hamlet-disk-'));
  root = path.join(top, 'allowed');
  outside = path.join(top, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  mkdirSync(path.join(top, 'allowed2'));
  writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  writeFileSync(path.join(top, 'allowed2', 'sibling.txt'), 'sibling');
  writeFileSync(path.join(root, 'a.txt'), 'alpha');
  writeFileSync(path.join(root, 'b.json'), '{}');
  writeFileSync(path.join(root, '.hidden.txt'), 'h');
  mkdirSync(path.join(root, 'sub'));
  writeFileSync(path.join(root, 'sub', 'c.txt'), 'gamma');
  symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link-file.txt'));
  symlinkSync(outside, path.join(root, 'link-dir'));
  symlinkSync(path.join(root, 'a.txt'), path.join(root, 'inner-link.txt'));
  folder = new DiskFolder(root);
});
afterAll(() => rmSync(top, { recursive: true, force: true }));

describe('hostile paths are refused', () => {
  test('.. out of the folder, as read and as write', async () => {
    await expect(folder.read('../outside/secret.txt')).rejects.toThrow(refused);
    await expect(folder.read('sub/../../outside/secret.txt')).rejects.toThrow(refused);
    await expect(folder.write('../outside/new.txt', Buffer.from('x'), false)).rejects.toThrow(refused);
    expect(existsSync(path.join(outside, 'new.txt'))).toBe(false);
  });

  test('absolute paths elsewhere, and a sibling whose name starts like the folder', async () => {
    await expect(folder.read(path.join(outside, 'secret.txt'))).rejects.toThrow(refused);
    await expect(folder.read('/etc/passwd')).rejects.toThrow(refused);
    await expect(folder.read(path.join(top, 'allowed2', 'sibling.txt'))).rejects.toThrow(refused);
    await expect(folder.write(path.join(top, 'allowed2', 'x.txt'), Buffer.from('x'), false)).rejects.toThrow(refused);
  });

  test('a link to a file outside is not read, listed or written through', async () => {
    await expect(folder.read('link-file.txt')).rejects.toThrow(refused);
    expect(await folder.glob('*.txt')).not.toContain('link-file.txt');
    await expect(folder.write('link-file.txt', Buffer.from('overwritten'), false)).rejects.toThrow(refused);
    await expect(folder.write('link-file.txt', Buffer.from('appended'), true)).rejects.toThrow(refused);
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('secret');
  });

  test('a link to a folder outside is not read, listed or written into', async () => {
    await expect(folder.read('link-dir/secret.txt')).rejects.toThrow(refused);
    expect(await folder.glob('link-dir/*')).toEqual([]);
    expect(await folder.glob('**/*.txt')).not.toContain(path.join('link-dir', 'secret.txt'));
    await expect(folder.write('link-dir/new.txt', Buffer.from('x'), false)).rejects.toThrow(refused);
    await expect(folder.write('link-dir/deeper/new.txt', Buffer.from('x'), false)).rejects.toThrow(refused);
    expect(existsSync(path.join(outside, 'new.txt'))).toBe(false);
    expect(existsSync(path.join(outside, 'deeper'))).toBe(false);
  });

  test('a NUL byte in a path is refused', async () => {
    await expect(folder.read('a.txt\0../../etc/passwd')).rejects.toThrow(refused);
  });

  test('a selector reaching outside is refused', async () => {
    await expect(folder.glob('../outside/*')).rejects.toThrow(refused);
    await expect(folder.glob('/etc/*')).rejects.toThrow(refused);
  });
});

describe('inside the folder', () => {
  test('reads by relative and absolute path, and through a link that stays inside', async () => {
    expect((await folder.read('a.txt')).toString()).toBe('alpha');
    expect((await folder.read(path.join(root, 'sub', 'c.txt'))).toString()).toBe('gamma');
    expect((await folder.read('inner-link.txt')).toString()).toBe('alpha');
  });

  test('writes, appends and makes folders', async () => {
    await folder.write('out/deep/w.txt', Buffer.from('one'), false);
    await folder.write('out/deep/w.txt', Buffer.from('+two'), true);
    expect(readFileSync(path.join(root, 'out', 'deep', 'w.txt'), 'utf8')).toBe('one+two');
    await folder.write('out/deep/w.txt', Buffer.from('new'), false);
    expect(readFileSync(path.join(root, 'out', 'deep', 'w.txt'), 'utf8')).toBe('new');
  });

  test('globs: *, **, {a,b}, ?, hidden files only when asked', async () => {
    expect(await folder.glob('*.txt')).toEqual(['a.txt', 'inner-link.txt']);
    expect(await folder.glob('*.{txt,json}')).toEqual(['a.txt', 'b.json', 'inner-link.txt']);
    expect(await folder.glob('?.json')).toEqual(['b.json']);
    expect(await folder.glob('.*.txt')).toEqual(['.hidden.txt']);
    expect(await folder.glob('**/c.txt')).toEqual([path.join('sub', 'c.txt')]);
    expect(await folder.glob(path.join(root, 'sub', '*'))).toEqual([path.join(root, 'sub', 'c.txt')]);
    expect(await folder.glob('nothing-*.txt')).toEqual([]);
  });

  test('a folder given through a link works (its real path is the boundary)', async () => {
    symlinkSync(root, path.join(top, 'root-link'));
    const viaLink = new DiskFolder(path.join(top, 'root-link'));
    expect((await viaLink.read('a.txt')).toString()).toBe('alpha');
    await expect(viaLink.read('link-file.txt')).rejects.toThrow(refused);
  });
});

describe('the node', () => {
  test('is off unless the operator names a folder', async () => {
    const ctx = { services: {}, raw: () => 'read', items: [{ json: {} }] } as unknown as NodeContext;
    await expect(readWriteFile.execute(ctx)).rejects.toThrow(/Read\/Write Files from Disk is off/);
  });

  test("writes an item's file and reads it back through a workflow; refuses a path outside", async () => {
    const s = await startWorkflowServer({ env: { WORKFLOW_FILES_DIR: root } });
    try {
      const node = (name: string, type: string, parameters: Record<string, unknown>, extra = {}) => ({
        name,
        type: `n8n-nodes-base.${type}`,
        typeVersion: 1.1,
        position: [0, 0],
        parameters,
        ...extra,
      });
      const link = (from: string, to: string) => ({ [from]: { main: [[{ node: to, type: 'main', index: 0 }]] } });
      const c = await s.api('POST', '/workflows', {
        name: 'disk',
        nodes: [
          { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
          node('Make', 'convertToFile', { operation: 'toText', sourceProperty: 'x', options: {} }),
          node('Write', 'readWriteFile', { operation: 'write', fileName: 'made/x.txt', options: {} }),
          node('Read', 'readWriteFile', { fileSelector: 'made/*.txt', options: {} }),
          node(
            'Escape',
            'readWriteFile',
            { fileSelector: '../outside/secret.txt', options: {} },
            { continueOnFail: true },
          ),
          { ...node('Seed', 'code', { jsCode: "return [{ json: { x: 'héllo' } }];" }), typeVersion: 2 },
        ],
        connections: {
          ...link('Start', 'Seed'),
          ...link('Seed', 'Make'),
          ...link('Make', 'Write'),
          ...link('Write', 'Read'),
          ...link('Read', 'Escape'),
        },
        settings: { executionOrder: 'v1' },
      });
      const e = await s.api('POST', `/workflows/${c.body.id}/execute`, {});
      expect(e.body.status, JSON.stringify(e.body.data?.resultData?.error)).toBe('success');
      const runData = e.body.data.resultData.runData;
      expect(readFileSync(path.join(root, 'made', 'x.txt'), 'utf8')).toBe('héllo');
      const got = runData.Read[0].data.main[0][0];
      expect(got.json).toMatchObject({ fileName: 'x.txt', fileExtension: 'txt', mimeType: 'text/plain' });
      expect(Buffer.from(got.binary.data.data, 'base64').toString()).toBe('héllo');
      expect(runData.Escape[0].data.main[0][0].json.error).toMatch(refused);
    } finally {
      await s.stop();
    }
  }, 60_000);
});
