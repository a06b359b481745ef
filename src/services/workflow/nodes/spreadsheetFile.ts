// Spreadsheet File (v1, v2; n8n's older node for what Convert to File and Extract from File do
// now): `toFile` writes all items as one sheet ("spreadsheet.<format>"), `fromFile` reads each
// item's file into rows. The formats are those two nodes' (sheetFile, sheetRows); n8n reads
// with SheetJS, which guesses the format from the bytes: here the file's extension decides,
// else its first bytes (a zip is xlsx or ods by what it holds, a compound file is xls).
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { readZip } from '../binary/zip.js';
import { isCfb } from './xls/xls.js';
import { binaryBytes, type BinaryData } from './binary-data.js';
import { sheetFile, type Options as WriteOptions } from './convertToFile.js';
import { sheetRows, type Options as ReadOptions } from './extractFromFile.js';

const FORMATS = ['csv', 'html', 'rtf', 'xlsx', 'ods', 'xls'];

/** The format of a file to read: its extension when known, else what its bytes look like. */
function formatOf(bytes: Buffer, entry: Partial<BinaryData>): string {
  const ext = entry.fileExtension?.toLowerCase();
  if (ext && FORMATS.includes(ext)) return ext;
  if (entry.mimeType === 'text/csv') return 'csv';
  if (isCfb(bytes)) return 'xls';
  if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    try {
      return readZip(bytes).some((e) => e.name === 'content.xml') ? 'ods' : 'xlsx';
    } catch {
      return 'xlsx';
    }
  }
  const head = bytes.subarray(0, 64).toString('utf8').trimStart();
  if (head.startsWith('{\\rtf')) return 'rtf';
  if (head.startsWith('<')) return 'html';
  return 'csv';
}

export default {
  types: ['n8n-nodes-base.spreadsheetFile'],
  async execute(ctx) {
    const operation = ctx.raw<string>('operation', 'fromFile');
    const out: Item[] = [];
    if (operation === 'toFile') {
      const all = ctx.items.map((_, i) => ({ item: i }));
      try {
        const format = await ctx.param<string>('fileFormat', 0, 'xls');
        if (!FORMATS.includes(format))
          throw new NodeOperationError(`The format "${format}" of Spreadsheet File is not supported here`);
        const options = (await ctx.param<WriteOptions>('options', 0, {})) ?? {};
        const property = await ctx.param<string>('binaryPropertyName', 0, 'data');
        const file = sheetFile(ctx.items, format, options, 'spreadsheet', ctx.now());
        out.push({ json: {}, binary: { [property]: file }, pairedItem: all });
      } catch (e) {
        if (!ctx.continueOnFail) throw e;
        out.push({ json: { error: (e as Error).message }, pairedItem: all });
      }
      return [out];
    }
    if (operation !== 'fromFile') return [out];
    for (let i = 0; i < ctx.items.length; i++) {
      try {
        const options = (await ctx.param<ReadOptions>('options', i, {})) ?? {};
        const property = await ctx.param<string>('binaryPropertyName', i, 'data');
        const { bytes, entry } = binaryBytes(ctx.items[i], property, i);
        for (const json of sheetRows(formatOf(bytes, entry), bytes, entry, options, i))
          out.push({ json: json, pairedItem: { item: i } });
      } catch (e) {
        if (!ctx.continueOnFail) throw e;
        out.push({ json: { error: (e as Error).message }, pairedItem: { item: i } });
      }
    }
    return [out];
  },
} satisfies NodeType;
