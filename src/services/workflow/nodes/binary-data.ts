// Binary data on items, as n8n has it: `item.binary[property]` = {data (base64), mimeType,
// fileType, fileName, fileExtension, fileSize (as n8n prints it, "97 B", "1.32 kB"), bytes}.
// Hamlet keeps the bytes base64 in memory (n8n's "default" mode); n8n 2.8.4's filesystem mode
// gives an `id` instead of `data`. Unknown extension and file type are null, as n8n's are.
import { NodeOperationError } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';

export interface BinaryData {
  data: string;
  mimeType: string;
  fileType: string | null;
  fileName?: string;
  fileExtension: string | null;
  fileSize: string;
  bytes: number;
}

const MIME_BY_EXTENSION: Record<string, string> = {
  csv: 'text/csv', html: 'text/html', htm: 'text/html', json: 'application/json', txt: 'text/plain', xml: 'application/xml',
  ics: 'text/calendar', rtf: 'application/rtf', pdf: 'application/pdf', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg',
  gif: 'image/gif', svg: 'image/svg+xml', webp: 'image/webp', mp3: 'audio/mpeg', wav: 'audio/wav', mp4: 'video/mp4', zip: 'application/zip',
  gz: 'application/gzip', js: 'application/javascript', md: 'text/markdown', yaml: 'application/yaml',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', xls: 'application/vnd.ms-excel',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
};
const EXTENSION_BY_MIME: Record<string, string> = Object.fromEntries(
  Object.entries(MIME_BY_EXTENSION).filter(([ext]) => !['htm', 'jpeg'].includes(ext)).map(([ext, mime]) => [mime, ext]),
);

/** n8n's file types by MIME type; null for any other. */
function fileTypeOf(mimeType: string): string | null {
  if (mimeType.startsWith('application/json')) return 'json';
  if (mimeType.startsWith('text/html')) return 'html';
  if (mimeType.startsWith('image/')) return 'image';
  if (mimeType.startsWith('audio/')) return 'audio';
  if (mimeType.startsWith('video/')) return 'video';
  if (mimeType.startsWith('text/') || mimeType.startsWith('application/javascript')) return 'text';
  if (mimeType.startsWith('application/pdf')) return 'pdf';
  return null;
}

/** A size as n8n prints it: bytes below 1000, then kB, MB, … with three significant digits. */
function prettyBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB', 'PB'];
  let value = n;
  let unit = -1;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${Number(value.toPrecision(3))} ${units[unit]}`;
}

/**
 * A binary entry for `bytes`: the MIME type given, else from the file name's extension, else
 * text/plain; the extension from the file name, else from the MIME type.
 */
export function toBinary(bytes: Buffer, opts: { fileName?: string; mimeType?: string } = {}): BinaryData {
  const fromName = opts.fileName?.includes('.') ? opts.fileName.split('.').pop()!.toLowerCase() : undefined;
  const mimeType = opts.mimeType || (fromName && MIME_BY_EXTENSION[fromName]) || 'text/plain';
  const entry: BinaryData = {
    data: bytes.toString('base64'),
    mimeType,
    fileType: fileTypeOf(mimeType),
    fileExtension: fromName ?? (opts.mimeType || fromName ? EXTENSION_BY_MIME[mimeType.split(';')[0]!] ?? null : null),
    fileSize: prettyBytes(bytes.length),
    bytes: bytes.length,
  };
  if (opts.fileName !== undefined) entry.fileName = opts.fileName;
  return entry;
}

/** The bytes of an item's binary property; n8n's errors when it is missing. */
export function binaryBytes(item: Item, property: string, itemIndex: number): { bytes: Buffer; entry: Partial<BinaryData> } {
  if (!item.binary) throw new NodeOperationError('No binary data exists on item!', undefined, itemIndex);
  const entry = item.binary[property] as Partial<BinaryData> | undefined;
  if (!entry || typeof entry.data !== 'string') {
    throw new NodeOperationError(`This operation expects the node's input data to contain a binary file '${property}', but none was found [item ${itemIndex}]`, 'Make sure that the previous node outputs a binary file', itemIndex);
  }
  return { bytes: Buffer.from(entry.data, 'base64'), entry };
}
