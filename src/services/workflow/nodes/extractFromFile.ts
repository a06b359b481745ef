// Extract from File: a file on `binary[binaryPropertyName]` (default "data") into json: CSV,
// HTML tables and RTF tables one item per row (sheet-formats.ts), JSON, text or base64 under
// `destinationKey` (default "data"), iCalendar events. As n8n 2.8.4 (observed): CSV values stay
// text and keep a byte order mark in the first header, empty cells are left out unless
// `includeEmptyCells`; text drops the byte order mark. xlsx, ods and xls are read by
// spreadsheet-xml.ts (xls through xls/); PDF text by pdf.ts (pdf.js on a worker thread).
import { NodeOperationError, type NodeContext, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { binaryBytes, type BinaryData } from './binary-data.js';
import { clone, eachItem, lodashUnset } from './util.js';
import { readCalendar } from './ical.js';
import { readPdfItem } from './pdf.js';
import { parseCsv, readHtmlTable, readRtfTable, rowsToItems, type Cell } from './sheet-formats.js';
import { readSpreadsheet } from './spreadsheet-xml.js';

export interface Options {
  delimiter?: string;
  headerRow?: boolean;
  fromLine?: number;
  maxRowCount?: number;
  includeEmptyCells?: boolean;
  encoding?: string;
  sheetName?: string;
  range?: string | number;
  joinPages?: boolean;
  maxPages?: number;
  password?: string;
  keepSource?: 'json' | 'binary' | 'both';
}

function decode(bytes: Buffer, encoding = 'utf8', stripBom = true): string {
  const text = bytes.toString(Buffer.isEncoding(encoding) ? encoding : 'utf8');
  return stripBom && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const SHEET_FORMATS = ['csv', 'html', 'rtf', 'xlsx', 'ods', 'xls'];

/** A sheet file's rows as items' json (Extract from File and Spreadsheet File). */
export function sheetRows(
  format: string,
  bytes: Buffer,
  entry: Partial<BinaryData>,
  options: Options,
  i: number,
): Array<Record<string, unknown>> {
  if (format === 'xlsx' || format === 'ods' || format === 'xls') {
    let rows: unknown[];
    try {
      rows = readSpreadsheet(format, bytes, options);
    } catch (e) {
      // A file of another type than the operation is named as such (n8n's wording).
      if (entry.fileExtension && entry.fileExtension !== format)
        throw new NodeOperationError(
          `The file selected in 'Input Binary Field' is not in ${format} format`,
          `Try to change the operation or select a ${format} file in 'Input Binary Field'`,
          i,
        );
      throw e;
    }
    return rows.map((row) => (options.headerRow === false ? { row } : (row as Record<string, unknown>)));
  }
  let rows: Cell[][];
  if (format === 'csv') {
    rows = parseCsv(decode(bytes, options.encoding, false), options.delimiter || ',');
    const from = Math.max(0, Number(options.fromLine ?? 0) - 1);
    const max = Number(options.maxRowCount ?? -1);
    const header = options.headerRow !== false ? 1 : 0;
    rows = [...rows.slice(0, header), ...rows.slice(header + from, max >= 0 ? header + from + max : undefined)];
  } else if (format === 'html') rows = readHtmlTable(decode(bytes, options.encoding));
  else rows = readRtfTable(decode(bytes, options.encoding));
  const keep = options.includeEmptyCells ? (v: Cell) => v !== undefined : undefined;
  return rowsToItems(rows, options.headerRow !== false, keep);
}

/**
 * The `pdf` operation: the text and facts of each item's PDF; `keepSource` json/both merges the
 * item's json under them, binary/both keeps its files, else the others stay and the PDF goes.
 */
function pdfItems(ctx: NodeContext): Promise<Item[]> {
  return eachItem(ctx, async (i) => {
    const item = ctx.items[i];
    const options = (await ctx.param<Options>('options', i, {})) ?? {};
    const property = await ctx.param<string>('binaryPropertyName', i, 'data');
    const { password, maxPages, joinPages } = options;
    const json = await readPdfItem(item, property, { password, maxPages, joinPages }, i, ctx.signal);
    const made: Item = { json, pairedItem: { item: i } };
    if (options.keepSource && options.keepSource !== 'binary') made.json = { ...clone(item.json), ...json };
    if (options.keepSource === 'binary' || options.keepSource === 'both') {
      if (item.binary) made.binary = item.binary;
    } else {
      made.binary = item.binary ? clone(item.binary) : {};
      lodashUnset(made.binary, property);
    }
    return made;
  });
}

export default {
  types: ['n8n-nodes-base.extractFromFile'],
  async execute(ctx) {
    const operation = ctx.raw<string>('operation', 'csv');
    const out: Item[] = [];
    if (operation === 'pdf') return [await pdfItems(ctx)];
    for (let i = 0; i < ctx.items.length; i++) {
      const property = await ctx.param<string>('binaryPropertyName', i, 'data');
      const options = (await ctx.param<Options>('options', i, {})) ?? {};
      const { bytes, entry } = binaryBytes(ctx.items[i], property, i);
      const key = await ctx.param<string>('destinationKey', i, 'data');
      const paired = { item: i };
      if (SHEET_FORMATS.includes(operation)) {
        // n8n's sheet reading turns a failure into an error item under continueOnFail (observed).
        try {
          for (const json of sheetRows(operation, bytes, entry, options, i)) out.push({ json, pairedItem: paired });
        } catch (e) {
          if (!ctx.continueOnFail) throw e;
          out.push({ json: { error: (e as Error).message }, pairedItem: paired });
        }
        continue;
      }
      if (operation === 'text') out.push({ json: { [key]: decode(bytes, options.encoding) }, pairedItem: paired });
      else if (operation === 'binaryToPropery')
        out.push({ json: { [key]: bytes.toString('base64') }, pairedItem: paired });
      else if (operation === 'fromJson') {
        let parsed: unknown;
        try {
          parsed = JSON.parse(decode(bytes, options.encoding));
        } catch (err) {
          throw new NodeOperationError(`The file is not valid JSON: ${(err as Error).message}`, undefined, i);
        }
        out.push({ json: { [key]: parsed }, pairedItem: paired });
      } else if (operation === 'fromIcs')
        out.push({ json: { [key]: readCalendar(decode(bytes, options.encoding)) }, pairedItem: paired });
      else
        throw new NodeOperationError(
          `The operation "${operation}" of Extract from File is not supported here`,
          undefined,
          i,
        );
    }
    return [out];
  },
} satisfies NodeType;
