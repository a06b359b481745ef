// A small zip container reader and writer (PKWARE APPNOTE: local headers, central directory,
// end record; stored and deflated entries, no zip64, no encryption) on node:zlib's raw deflate.
// The Compression node, and the xlsx/ods spreadsheets (zip files of XML), use it. Reading is
// bounded: the sizes the directory declares are checked before anything is inflated, and
// inflating never yields more than declared, so a small hostile archive cannot grow without end.
import { deflateRawSync, inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  data: Buffer;
}

/** The most bytes one archive may unpack to (all entries together). */
export const MAX_UNZIPPED_BYTES = 256 * 1024 * 1024;

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** MS-DOS date and time fields (local time, 2-second steps), as zip stores them. */
function dosTime(d: Date): { time: number; date: number } {
  const year = Math.max(1980, d.getFullYear());
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/**
 * A zip archive of `entries` in order. `level` 0 stores an entry as is (already compressed
 * files), else it is deflated at that level; names that are not ASCII are flagged UTF-8.
 */
export function writeZip(entries: Array<ZipEntry & { level?: number }>, modified: Date = new Date()): Buffer {
  const { time, date } = dosTime(modified);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const level = e.level ?? 6;
    const body = level === 0 ? e.data : deflateRawSync(e.data, { level });
    const method = level === 0 ? 0 : 8;
    const flags = /[^\x20-\x7e]/.test(e.name) ? 0x800 : 0;
    const crc = crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

class ZipError extends Error {}

/** The entries of a zip archive, in the central directory's order (folders as empty entries). */
export function readZip(zip: Buffer, maxBytes = MAX_UNZIPPED_BYTES): ZipEntry[] {
  // The end record is in the last 22 + 65535 (comment) bytes.
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new ZipError('The file is not a zip archive (no end of central directory)');
  const count = zip.readUInt16LE(end + 10);
  let p = zip.readUInt32LE(end + 16);
  const out: ZipEntry[] = [];
  let total = 0;
  for (let n = 0; n < count; n++) {
    if (p + 46 > zip.length || zip.readUInt32LE(p) !== 0x02014b50)
      throw new ZipError('The zip archive is damaged (central directory)');
    const flags = zip.readUInt16LE(p + 8);
    const method = zip.readUInt16LE(p + 10);
    const crc = zip.readUInt32LE(p + 16);
    const compressed = zip.readUInt32LE(p + 20);
    const size = zip.readUInt32LE(p + 24);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    const localOffset = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nameLength).toString(flags & 0x800 ? 'utf8' : 'latin1');
    p += 46 + nameLength + extraLength + commentLength;
    if (flags & 1) throw new ZipError(`The zip entry "${name}" is encrypted`);
    if (size === 0xffffffff || compressed === 0xffffffff) throw new ZipError('Zip64 archives are not supported');
    total += size;
    if (total > maxBytes) throw new ZipError(`The zip archive unpacks to more than ${maxBytes} bytes`);
    if (localOffset + 30 > zip.length || zip.readUInt32LE(localOffset) !== 0x04034b50)
      throw new ZipError(`The zip archive is damaged (entry "${name}")`);
    const start = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    const body = zip.subarray(start, start + compressed);
    if (body.length !== compressed) throw new ZipError(`The zip archive is damaged (entry "${name}")`);
    let data: Buffer;
    if (method === 0) data = Buffer.from(body);
    else if (method === 8) {
      try {
        data = size === 0 ? Buffer.alloc(0) : inflateRawSync(body, { maxOutputLength: size });
      } catch {
        throw new ZipError(`The zip entry "${name}" could not be inflated`);
      }
    } else throw new ZipError(`The zip entry "${name}" uses compression method ${method}, which is not supported`);
    if (data.length !== size || crc32(data) !== crc)
      throw new ZipError(`The zip entry "${name}" is damaged (size or checksum)`);
    out.push({ name, data });
  }
  return out;
}
