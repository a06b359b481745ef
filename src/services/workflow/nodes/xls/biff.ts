// BIFF8 ([MS-XLS]), the record stream inside an Excel 97–2003 file's "Workbook" stream, for
// plain cell values: text, numbers, booleans, and a formula's cached value. A record is a type
// (u16), a length (u16, at most 8224) and its data; data longer than that goes on in CONTINUE
// records, which for text restart with a flag byte saying whether the characters go on in one
// byte or two. The reader walks records by their lengths, so its work is bounded by the
// stream's size; counts a record declares (SST's string count, a string's length) are never
// trusted for allocation: reading stops with an error when the bytes run out. Styles, number
// formats (a date is the number stored), merged cells and formulas themselves are not kept.
import type { Cell, Sheet } from '../sheet-formats.js';
import { put, type Book, type Grid, type Range } from '../sheet-grid.js';

const BOF = 0x0809;
const EOF = 0x000a;
const CONTINUE = 0x003c;
const BOUNDSHEET = 0x0085;
const SST = 0x00fc;
const DIMENSIONS = 0x0200;
const NUMBER = 0x0203;
const RK = 0x027e;
const MULRK = 0x00bd;
const BOOLERR = 0x0205;
const LABEL = 0x0204;
const RSTRING = 0x00d6;
const LABELSST = 0x00fd;
const FORMULA = 0x0006;
const STRING = 0x0207;

/** The most data one record may hold (BIFF8). */
const MAX_RECORD = 8224;
/** Excel 97's sheet: 65536 rows of 256 columns. */
const MAX_ROWS = 65536;
const MAX_COLS = 256;

export class BiffError extends Error {}

interface BiffRecord {
  type: number;
  /** The record's data, then its CONTINUE records' data. */
  parts: Buffer[];
}

/** The records from `offset` on, each with the CONTINUE records that follow it. */
function* records(stream: Buffer, offset: number): Generator<BiffRecord> {
  let pos = offset;
  let current: BiffRecord | undefined;
  while (pos + 4 <= stream.length) {
    const type = stream.readUInt16LE(pos);
    const length = stream.readUInt16LE(pos + 2);
    if (pos + 4 + length > stream.length) throw new BiffError('the workbook is truncated (a record runs past its end)');
    const data = stream.subarray(pos + 4, pos + 4 + length);
    pos += 4 + length;
    if (type === CONTINUE && current) {
      current.parts.push(data);
      continue;
    }
    if (current) yield current;
    current = { type, parts: [data] };
  }
  if (current) yield current;
}

/** Reads across a record and its CONTINUE parts. */
class Reader {
  private part = 0;
  private off = 0;
  constructor(private readonly parts: Buffer[]) {}

  private ensure(): Buffer {
    while (this.part < this.parts.length && this.off >= this.parts[this.part].length) {
      this.part++;
      this.off = 0;
    }
    if (this.part >= this.parts.length) throw new BiffError('a record ends before its data');
    return this.parts[this.part];
  }

  get done(): boolean {
    for (let p = this.part, o = this.off; p < this.parts.length; p++, o = 0) if (o < this.parts[p].length) return false;
    return true;
  }

  u8(): number {
    return this.ensure()[this.off++];
  }
  u16(): number {
    return this.u8() | (this.u8() << 8);
  }
  u32(): number {
    return (this.u16() | (this.u16() << 16)) >>> 0;
  }
  skip(n: number): void {
    while (n > 0) {
      const b = this.ensure();
      const k = Math.min(n, b.length - this.off);
      this.off += k;
      n -= k;
    }
  }

  /**
   * `count` characters, one or two bytes each as `wide` says; where the characters cross into a
   * CONTINUE record, that record's first byte says again how wide the rest are.
   */
  chars(count: number, wide: boolean): string {
    const out: string[] = [];
    let left = count;
    while (left > 0) {
      let b = this.parts[this.part];
      if (!b || this.off >= b.length) {
        do {
          this.part++;
          this.off = 0;
        } while (this.part < this.parts.length && this.parts[this.part].length === 0);
        if (this.part >= this.parts.length) throw new BiffError('a string runs past the end of its record');
        b = this.parts[this.part];
        wide = (b[this.off++] & 1) === 1;
        continue;
      }
      const width = wide ? 2 : 1;
      const n = Math.min(left, Math.floor((b.length - this.off) / width));
      if (n === 0) throw new BiffError('a string is cut inside a character');
      out.push(b.toString(wide ? 'utf16le' : 'latin1', this.off, this.off + n * width));
      this.off += n * width;
      left -= n;
    }
    return out.join('');
  }

  /** An XLUnicodeRichExtendedString (SST's strings, LABEL's and STRING's with `lengthBytes` 2). */
  string(lengthBytes: 1 | 2 = 2): string {
    const count = lengthBytes === 1 ? this.u8() : this.u16();
    const flags = this.u8();
    const runs = flags & 0x08 ? this.u16() : 0;
    const ext = flags & 0x04 ? this.u32() : 0;
    const text = this.chars(count, (flags & 1) === 1);
    // Formatting runs and phonetic data follow the text; they are skipped.
    this.skip(runs * 4);
    this.skip(ext);
    return text;
  }
}

/** A record's first part as a plain buffer, checked to hold `n` bytes. */
function fixed(rec: BiffRecord, n: number): Buffer {
  const b = rec.parts[0];
  if (b.length < n) throw new BiffError(`a record of type 0x${rec.type.toString(16)} is too short`);
  return b;
}

/** An RK number: a 30-bit integer or the top 30 bits of a double, maybe divided by 100. */
function rk(v: number): number {
  let n: number;
  if (v & 2) n = (v | 0) >> 2;
  else {
    const b = Buffer.alloc(8);
    b.writeUInt32LE((v & 0xfffffffc) >>> 0, 4);
    n = b.readDoubleLE(0);
  }
  return v & 1 ? n / 100 : n;
}

function readSheet(stream: Buffer, offset: number, strings: string[]): Grid {
  const grid: Grid = { rows: new Map() };
  if (offset >= stream.length) throw new BiffError('a sheet starts past the end of the workbook');
  let dims: Range | undefined;
  let pendingFormula: { r: number; c: number } | undefined;
  let first = true;
  // Embedded substreams (a chart object on the sheet) sit between their own BOF and EOF.
  let depth = 0;
  for (const rec of records(stream, offset)) {
    if (first) {
      if (rec.type !== BOF) throw new BiffError('a sheet does not start with a BOF record');
      first = false;
      continue;
    }
    if (rec.type === BOF) depth++;
    if (rec.type === EOF && depth-- === 0) break;
    if (depth > 0) continue;
    const b = rec.parts[0];
    switch (rec.type) {
      case DIMENSIONS: {
        fixed(rec, 12);
        const rMac = b.readUInt32LE(4);
        const cMac = b.readUInt16LE(10);
        const r0 = b.readUInt32LE(0);
        const c0 = b.readUInt16LE(8);
        if (rMac > r0 && cMac > c0) dims = { r0, c0, r1: rMac - 1, c1: cMac - 1 };
        break;
      }
      case NUMBER:
        fixed(rec, 14);
        put(grid, b.readUInt16LE(0), b.readUInt16LE(2), b.readDoubleLE(6));
        break;
      case RK:
        fixed(rec, 10);
        put(grid, b.readUInt16LE(0), b.readUInt16LE(2), rk(b.readUInt32LE(6)));
        break;
      case MULRK: {
        fixed(rec, 6);
        const r = b.readUInt16LE(0);
        const c0 = b.readUInt16LE(2);
        for (let k = 0; 4 + k * 6 + 6 <= b.length - 2; k++) put(grid, r, c0 + k, rk(b.readUInt32LE(4 + k * 6 + 2)));
        break;
      }
      case BOOLERR: {
        fixed(rec, 8);
        // LibreOffice writes this record with 9 bytes (a byte after the value); SheetJS (n8n)
        // then reads the value one byte later, so LibreOffice's TRUE reads as false in n8n
        // (observed, nt-files-xls-read). The engine reads it as n8n does.
        const at = b.length === 9 ? 7 : 6;
        const value = b[at] ?? 0;
        const isError = (b[at + 1] ?? 0) !== 0;
        // Of the error constants SheetJS keeps only #NULL! (code 0), as a null value: in a row,
        // yet not enough to keep a row that has nothing else; #DIV/0!, #N/A … are no cell.
        if (!isError) put(grid, b.readUInt16LE(0), b.readUInt16LE(2), value !== 0);
        else if (value === 0) put(grid, b.readUInt16LE(0), b.readUInt16LE(2), null);
        break;
      }
      case LABEL:
      case RSTRING: {
        fixed(rec, 6);
        const reader = new Reader(rec.parts);
        reader.skip(6);
        put(grid, b.readUInt16LE(0), b.readUInt16LE(2), reader.string());
        break;
      }
      case LABELSST: {
        fixed(rec, 10);
        const i = b.readUInt32LE(6);
        put(grid, b.readUInt16LE(0), b.readUInt16LE(2), strings[i] ?? '');
        break;
      }
      case FORMULA: {
        fixed(rec, 14);
        const r = b.readUInt16LE(0);
        const c = b.readUInt16LE(2);
        pendingFormula = undefined;
        if (b.readUInt16LE(12) !== 0xffff) put(grid, r, c, b.readDoubleLE(6));
        else if (b[6] === 0) pendingFormula = { r, c };
        else if (b[6] === 1) put(grid, r, c, b[8] !== 0);
        // A formula's cached error is no cell at all in SheetJS (unlike an error constant).
        else if (b[6] === 3) put(grid, r, c, '');
        break;
      }
      case STRING:
        // A text formula's cached value follows it in its own record.
        if (pendingFormula) put(grid, pendingFormula.r, pendingFormula.c, new Reader(rec.parts).string());
        pendingFormula = undefined;
        break;
    }
  }
  // SheetJS's range: the declared one, widened to the cells found.
  const range = grid.range;
  if (dims || range) {
    const d = dims ?? range!;
    grid.declared = range
      ? {
          r0: Math.min(d.r0, range.r0),
          c0: Math.min(d.c0, range.c0),
          r1: Math.max(d.r1, range.r1),
          c1: Math.max(d.c1, range.c1),
        }
      : { ...d };
  }
  return grid;
}

/** The workbook in a BIFF8 "Workbook" stream. */
export function readBiff(stream: Buffer): Book {
  const sheets: Array<{ name: string; offset: number }> = [];
  let strings: string[] = [];
  let first = true;
  for (const rec of records(stream, 0)) {
    const b = rec.parts[0];
    if (first) {
      if (rec.type !== BOF) throw new BiffError('the workbook does not start with a BOF record');
      // BIFF8 says 0x0600; BIFF5 (Excel 95) and older are other formats.
      if (b.length < 4 || b.readUInt16LE(0) !== 0x0600)
        throw new BiffError('only Excel 97–2003 (BIFF8) workbooks are read here');
      first = false;
      continue;
    }
    if (rec.type === EOF) break;
    if (rec.type === BOUNDSHEET) {
      fixed(rec, 8);
      const reader = new Reader(rec.parts);
      reader.skip(6);
      sheets.push({ offset: b.readUInt32LE(0), name: reader.string(1) });
    } else if (rec.type === SST) {
      const reader = new Reader(rec.parts);
      reader.u32();
      const unique = reader.u32();
      // The count is a claim: strings are read while bytes remain, never allocated up front.
      strings = [];
      for (let i = 0; i < unique && !reader.done; i++) strings.push(reader.string());
    }
  }
  if (first) throw new BiffError('the workbook stream is empty');
  return {
    names: sheets.map((s) => s.name),
    sheet(name) {
      const s = sheets.find((x) => x.name === name);
      return s ? readSheet(stream, s.offset, strings) : { rows: new Map() };
    },
  };
}

// ---- writing ------------------------------------------------------------------------------------

function record(type: number, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16LE(type, 0);
  head.writeUInt16LE(data.length, 2);
  return Buffer.concat([head, data]);
}

// Text with a character past Latin-1 is stored in two bytes per character, else in one.
const isWide = (s: string) => [...s].some((ch) => ch.charCodeAt(0) > 0xff);
const encodeChars = (s: string, wide: boolean) => Buffer.from(s, wide ? 'utf16le' : 'latin1');

/** A string with a one- or two-byte length, in one byte per character when all fit. */
function unicodeString(s: string, lengthBytes: 1 | 2): Buffer {
  const wide = isWide(s);
  const head = Buffer.alloc(lengthBytes + 1);
  if (lengthBytes === 1) head[0] = s.length;
  else head.writeUInt16LE(s.length, 0);
  head[lengthBytes] = wide ? 1 : 0;
  return Buffer.concat([head, encodeChars(s, wide)]);
}

/** The shared strings, split over CONTINUE records as BIFF8 requires (text restarts with a flag). */
function sstRecords(strings: string[], total: number): Buffer[] {
  const out: Buffer[] = [];
  let parts: Buffer[] = [];
  let size = 0;
  let type = SST;
  const flush = () => {
    out.push(record(type, Buffer.concat(parts)));
    parts = [];
    size = 0;
    type = CONTINUE;
  };
  const add = (b: Buffer) => {
    parts.push(b);
    size += b.length;
  };
  const counts = Buffer.alloc(8);
  counts.writeUInt32LE(total, 0);
  counts.writeUInt32LE(strings.length, 4);
  add(counts);
  for (const s of strings) {
    const wide = isWide(s);
    const width = wide ? 2 : 1;
    // A string's header and first character are never split from each other.
    if (size + 3 + width > MAX_RECORD) flush();
    const head = Buffer.alloc(3);
    head.writeUInt16LE(s.length, 0);
    head[2] = wide ? 1 : 0;
    add(head);
    let i = 0;
    while (i < s.length) {
      const n = Math.min(s.length - i, Math.floor((MAX_RECORD - size) / width));
      if (n === 0) {
        flush();
        add(Buffer.from([wide ? 1 : 0]));
        continue;
      }
      add(encodeChars(s.slice(i, i + n), wide));
      i += n;
    }
  }
  flush();
  return out;
}

function bof(kind: number): Buffer {
  const b = Buffer.alloc(16);
  b.writeUInt16LE(0x0600, 0);
  b.writeUInt16LE(kind, 2);
  b.writeUInt16LE(0x0dbb, 4);
  b.writeUInt16LE(0x07cc, 6);
  b.writeUInt32LE(0x00000000, 8);
  b.writeUInt32LE(0x00000006, 12);
  return record(BOF, b);
}

function font(): Buffer {
  const b = Buffer.alloc(14);
  b.writeUInt16LE(200, 0); // 10 points, in twips
  b.writeUInt16LE(0x7fff, 4); // the window's text colour
  b.writeUInt16LE(400, 6); // normal weight
  return record(0x0031, Buffer.concat([b, unicodeString('Arial', 1)]));
}

/** An XF (cell format) record: style XFs (the 15 Excel expects first) or the one cell XF used. */
function xf(style: boolean): Buffer {
  const b = Buffer.alloc(20);
  b.writeUInt16LE(style ? 0xfff5 : 0x0001, 4); // style XF with no parent / locked cell XF of style 0
  b[6] = 0x20; // aligned at the bottom
  b[9] = style ? 0xf4 : 0;
  b.writeUInt16LE(0x20c0, 18); // pattern colours: the system's foreground and background
  return record(0x00e0, b);
}

/** The cell XF every cell uses: after the 15 style XFs. */
const CELL_XF = 15;

/**
 * One sheet as a BIFF8 workbook stream: the header row (when asked) then the rows; text in the
 * shared string table, numbers as NUMBER, booleans as BOOLERR; a number that is not finite is
 * the #NUM! error, as the xlsx writer has it. Refuses more rows than Excel 97 holds.
 */
export function writeBiff(sheet: Sheet, opts: { sheetName: string; headerRow: boolean }): Buffer {
  // Columns past the 256th are dropped, as SheetJS (n8n) does ("Data may be lost"); more rows
  // than 65536 are refused (SheetJS writes a file that reads back as its first cell only).
  const rows: Cell[][] = (opts.headerRow ? [sheet.columns, ...sheet.rows] : sheet.rows).map((r) =>
    r.length > MAX_COLS ? r.slice(0, MAX_COLS) : r,
  );
  const width = Math.min(MAX_COLS, Math.max(1, sheet.columns.length));
  if (rows.length > MAX_ROWS) throw new BiffError(`An xls sheet holds at most ${MAX_ROWS} rows`);

  const strings: string[] = [];
  const index = new Map<string, number>();
  let total = 0;
  const cells: Buffer[] = [];
  rows.forEach((row, r) => {
    row.forEach((v, c) => {
      if (v === null || v === undefined) return;
      const b = Buffer.alloc(typeof v === 'number' ? 14 : typeof v === 'boolean' ? 8 : 10);
      b.writeUInt16LE(r, 0);
      b.writeUInt16LE(c, 2);
      b.writeUInt16LE(CELL_XF, 4);
      if (typeof v === 'number') {
        if (Number.isFinite(v)) {
          b.writeDoubleLE(v, 6);
          cells.push(record(NUMBER, b));
        } else {
          const e = b.subarray(0, 8);
          e[6] = 0x24; // #NUM!
          e[7] = 1;
          cells.push(record(BOOLERR, e));
        }
      } else if (typeof v === 'boolean') {
        b[6] = v ? 1 : 0;
        cells.push(record(BOOLERR, b));
      } else {
        // SheetJS (n8n) keeps 255 characters of a text cell in xls (observed); so does this.
        const s = String(v).slice(0, 255);
        let i = index.get(s);
        if (i === undefined) {
          index.set(s, (i = strings.length));
          strings.push(s);
        }
        total++;
        b.writeUInt32LE(i, 6);
        cells.push(record(LABELSST, b));
      }
    });
  });

  const dims = Buffer.alloc(14);
  dims.writeUInt32LE(0, 0);
  dims.writeUInt32LE(Math.max(1, rows.length), 4);
  dims.writeUInt16LE(0, 8);
  dims.writeUInt16LE(width, 10);
  const window2 = Buffer.alloc(18);
  window2.writeUInt16LE(0x06b6, 0);
  window2.writeUInt16LE(64, 6);
  const sheetStream = Buffer.concat([
    bof(0x0010),
    record(DIMENSIONS, dims),
    ...cells,
    record(0x023e, window2),
    record(EOF, Buffer.alloc(0)),
  ]);

  const window1 = Buffer.alloc(18);
  window1.writeUInt16LE(0x3000, 4);
  window1.writeUInt16LE(0x2000, 6);
  window1.writeUInt16LE(0x0038, 8);
  window1.writeUInt16LE(1, 14);
  window1.writeUInt16LE(0x0258, 16);
  const codepage = Buffer.alloc(2);
  codepage.writeUInt16LE(1200, 0); // UTF-16
  const style = Buffer.from([0x00, 0x80, 0x00, 0xff]); // the built-in "Normal" style on XF 0
  const name = opts.sheetName.slice(0, 255);
  const boundSheet = (offset: number) => {
    const b = Buffer.alloc(6);
    b.writeUInt32LE(offset, 0);
    return record(BOUNDSHEET, Buffer.concat([b, unicodeString(name, 1)]));
  };
  const before = [
    bof(0x0005),
    record(0x0042, codepage),
    record(0x003d, window1),
    record(0x0022, Buffer.alloc(2)), // dates from 1900
    font(),
    font(),
    font(),
    font(),
    ...Array.from({ length: CELL_XF }, () => xf(true)),
    xf(false),
    record(0x0293, style),
  ];
  const after = [...sstRecords(strings, total), record(EOF, Buffer.alloc(0))];
  const size = (bs: Buffer[]) => bs.reduce((n, b) => n + b.length, 0);
  const offset = size(before) + boundSheet(0).length + size(after);
  return Buffer.concat([...before, boundSheet(offset), ...after, sheetStream]);
}
