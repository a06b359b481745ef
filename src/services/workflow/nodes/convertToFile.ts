// Convert to File: items' json into a file on `binary[binaryPropertyName]` (default "data"):
// CSV, HTML, RTF (all items as one sheet, sheet-formats.ts), JSON (all items, or one file per
// item), text or base64 from a field (per item), an iCalendar event (per item). The output
// items' json is empty, as n8n's. Default names as n8n 2.8.4 gives them (File.csv, file.json,
// file.txt, file, event.ics). xlsx and ods are spreadsheet-xml.ts's, xls is xls/.
import { NodeOperationError, type NodeContext, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { prepareBinary, toBinary, type BinaryData } from './binary-data.js';
import { mimeOfExtension } from '../binary/meta.js';
import { dateProblems, eventError, eventProblems, readEventDate, writeEvent } from './ical.js';
import { toSheet, writeCsv, writeHtml, writeRtf } from './sheet-formats.js';
import { writeOds, writeXlsx } from './spreadsheet-xml.js';
import { writeXls } from './xls/xls.js';
import { BiffError } from './xls/biff.js';
import { eachItem, lodashGet } from './util.js';

const SHEET_MIME: Record<string, string> = { csv: 'text/csv', html: 'text/html', rtf: 'application/rtf' };

export type Options = {
  fileName?: string;
  delimiter?: string;
  headerRow?: boolean;
  format?: boolean;
  mimeType?: string;
  encoding?: string;
  addBOM?: boolean;
  sheetName?: string;
  compression?: boolean;
};

function fileItem(
  ctx: NodeContext,
  bytes: Buffer,
  meta: { fileName?: string; mimeType?: string },
  pairedItem: Item['pairedItem'],
): Item {
  const property = ctx.raw<string>('binaryPropertyName', 'data');
  return { json: {}, binary: { [property]: toBinary(bytes, meta) }, pairedItem };
}

/** Text in the encoding asked for (UTF-8 by default), with a byte order mark when asked. */
function encode(text: string, options: Options): Buffer {
  const encoding = (options.encoding ?? 'utf8') as BufferEncoding;
  const body = Buffer.from(text, Buffer.isEncoding(encoding) ? encoding : 'utf8');
  return options.addBOM ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
}

/**
 * One item's event, as n8n 2.8.4 builds it for the `ics` library: dates read as readEventDate
 * does (an empty end is the start; an all-day event's end is the day after), the additional
 * fields passed on as they are (geolocation, organizer and attendees under ics's names) and
 * checked as ics checks them. A problem fails the node with n8n's empty message (the problems
 * are the description).
 */
async function eventFile(ctx: NodeContext, i: number): Promise<Item> {
  const title = await ctx.param<unknown>('title', i, undefined);
  const allDay = await ctx.param<boolean>('allDay', i, false);
  const start = await ctx.param<unknown>('start', i, '');
  const end = (await ctx.param<unknown>('end', i, '')) || start;
  const fields = { ...((await ctx.param<Record<string, unknown>>('additionalFields', i, {})) ?? {}) };
  const fileName = fields.fileName || 'event.ics';
  const data: Record<string, unknown> = { title };
  const sub = (key: string, ui: string, values: string) => {
    if (fields[ui] !== undefined) {
      data[key] = (fields[ui] as Record<string, unknown> | null)?.[values];
      delete fields[ui];
    }
  };
  sub('geo', 'geolocationUi', 'geolocationValues');
  // n8n fills the place's missing coordinates with their default, '' (not a number for ics).
  if (data.geo && typeof data.geo === 'object') data.geo = { lat: '', lon: '', ...data.geo };
  sub('organizer', 'organizerUi', 'organizerValues');
  sub('attendees', 'attendeesUi', 'attendeeValues');
  if (fields.useWorkflowTimezone) delete fields.useWorkflowTimezone;
  Object.assign(data, fields);
  const startDate = readEventDate(start);
  const endDate = readEventDate(end)?.plus({ days: allDay ? 1 : 0 });
  const problems = [
    ...(startDate ? [] : dateProblems('start', allDay ? 3 : 6)),
    ...(endDate ? [] : dateProblems('end', allDay ? 3 : 6)),
    ...eventProblems(data),
  ];
  // n8n fails with an empty message; continuing on fail, the item's error is ics's own.
  if (problems.length)
    throw Object.assign(new NodeOperationError('', problems.join('; '), i), { itemMessage: eventError(problems) });
  const text = writeEvent({
    title: data.title || undefined,
    start: startDate!,
    end: endDate!,
    allDay,
    now: ctx.now(),
    fields: data,
  });
  return fileItem(ctx, Buffer.from(text), { fileName: String(fileName), mimeType: 'text/calendar' }, { item: i });
}

/** A file name given that is not text fails in n8n's prepareBinaryData (path.parse), with Node's message. */
function checkFileName(name: unknown, itemIndex?: number): void {
  if (name && typeof name !== 'string')
    throw new NodeOperationError(
      `The "path" argument must be of type string. Received ${
        typeof name === 'object'
          ? `an instance of ${name.constructor?.name ?? 'Object'}`
          : `type ${typeof name} (${String(name)})`
      }`,
      undefined,
      itemIndex,
    );
}

/**
 * Convert to File's per-item operations under continueOnFail (util.ts eachItem): a failed item
 * keeps its input's fields and carries the error, which the engine routes (`{error}` on the
 * regular output, or the input and the error on the error output, as n8n does with `json.error`).
 */
const eachFileItem = (ctx: NodeContext, run: (i: number) => Promise<Item>): Promise<Item[]> =>
  eachItem(ctx, run, (e, i) => ({
    json: ctx.items[i].json,
    error: { message: (e as { itemMessage?: string }).itemMessage ?? (e as Error).message },
    pairedItem: { item: i },
  }));

const SHEET_FORMATS = ['csv', 'html', 'rtf', 'xlsx', 'ods', 'xls'];

/**
 * All items as one sheet file (Convert to File and Spreadsheet File): named `options.fileName`,
 * else `<baseName>.<format>` (xlsx, ods and xls keep an empty name given, as n8n does).
 */
export function sheetFile(items: Item[], format: string, options: Options, baseName: string, now: Date): BinaryData {
  const sheet = toSheet(items.map((it) => it.json));
  const headerRow = options.headerRow !== false;
  checkFileName(options.fileName);
  if (format === 'xlsx' || format === 'ods' || format === 'xls') {
    // n8n's SheetJS checks the sheet's name (n8n offers the option for these formats only; for
    // the others it drops it, so any name passes).
    // (SheetJS 0.18.5's forbidden characters are ] [ * ? / \\ : its message names ':' but lets it
    // pass. A list given as the name is checked as one, element by element, and written as text;
    // anything else without indexOf fails.)
    const given: unknown = options.sheetName || 'Sheet';
    if (typeof given !== 'string' && !Array.isArray(given)) throw new NodeOperationError('n.indexOf is not a function');
    if (given.length > 31) throw new NodeOperationError('Sheet names cannot exceed 31 chars');
    if ([...'][*?/\\'].some((c) => (given as unknown[] | string).includes(c)))
      throw new NodeOperationError('Sheet name cannot contain : \\ / ? * [ ]');
    // (The xls writer then reads the name's characters one by one: a list with anything in fails.)
    if (format === 'xls' && Array.isArray(given) && given.length)
      throw new NodeOperationError('val.charCodeAt is not a function');
    const sheetName = String(given);
    let bytes: Buffer;
    if (format === 'xls') {
      try {
        bytes = writeXls(sheet, { sheetName, headerRow });
      } catch (e) {
        throw e instanceof BiffError ? new NodeOperationError(e.message) : e;
      }
    } else
      bytes = (format === 'xlsx' ? writeXlsx : writeOds)(sheet, {
        sheetName,
        headerRow,
        compress: Boolean(options.compression),
        now,
      });
    // A name given that is not text (false, 0: n8n passes it on and names nothing) counts as empty.
    const fileName = options.fileName === undefined ? `${baseName}.${format}` : String(options.fileName || '');
    // A name without a known extension: typed by the bytes, as n8n's file-type detection does.
    const ext = fileName.includes('.') ? fileName.split('.').pop()! : '';
    // (n8n's file-type knows an xls only as a compound file: application/x-cfb, "cfb".)
    const sniffed = format === 'xls' ? 'application/x-cfb' : mimeOfExtension(format);
    return toBinary(bytes, { fileName, mimeType: mimeOfExtension(ext) ? undefined : sniffed });
  }
  const text =
    format === 'csv'
      ? writeCsv(sheet, options.delimiter || ',', headerRow)
      : format === 'html'
        ? writeHtml(sheet)
        : writeRtf(sheet);
  return toBinary(Buffer.from(text), {
    fileName: options.fileName || `${baseName}.${format}`,
    mimeType: SHEET_MIME[format],
  });
}

export default {
  types: ['n8n-nodes-base.convertToFile'],
  async execute(ctx) {
    const operation = ctx.raw<string>('operation', 'csv');
    const options = (await ctx.param<Options>('options', 0, {})) ?? {};
    const all = ctx.items.map((_, i) => ({ item: i }));
    if (SHEET_FORMATS.includes(operation)) {
      const file = sheetFile(ctx.items, operation, options, 'File', ctx.now());
      const property = ctx.raw<string>('binaryPropertyName', 'data');
      return [[{ json: {}, binary: { [property]: file }, pairedItem: all }]];
    }
    if (operation === 'toJson') {
      const json = (v: unknown, o: Options) => encode(o.format ? JSON.stringify(v, null, 2) : JSON.stringify(v), o);
      if (ctx.raw<string>('mode', 'once') === 'each') {
        const one = async (i: number) => {
          const o = (await ctx.param<Options>('options', i, {})) ?? {};
          checkFileName(o.fileName, i);
          return fileItem(
            ctx,
            json(ctx.items[i].json, o),
            { fileName: o.fileName || 'file.json', mimeType: 'application/json' },
            { item: i },
          );
        };
        return [await eachFileItem(ctx, one)];
      }
      checkFileName(options.fileName);
      return [
        [
          fileItem(
            ctx,
            json(
              ctx.items.map((it) => it.json),
              options,
            ),
            { fileName: options.fileName || 'file.json', mimeType: 'application/json' },
            all,
          ),
        ],
      ];
    }
    if (operation === 'toText' || operation === 'toBinary') {
      const one = async (i: number): Promise<Item> => {
        const field = await ctx.param<string>('sourceProperty', i, '');
        const o = (await ctx.param<Options & { dataIsBase64?: boolean }>('options', i, {})) ?? {};
        // As n8n's lodash get: a key named with the dots wins, the path goes into text too.
        const value = field ? lodashGet(ctx.items[i].json, field) : ctx.items[i].json;
        if (value === undefined) throw new NodeOperationError(`The value in "${field}" is not set`, undefined, i);
        // Base64 is decoded by Buffer.from as n8n calls it, whatever the value: text is decoded,
        // an array gives its numbers as bytes, a number, boolean, null or plain object fails with
        // Node's own message. v1's "Data Is Base64" off writes the value as text does.
        const base64 = operation === 'toBinary' && (ctx.typeVersion !== 1 || o.dataIsBase64 !== false);
        let bytes: Buffer;
        let mimeType = operation === 'toText' ? 'text/plain' : o.mimeType;
        if (base64) {
          try {
            bytes = Buffer.from(value as string, 'base64');
          } catch (e) {
            throw new NodeOperationError((e as Error).message, undefined, i);
          }
        } else {
          // An object (null too) is written as JSON and typed so; other values as text, where
          // n8n's iconv writes false, 0 and '' as nothing.
          const isObject = typeof value === 'object';
          if (isObject) mimeType = 'application/json';
          bytes = encode(isObject ? JSON.stringify(value) : String(value || ''), o);
        }
        checkFileName(o.fileName, i);
        if (operation === 'toText')
          return fileItem(ctx, bytes, { fileName: o.fileName || 'file.txt', mimeType }, { item: i });
        // As n8n's prepareBinaryData: typed by the name, else the bytes' signature (a gzip named
        // "noext" is a gzip); unnamed files are "file" plus the extension found.
        const file = prepareBinary(bytes, o.fileName, mimeType);
        file.fileName ||= `file${file.fileExtension ? `.${file.fileExtension}` : ''}`;
        const property = ctx.raw<string>('binaryPropertyName', 'data');
        return { json: {}, binary: { [property]: file }, pairedItem: { item: i } };
      };
      return [await eachFileItem(ctx, one)];
    }
    if (operation === 'iCal') {
      return [await eachFileItem(ctx, (i) => eventFile(ctx, i))];
    }
    throw new NodeOperationError(`The operation "${operation}" of Convert to File is not supported here`);
  },
} satisfies NodeType;
