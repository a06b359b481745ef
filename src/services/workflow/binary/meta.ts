// Binary data on items, as n8n has it: `item.binary[property]` = {data (base64), mimeType,
// fileType, fileName, fileExtension, fileSize (as n8n prints it, "97 B", "1.32 kB"), bytes}.
// Only metadata rules live here (MIME types, extensions, sizes, file signatures): nodes, the
// webhook route and the Code sandbox's helpers all describe files the same way. This folder
// imports nothing else of the service, so any part of it may use it.

export interface BinaryData {
  data: string;
  mimeType: string;
  fileType: string | null;
  fileName?: string;
  fileExtension: string | null;
  fileSize: string;
  bytes: number;
  /** Where the file came from: the folder of a path, the URL of a download (HTTP Request). */
  directory?: string;
}

const MIME_BY_EXTENSION: Record<string, string> = {
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  json: 'application/json',
  txt: 'text/plain',
  xml: 'application/xml',
  ics: 'text/calendar',
  rtf: 'application/rtf',
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  zip: 'application/zip',
  gz: 'application/gzip',
  js: 'application/javascript',
  md: 'text/markdown',
  yaml: 'application/yaml',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  bin: 'application/octet-stream',
};
const EXTENSION_BY_MIME: Record<string, string> = Object.fromEntries(
  Object.entries(MIME_BY_EXTENSION)
    .filter(([ext]) => !['htm', 'jpeg'].includes(ext))
    .map(([ext, mime]) => [mime, ext]),
);
// A compound file (an Excel 97 or Word 97 file) by its signature, as n8n's file-type names it.
EXTENSION_BY_MIME['application/x-cfb'] = 'cfb';

/** The MIME type of a file extension, or undefined when unknown. */
export const mimeOfExtension = (ext: string): string | undefined => MIME_BY_EXTENSION[ext.toLowerCase()];

/** The usual extension of a MIME type, or undefined when unknown. */
export const extensionOfMime = (mimeType: string): string | undefined =>
  EXTENSION_BY_MIME[mimeType.split(';')[0].trim().toLowerCase()];

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

/** File signatures n8n's file-type detection knows, for bytes that come with no MIME type. */
const SIGNATURES: Array<{ magic: number[]; mimeType: string; ext: string }> = [
  { magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], mimeType: 'image/png', ext: 'png' },
  { magic: [0xff, 0xd8, 0xff], mimeType: 'image/jpeg', ext: 'jpg' },
  { magic: [0x47, 0x49, 0x46, 0x38], mimeType: 'image/gif', ext: 'gif' },
  { magic: [0x25, 0x50, 0x44, 0x46, 0x2d], mimeType: 'application/pdf', ext: 'pdf' },
  { magic: [0x1f, 0x8b, 0x08], mimeType: 'application/gzip', ext: 'gz' },
  { magic: [0x50, 0x4b, 0x03, 0x04], mimeType: 'application/zip', ext: 'zip' },
  { magic: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], mimeType: 'application/x-cfb', ext: 'cfb' },
];

/** The MIME type and extension the bytes' signature shows, or undefined. */
function sniff(bytes: Buffer): { mimeType: string; ext: string } | undefined {
  return SIGNATURES.find((s) => s.magic.every((b, i) => bytes[i] === b));
}

/**
 * A binary entry for `bytes`: the MIME type given, else from the file name's extension, else
 * text/plain; the extension from the file name, else from the MIME type. `extensionFrom:
 * 'mimeType'` takes the extension from the MIME type only (n8n's copy of an uploaded file does).
 */
export function toBinary(
  bytes: Buffer,
  opts: { fileName?: string; mimeType?: string; extensionFrom?: 'mimeType' } = {},
): BinaryData {
  const fromName =
    opts.extensionFrom !== 'mimeType' && opts.fileName?.includes('.')
      ? opts.fileName.split('.').pop()!.toLowerCase()
      : undefined;
  const mimeType = opts.mimeType || (fromName && MIME_BY_EXTENSION[fromName]) || 'text/plain';
  const entry: BinaryData = {
    data: bytes.toString('base64'),
    mimeType,
    fileType: fileTypeOf(mimeType),
    fileExtension:
      fromName ??
      (opts.mimeType || fromName ? (EXTENSION_BY_MIME[mimeType.split(';')[0].trim().toLowerCase()] ?? null) : null),
    fileSize: prettyBytes(bytes.length),
    bytes: bytes.length,
  };
  if (opts.fileName !== undefined) entry.fileName = opts.fileName;
  return entry;
}

/**
 * The description n8n's prepareBinaryData gives bytes (without the bytes): the MIME type given,
 * else from the file path's extension, else from the bytes' signature, else text/plain; the
 * extension from the path, else from the MIME type; the name and folder from the path.
 */
export function describeFile(
  head: Buffer,
  size: number,
  filePath?: string,
  mimeType?: string,
): Omit<BinaryData, 'data' | 'fileType' | 'fileExtension'> & { fileType?: string; fileExtension?: string } {
  // The path is taken as it is (n8n does not cut a query off: "page.html?x=1" has the extension "html?x=1").
  // A trailing slash (a folder's entry in a zip) is no part of the name, as Node's path.parse.
  filePath = filePath?.replace(/(.)\/+$/, '$1');
  const base = filePath?.split('/').pop();
  const ext = base?.includes('.') ? base.split('.').pop()!.toLowerCase() : undefined;
  const sniffed = !mimeType && !(ext && MIME_BY_EXTENSION[ext]) ? sniff(head) : undefined;
  const mime = mimeType || (ext && MIME_BY_EXTENSION[ext]) || sniffed?.mimeType || 'text/plain';
  // The extension from the path, else the signature, else a MIME type given; text/plain by default has none.
  const extension =
    ext || sniffed?.ext || (mimeType ? EXTENSION_BY_MIME[mimeType.split(';')[0].trim().toLowerCase()] : undefined);
  const fileType = fileTypeOf(mime);
  const out: ReturnType<typeof describeFile> = { mimeType: mime, fileSize: prettyBytes(size), bytes: size };
  // Unknown type or extension: n8n leaves the key out.
  if (fileType) out.fileType = fileType;
  if (extension) out.fileExtension = extension;
  if (base) out.fileName = base;
  const dir = filePath && filePath.includes('/') ? filePath.slice(0, filePath.lastIndexOf('/')) : undefined;
  if (dir) out.directory = dir;
  return out;
}
