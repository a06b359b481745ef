// The Compound File Binary format ([MS-CFB]; "OLE2"), the container of Excel 97 files: a small
// FAT file system in one file. The reader trusts nothing the file declares: every sector number
// is checked against the file's length, every chain is followed once (a chain that comes back
// to a sector it visited is a loop, not a longer stream), a stream's declared size must fit in
// the sectors its chain holds, and the FAT's own sector list (DIFAT) is bounded the same way.
// So the work and memory of reading are bounded by the file's own size. The writer lays out a
// version 3 file (512-byte sectors) holding streams in the root storage, small streams in the
// mini stream as the format requires (readers look for a stream under 4096 bytes there).

const SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const FREE = 0xffffffff;
const END_OF_CHAIN = 0xfffffffe;
const FAT_SECTOR = 0xfffffffd;
const DIFAT_SECTOR = 0xfffffffc;
const NO_STREAM = 0xffffffff;
const MINI_CUTOFF = 4096;
const MINI_SECTOR = 64;
const ENTRY = 128;

class CfbError extends Error {}

export const isCfb = (bytes: Buffer): boolean => bytes.length >= 8 && bytes.subarray(0, 8).equals(SIGNATURE);

export interface Cfb {
  /** The names of the streams (not storages), as stored. */
  names: string[];
  /** A stream's bytes by name (case-insensitive, as the format compares names), if present. */
  stream(name: string): Buffer | undefined;
}

export function readCfb(bytes: Buffer): Cfb {
  if (!isCfb(bytes)) throw new CfbError('not a Compound File (no OLE2 signature)');
  if (bytes.length < 512) throw new CfbError('the file is truncated (no full header)');
  const major = bytes.readUInt16LE(26);
  const shift = bytes.readUInt16LE(30);
  if (!((major === 3 && shift === 9) || (major === 4 && shift === 12)))
    throw new CfbError(`unsupported version ${major} with sectors of 2^${shift} bytes`);
  if (bytes.readUInt16LE(32) !== 6) throw new CfbError('unsupported mini sector size');
  const size = 1 << shift;
  // Sectors after the header (which fills the first sector); a last partial sector is read as is.
  const count = Math.ceil(Math.max(0, bytes.length - size) / size);
  const sector = (id: number): Buffer => {
    if (id >= count) throw new CfbError(`sector ${id} is past the end of the file`);
    return bytes.subarray((id + 1) * size, (id + 2) * size);
  };
  const perSector = size / 4;

  // The FAT's sectors: 109 listed in the header, the rest in the DIFAT chain.
  const fatCount = bytes.readUInt32LE(44);
  if (fatCount > count) throw new CfbError(`the header declares ${fatCount} FAT sectors in a file of ${count}`);
  const fatSectors: number[] = [];
  for (let i = 0; i < 109 && fatSectors.length < fatCount; i++) fatSectors.push(bytes.readUInt32LE(76 + i * 4));
  const seenDifat = new Set<number>();
  for (let id = bytes.readUInt32LE(68); fatSectors.length < fatCount && id !== END_OF_CHAIN && id !== FREE;) {
    if (seenDifat.has(id)) throw new CfbError('the DIFAT chain loops');
    seenDifat.add(id);
    const s = sector(id);
    for (let i = 0; i < perSector - 1 && fatSectors.length < fatCount; i++) fatSectors.push(s.readUInt32LE(i * 4));
    id = s.readUInt32LE(size - 4);
  }
  if (fatSectors.length < fatCount) throw new CfbError('the DIFAT lists fewer FAT sectors than declared');
  const fat = new Uint32Array(fatSectors.length * perSector).fill(FREE);
  fatSectors.forEach((id, k) => {
    const s = sector(id);
    for (let i = 0; i * 4 + 4 <= s.length; i++) fat[k * perSector + i] = s.readUInt32LE(i * 4);
  });

  /** A chain's sector numbers, each checked: in the file, in the table, visited once. */
  const chain = (start: number, table: Uint32Array, limit: number, what: string): number[] => {
    const ids: number[] = [];
    const seen = new Set<number>();
    for (let id = start; id !== END_OF_CHAIN; id = table[id]) {
      if (id >= limit || id >= table.length) throw new CfbError(`the ${what} chain leaves the file (sector ${id})`);
      if (seen.has(id)) throw new CfbError(`the ${what} chain loops (sector ${id})`);
      seen.add(id);
      ids.push(id);
    }
    return ids;
  };
  const readChain = (start: number, what: string) => Buffer.concat(chain(start, fat, count, what).map(sector));

  const dir = readChain(bytes.readUInt32LE(48), 'directory');
  interface Entry {
    name: string;
    type: number;
    start: number;
    size: number;
  }
  const entries: Entry[] = [];
  for (let off = 0; off + ENTRY <= dir.length; off += ENTRY) {
    const nameLength = Math.min(64, dir.readUInt16LE(off + 64));
    const type = dir[off + 66];
    // Version 3 files keep only the low 32 bits of a size (the high ones may hold garbage).
    const high = major === 4 ? dir.readUInt32LE(off + 124) : 0;
    if (high) throw new CfbError('a stream declares a size over 4 GB');
    entries.push({
      name: dir.toString('utf16le', off, off + Math.max(0, nameLength - 2)),
      type,
      start: dir.readUInt32LE(off + 116),
      size: dir.readUInt32LE(off + 120),
    });
  }
  const root = entries[0];
  if (!root || root.type !== 5) throw new CfbError('no root entry');
  const cutoff = bytes.readUInt32LE(56) || MINI_CUTOFF;

  let mini: { data: Buffer; fat: Uint32Array } | undefined;
  const miniStream = () => {
    if (mini) return mini;
    const data = readChain(root.start, 'mini stream');
    if (root.size > data.length) throw new CfbError('the mini stream is larger than its sectors');
    const table = readChain(bytes.readUInt32LE(60), 'mini FAT');
    const miniFat = new Uint32Array(table.length / 4);
    for (let i = 0; i < miniFat.length; i++) miniFat[i] = table.readUInt32LE(i * 4);
    return (mini = { data: data.subarray(0, root.size), fat: miniFat });
  };

  const streams = entries.filter((e) => e.type === 2);
  return {
    names: streams.map((e) => e.name),
    stream(name) {
      const e = streams.find((s) => s.name.toLowerCase() === name.toLowerCase());
      if (!e) return undefined;
      if (e.size === 0) return Buffer.alloc(0);
      let data: Buffer;
      if (e.size < cutoff) {
        const m = miniStream();
        const ids = chain(e.start, m.fat, Math.floor(m.data.length / MINI_SECTOR), 'mini stream');
        data = Buffer.concat(ids.map((id) => m.data.subarray(id * MINI_SECTOR, (id + 1) * MINI_SECTOR)));
      } else data = readChain(e.start, `"${e.name}" stream`);
      if (e.size > data.length)
        throw new CfbError(`the "${e.name}" stream declares ${e.size} bytes, its sectors hold ${data.length}`);
      return data.subarray(0, e.size);
    },
  };
}

// ---- writing ------------------------------------------------------------------------------------

const SECTOR = 512;
const PER_SECTOR = SECTOR / 4;

/** Names compare by length first, then by their upper-case form ([MS-CFB] 2.6.4). */
function compareNames(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  const x = a.toUpperCase();
  const y = b.toUpperCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A version 3 compound file whose root storage holds these streams. */
export function writeCfb(files: Array<{ name: string; data: Buffer }>): Buffer {
  const sorted = [...files].sort((a, b) => compareNames(a.name, b.name));
  const small = sorted.filter((f) => f.data.length < MINI_CUTOFF);
  const large = sorted.filter((f) => f.data.length >= MINI_CUTOFF);

  // The mini stream: small streams back to back in 64-byte mini sectors, chained in the mini FAT.
  const miniStarts = new Map<string, number>();
  const miniFat: number[] = [];
  const miniParts: Buffer[] = [];
  for (const f of small) {
    const n = Math.ceil(f.data.length / MINI_SECTOR);
    if (n === 0) continue;
    miniStarts.set(f.name, miniFat.length);
    for (let i = 0; i < n; i++) miniFat.push(i === n - 1 ? END_OF_CHAIN : miniFat.length + 1);
    miniParts.push(f.data, Buffer.alloc(n * MINI_SECTOR - f.data.length));
  }
  const miniData = Buffer.concat(miniParts);

  // Sector layout: large streams, the mini stream, the mini FAT, the directory, the FAT, the DIFAT.
  const sectorsOf = (n: number) => Math.ceil(n / SECTOR);
  const entries = 1 + sorted.length;
  const runs: Array<{ data: Buffer; sectors: number }> = [
    ...large.map((f) => ({ data: f.data, sectors: sectorsOf(f.data.length) })),
    { data: miniData, sectors: sectorsOf(miniData.length) },
    { data: Buffer.alloc(0), sectors: sectorsOf(miniFat.length * 4) },
    { data: Buffer.alloc(0), sectors: sectorsOf(entries * ENTRY) },
  ];
  const body = runs.reduce((n, r) => n + r.sectors, 0);
  // The FAT covers every sector, its own and the DIFAT's included: grow both until they do.
  let fatSectors = 0;
  let difatSectors = 0;
  for (;;) {
    const f = Math.ceil((body + fatSectors + difatSectors) / PER_SECTOR);
    const d = f > 109 ? Math.ceil((f - 109) / (PER_SECTOR - 1)) : 0;
    if (f === fatSectors && d === difatSectors) break;
    fatSectors = f;
    difatSectors = d;
  }
  const total = body + fatSectors + difatSectors;
  const fat = new Array<number>(fatSectors * PER_SECTOR).fill(FREE);
  const starts: number[] = [];
  let next = 0;
  for (const r of runs) {
    starts.push(r.sectors ? next : END_OF_CHAIN);
    for (let i = 0; i < r.sectors; i++, next++) fat[next] = i === r.sectors - 1 ? END_OF_CHAIN : next + 1;
  }
  const fatStart = next;
  for (let i = 0; i < fatSectors; i++) fat[next++] = FAT_SECTOR;
  const difatStart = next;
  for (let i = 0; i < difatSectors; i++) fat[next++] = DIFAT_SECTOR;

  const out = Buffer.alloc((1 + total) * SECTOR);
  // Header.
  SIGNATURE.copy(out, 0);
  out.writeUInt16LE(0x3e, 24);
  out.writeUInt16LE(3, 26);
  out.writeUInt16LE(0xfffe, 28);
  out.writeUInt16LE(9, 30);
  out.writeUInt16LE(6, 32);
  out.writeUInt32LE(fatSectors, 44);
  const [miniStart, miniFatStart, dirStart] = starts.slice(large.length);
  out.writeUInt32LE(dirStart, 48);
  out.writeUInt32LE(MINI_CUTOFF, 56);
  out.writeUInt32LE(miniFat.length ? miniFatStart : END_OF_CHAIN, 60);
  out.writeUInt32LE(runs[large.length + 1].sectors, 64);
  out.writeUInt32LE(difatSectors ? difatStart : END_OF_CHAIN, 68);
  out.writeUInt32LE(difatSectors, 72);
  for (let i = 0; i < 109; i++) out.writeUInt32LE(i < fatSectors ? fatStart + i : FREE, 76 + i * 4);
  const at = (id: number) => (id + 1) * SECTOR;

  // Streams and the mini stream, then the mini FAT.
  runs.forEach((r, k) => {
    if (r.data.length) r.data.copy(out, at(starts[k]));
  });
  miniFat.forEach((v, i) => out.writeUInt32LE(v, at(miniFatStart) + i * 4));

  // The directory: the root, then the streams as one balanced tree under it (all black).
  const dir = at(dirStart);
  const entry = (i: number, name: string, type: number, start: number, size: number) => {
    const o = dir + i * ENTRY;
    out.write(name, o, 62, 'utf16le');
    out.writeUInt16LE((name.length + 1) * 2, o + 64);
    out[o + 66] = type;
    out[o + 67] = 1;
    out.writeUInt32LE(NO_STREAM, o + 68);
    out.writeUInt32LE(NO_STREAM, o + 72);
    out.writeUInt32LE(NO_STREAM, o + 76);
    out.writeUInt32LE(start, o + 116);
    out.writeUInt32LE(size, o + 120);
  };
  entry(0, 'Root Entry', 5, miniData.length ? miniStart : END_OF_CHAIN, miniData.length);
  sorted.forEach((f, k) => {
    const ms = miniStarts.get(f.name);
    const start = f.data.length === 0 ? END_OF_CHAIN : (ms ?? starts[large.indexOf(f)]);
    entry(k + 1, f.name, 2, start, f.data.length);
  });
  const tree = (lo: number, hi: number): number => {
    if (lo > hi) return NO_STREAM;
    const mid = (lo + hi) >> 1;
    const o = dir + (mid + 1) * ENTRY;
    out.writeUInt32LE(tree(lo, mid - 1), o + 68);
    out.writeUInt32LE(tree(mid + 1, hi), o + 72);
    return mid + 1;
  };
  out.writeUInt32LE(tree(0, sorted.length - 1), dir + 76);
  // Unused directory slots are empty entries with no siblings or children.
  for (let i = entries; i * ENTRY < runs[large.length + 2].sectors * SECTOR; i++)
    for (const off of [68, 72, 76]) out.writeUInt32LE(NO_STREAM, dir + i * ENTRY + off);

  // The FAT, then the DIFAT (each DIFAT sector lists 127 FAT sectors and the next DIFAT sector).
  fat.forEach((v, i) => out.writeUInt32LE(v, at(fatStart) + i * 4));
  for (let d = 0; d < difatSectors; d++) {
    const o = at(difatStart + d);
    out.fill(0xff, o, o + SECTOR);
    for (let i = 0; i < PER_SECTOR - 1; i++) {
      const k = 109 + d * (PER_SECTOR - 1) + i;
      if (k < fatSectors) out.writeUInt32LE(fatStart + k, o + i * 4);
    }
    out.writeUInt32LE(d === difatSectors - 1 ? END_OF_CHAIN : difatStart + d + 1, o + SECTOR - 4);
  }
  return out;
}
