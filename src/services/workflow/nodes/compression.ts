// Compression (v1, v1.1): files into a zip or gzip and back. Zip is binary/zip.ts, gzip node:zlib.
// Names and types follow n8n 2.8.4: a gzip is named after its file's first name part plus its
// extension and ".gz" (v1: ".gzip", under `outputPrefix` + index), a zip lists the files under
// their names (a later file of the same name replaces an earlier one), unpacked files are
// `outputPrefix` + a running index.
import { gunzipSync, gzipSync } from 'node:zlib';
import { NodeOperationError, type NodeContext, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { extensionOfMime, mimeOfExtension } from '../binary/meta.js';
import { MAX_UNZIPPED_BYTES, readZip, writeZip } from '../binary/zip.js';
import { binaryBytes, prepareBinary, type BinaryData } from './binary-data.js';

/** Stored in a zip as they are: deflating them again gains nothing (n8n's list). */
// prettier-ignore
const ALREADY_COMPRESSED = new Set(['7z', 'aifc', 'bz2', 'doc', 'docx', 'gif', 'gz', 'heic', 'heif', 'jpg', 'jpeg', 'mov', 'mp3', 'mp4', 'pdf', 'png', 'ppt', 'pptx', 'rar', 'webm', 'webp', 'xls', 'xlsx', 'zip']);

const names = (value: string) =>
  String(value)
    .split(',')
    .map((k) => k.trim());

function gunzip(bytes: Buffer): Buffer {
  try {
    return gunzipSync(bytes, { maxOutputLength: MAX_UNZIPPED_BYTES });
  } catch (e) {
    throw new NodeOperationError((e as Error).message);
  }
}

async function decompress(ctx: NodeContext, i: number): Promise<Item> {
  const item = ctx.items[i];
  const prefix = await ctx.param<string>('outputPrefix', 0, 'file_');
  const binary: Record<string, BinaryData> = {};
  let zipIndex = 0;
  for (const [index, property] of names(await ctx.param<string>('binaryPropertyName', 0, 'data')).entries()) {
    // n8n names the missing file even when the item has no files at all (observed).
    if (!item.binary) binaryBytes({ ...item, binary: {} }, property, i);
    const { bytes, entry } = binaryBytes(item, property, i);
    const extension = entry.fileExtension?.toLowerCase();
    if (!extension) throw new NodeOperationError(`File extension not found for binary data ${property}`);
    if (extension === 'zip') {
      let files;
      try {
        files = readZip(bytes);
      } catch (e) {
        throw new NodeOperationError((e as Error).message);
      }
      // Archives made on macOS repeat their files under __MACOSX: left out, as n8n does.
      for (const f of files)
        if (!f.name.includes('__MACOSX')) binary[`${prefix}${zipIndex++}`] = prepareBinary(f.data, f.name);
    } else if (extension === 'gz' || extension === 'gzip') {
      const data = gunzip(bytes);
      const baseName = entry.fileName?.split('.')[0];
      // "a.txt.gz" gives "a.txt", typed by its inner extension; otherwise the type is guessed.
      let innerExtension: string | undefined;
      let mimeType: string | undefined;
      if (entry.fileName?.endsWith('.gz')) {
        const parts = entry.fileName.replace('.gz', '').split('.');
        if (parts.length > 1) {
          innerExtension = parts[parts.length - 1];
          mimeType = mimeOfExtension(innerExtension);
        }
      }
      const file = prepareBinary(data, baseName, mimeType);
      if (!innerExtension) {
        mimeType = file.mimeType;
        innerExtension = extensionOfMime(mimeType);
      }
      file.fileName = `${baseName}.${innerExtension}`;
      file.fileExtension = innerExtension ?? null;
      if (mimeType) file.mimeType = mimeType;
      binary[`${prefix}${index}`] = file;
    }
  }
  return { json: item.json, binary, pairedItem: { item: i } };
}

/** The item with its archive; none when the format is neither (v1's default is no format). */
async function compress(ctx: NodeContext, i: number): Promise<Item | undefined> {
  const item = ctx.items[i];
  const v1 = ctx.typeVersion < 1.1;
  // v1 reads its parameters from the first item, v1.1 per item.
  const at = v1 ? 0 : i;
  const properties = names(await ctx.param<string>('binaryPropertyName', at, 'data'));
  const format = await ctx.param<string>('outputFormat', 0, v1 ? '' : 'zip');
  const zipped = new Map<string, { data: Buffer; level: number }>();
  const binary: Record<string, BinaryData> = {};
  for (const [index, property] of properties.entries()) {
    const { bytes, entry } = binaryBytes(item, property, i);
    if (format === 'zip') {
      const name = String(entry.fileName);
      zipped.delete(name);
      zipped.set(name, { data: bytes, level: ALREADY_COMPRESSED.has(entry.fileExtension ?? '') ? 0 : 6 });
    } else if (format === 'gzip') {
      let key: string;
      let filePath: string;
      if (!v1) {
        key = `${await ctx.param<string>('binaryPropertyOutput', i, 'data')}${index ? index : ''}`;
        const given = await ctx.param<string>('fileName', i, '');
        const base = given ? given.replace('.gz', '').replace('.gzip', '') : entry.fileName?.split('.')[0];
        filePath = `${base}${entry.fileExtension ? `.${entry.fileExtension.toLowerCase()}` : ''}.gz`;
      } else {
        key = `${await ctx.param<string>('outputPrefix', 0, 'data')}${index}`;
        filePath = `${entry.fileName?.split('.')[0]}.gzip`;
      }
      binary[key] = prepareBinary(gzipSync(bytes), filePath);
    }
  }
  if (format === 'zip') {
    const fileName = await ctx.param<string>('fileName', at, '');
    const output = await ctx.param<string>('binaryPropertyOutput', at, 'data');
    const archive = writeZip(
      [...zipped].map(([name, f]) => ({ name, ...f })),
      ctx.now(),
    );
    return { json: item.json, binary: { [output]: prepareBinary(archive, fileName) }, pairedItem: { item: i } };
  }
  if (format !== 'gzip') return undefined;
  return { json: item.json, binary, pairedItem: { item: i } };
}

export default {
  types: ['n8n-nodes-base.compression'],
  async execute(ctx) {
    const operation = ctx.raw<string>('operation', 'decompress');
    const out: Item[] = [];
    for (let i = 0; i < ctx.items.length; i++) {
      try {
        if (operation === 'decompress') out.push(await decompress(ctx, i));
        else if (operation === 'compress') {
          const done = await compress(ctx, i);
          if (done) out.push(done);
        }
      } catch (e) {
        if (!ctx.continueOnFail) throw e;
        out.push({ json: { error: (e as Error).message }, pairedItem: { item: i } });
      }
    }
    return [out];
  },
} satisfies NodeType;
