// Read/Write Files from Disk (v1, v1.1): files of the server's disk into items, and items'
// files onto it — only inside the one folder the operator names (WORKFLOW_FILES_DIR, n8n's
// N8N_RESTRICT_FILE_ACCESS_TO), checked by disk-files.ts. Without that setting the node is off:
// a workflow anyone may import must not read the server's files by default.
import { NodeOperationError, type NodeContext, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { binaryBytes, prepareBinary } from './binary-data.js';
import { DiskFolder } from './disk-files.js';

interface ReadOptions {
  fileName?: string;
  fileExtension?: string;
  mimeType?: string;
  dataPropertyName?: string;
}

function folderOf(ctx: NodeContext): DiskFolder {
  if (!ctx.services.filesDir)
    throw new NodeOperationError(
      'Read/Write Files from Disk is off on this server',
      'The operator can allow one folder by setting WORKFLOW_FILES_DIR (or N8N_RESTRICT_FILE_ACCESS_TO)',
    );
  return new DiskFolder(ctx.services.filesDir);
}

/** Node's file errors in n8n's words where it has some; the system's message otherwise. */
function fileError(e: unknown, operation: 'read' | 'write', filePath: string, i: number): NodeOperationError {
  if (e instanceof NodeOperationError) return new NodeOperationError(e.message, e.description, i);
  const err = e as NodeJS.ErrnoException;
  if (err.code === 'EACCES')
    return new NodeOperationError(
      operation === 'read'
        ? `You don't have the permissions to access ${filePath}`
        : `You don't have the permissions to write the file ${filePath}`,
      undefined,
      i,
    );
  // The system's message names the path as resolved on this server; the workflow's own is enough.
  return new NodeOperationError(
    `${err.code ?? 'Error'}: ${operation === 'read' ? 'cannot read' : 'cannot write'} "${filePath}"`,
    undefined,
    i,
  );
}

async function read(ctx: NodeContext, folder: DiskFolder): Promise<Item[]> {
  const out: Item[] = [];
  for (let i = 0; i < ctx.items.length; i++) {
    // n8n escapes parentheses so that they match themselves in its glob.
    const selector = String(await ctx.param<string>('fileSelector', i, '')).replace(/[()]/g, '\\$&');
    try {
      const options = (await ctx.param<ReadOptions>('options', i, {})) ?? {};
      const property = options.dataPropertyName || 'data';
      const files = await folder.glob(selector);
      if (files.length === 0 && ctx.typeVersion > 1)
        throw new NodeOperationError('No file(s) found', `No file matching the selector "${selector}" found`, i);
      for (const filePath of files) {
        const file = prepareBinary(await folder.read(filePath), filePath);
        if (options.fileName !== undefined) file.fileName = options.fileName;
        if (options.fileExtension !== undefined) file.fileExtension = options.fileExtension;
        if (options.mimeType !== undefined) file.mimeType = options.mimeType;
        out.push({
          json: {
            mimeType: file.mimeType,
            fileType: file.fileType ?? undefined,
            fileName: file.fileName,
            fileExtension: file.fileExtension ?? undefined,
            fileSize: file.fileSize,
          },
          binary: { [property]: file },
          pairedItem: { item: i },
        });
      }
    } catch (e) {
      const error = fileError(e, 'read', selector, i);
      if (!ctx.continueOnFail) throw error;
      out.push({ json: { error: error.message }, pairedItem: { item: i } });
    }
  }
  return out;
}

async function write(ctx: NodeContext, folder: DiskFolder): Promise<Item[]> {
  const out: Item[] = [];
  for (let i = 0; i < ctx.items.length; i++) {
    const fileName = String(await ctx.param<string>('fileName', i, ''));
    try {
      const property = await ctx.param<string>('dataPropertyName', i, 'data');
      const append = Boolean((await ctx.param<Record<string, unknown>>('options', i, {}))?.append);
      const item = ctx.items[i];
      const { bytes } = binaryBytes(item, property, i);
      await folder.write(fileName, bytes, append);
      out.push({
        json: { ...item.json, fileName },
        ...(item.binary ? { binary: { ...item.binary } } : {}),
        pairedItem: { item: i },
      });
    } catch (e) {
      const error = fileError(e, 'write', fileName, i);
      if (!ctx.continueOnFail) throw error;
      out.push({ json: { error: error.message }, pairedItem: { item: i } });
    }
  }
  return out;
}

export default {
  types: ['n8n-nodes-base.readWriteFile'],
  async execute(ctx) {
    const operation = ctx.raw<string>('operation', 'read');
    const folder = folderOf(ctx);
    if (operation === 'read') return [await read(ctx, folder)];
    if (operation === 'write') return [await write(ctx, folder)];
    return [[]];
  },
} satisfies NodeType;
