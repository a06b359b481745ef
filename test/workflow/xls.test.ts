// Excel 97 files (xls): the compound-file container and the BIFF8 records, against damaged and
// hostile files first (loops in the sector tables, chains and sizes past the file, string counts
// and CONTINUE records that lie, ranges that would expand a small file into millions of cells),
// then round trips of what the writer makes.
import { describe, expect, test } from 'vitest';
import { readCfb, writeCfb } from '../../src/services/workflow/nodes/xls/cfb.js';
import { writeXls } from '../../src/services/workflow/nodes/xls/xls.js';
import { readSpreadsheet } from '../../src/services/workflow/nodes/spreadsheet-xml.js';
import { NodeOperationError } from '../../src/services/workflow/engine/node-type.js';
import type { Cell } from '../../src/services/workflow/nodes/sheet-formats.js';

const sheet = {
  columns: ['id', 'name', 'n', 'ok'],
  rows: [
    [1, 'Ann', 2.5, true],
    [2, 'Bob', 0, false],
  ] as Cell[][],
};
const xls = () => writeXls(sheet, { sheetName: 'Sheet', headerRow: true });

/** A BIFF record. */
function rec(type: number, data: Buffer | number[] = []): Buffer {
  const d = Buffer.isBuffer(data) ? data : Buffer.from(data);
  const h = Buffer.alloc(4);
  h.writeUInt16LE(type, 0);
  h.writeUInt16LE(d.length, 2);
  return Buffer.concat([h, d]);
}
const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
const bof = (kind: number) => rec(0x0809, Buffer.concat([u16(0x0600), u16(kind), Buffer.alloc(12)]));
const eof = () => rec(0x000a);

/** A workbook stream: globals (with `globals` records) and one sheet "S" of `cells` records. */
function workbook(globals: Buffer[], cells: Buffer[]): Buffer {
  const name = Buffer.concat([Buffer.from([1, 0]), Buffer.from('S', 'latin1')]);
  const bound = (off: number) => rec(0x0085, Buffer.concat([u32(off), Buffer.from([0, 0]), name]));
  const head = Buffer.concat([bof(5), ...globals]);
  const offset = head.length + bound(0).length + eof().length;
  return Buffer.concat([head, bound(offset), eof(), bof(0x10), ...cells, eof()]);
}
const file = (stream: Buffer) => writeCfb([{ name: 'Workbook', data: stream }]);
const read = (bytes: Buffer, options = {}) => readSpreadsheet('xls', bytes, options);
const number = (r: number, c: number, v: number) => {
  const b = Buffer.alloc(14);
  b.writeUInt16LE(r, 0);
  b.writeUInt16LE(c, 2);
  b.writeDoubleLE(v, 6);
  return rec(0x0203, b);
};

/** The sector offsets of a version 3 file written here. */
const sectorAt = (id: number) => (id + 1) * 512;

function expectNodeError(run: () => unknown, message: RegExp) {
  let error: unknown;
  try {
    run();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(NodeOperationError);
  expect((error as Error).message).toMatch(message);
}

describe('xls: hostile and damaged files', () => {
  test('random bytes, and random bytes after the signature', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) >>> 16) & 0xff;
    for (let k = 0; k < 50; k++) {
      const bytes = Buffer.from(Array.from({ length: 64 + k * 97 }, rand));
      expect(() => read(bytes)).toThrow(NodeOperationError);
      const signed = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), bytes, Buffer.alloc(512)]);
      expect(() => read(signed)).toThrow(NodeOperationError);
    }
  });

  test('a file cut anywhere fails cleanly', () => {
    // A cut inside the last sectors' padding may leave the file whole; anything else is an error.
    const whole = xls();
    const rows = read(whole);
    for (let n = 0; n < whole.length; n += 37) {
      try {
        expect(read(whole.subarray(0, n))).toEqual(rows);
      } catch (e) {
        expect(e).toBeInstanceOf(NodeOperationError);
      }
    }
  });

  test('a FAT chain that loops', () => {
    const bytes = xls();
    // The directory's sector points at itself in the FAT.
    const dir = bytes.readUInt32LE(48);
    const fat = sectorAt(bytes.readUInt32LE(76));
    bytes.writeUInt32LE(dir, fat + dir * 4);
    expectNodeError(() => read(bytes), /directory chain loops/);
  });

  test('a DIFAT chain that loops', () => {
    const bytes = file(Buffer.concat([workbook([], []), Buffer.alloc(300_000)]));
    // Declare more FAT sectors than the header lists, and a DIFAT sector whose next is itself.
    const count = (bytes.length - 512) / 512;
    bytes.writeUInt32LE(count, 44);
    bytes.writeUInt32LE(0, 68);
    bytes.writeUInt32LE(1, 72);
    for (let i = 1; i < 109; i++) bytes.writeUInt32LE(0, 76 + i * 4);
    bytes.writeUInt32LE(0, sectorAt(0) + 508);
    expectNodeError(() => read(bytes), /DIFAT chain loops|fewer FAT sectors/);
  });

  test('more FAT sectors declared than the file has', () => {
    const bytes = xls();
    bytes.writeUInt32LE(0xffffffff, 44);
    expectNodeError(() => read(bytes), /FAT sectors in a file of/);
  });

  test('a sector chain out of range', () => {
    const bytes = xls();
    bytes.writeUInt32LE(0x00ffff00, 48);
    expectNodeError(() => read(bytes), /leaves the file|past the end/);
  });

  test('a stream size declared far past the file', () => {
    const big = file(Buffer.concat([workbook([], [number(0, 0, 1)]), Buffer.alloc(5000)]));
    const dir = sectorAt(big.readUInt32LE(48));
    // Entry 1 is the Workbook stream; 2 GB declared.
    big.writeUInt32LE(0x7fffffff, dir + 128 + 120);
    expectNodeError(() => read(big), /declares 2147483647 bytes/);
    const small = xls();
    const d = sectorAt(small.readUInt32LE(48));
    small.writeUInt32LE(4000, d + 128 + 120);
    expectNodeError(() => read(small), /declares 4000 bytes/);
  });

  test('a mini FAT chain that loops', () => {
    const bytes = xls();
    const miniFat = sectorAt(bytes.readUInt32LE(60));
    bytes.writeUInt32LE(0, miniFat);
    expectNodeError(() => read(bytes), /mini stream chain loops/);
  });

  test('a huge SST count with no strings behind it', () => {
    const sst = rec(0x00fc, Buffer.concat([u32(0xffffffff), u32(0xffffffff)]));
    const lsst = rec(0x00fd, Buffer.concat([u16(1), u16(0), u16(15), u32(5)]));
    const rows = read(file(workbook([sst], [number(0, 0, 1), lsst])), { headerRow: false });
    expect(rows).toEqual([[1], ['']]);
  });

  test('a string claiming more characters than its records hold', () => {
    const sst = rec(0x00fc, Buffer.concat([u32(1), u32(1), u16(65535), Buffer.from([0]), Buffer.from('abc')]));
    expectNodeError(() => read(file(workbook([sst], []))), /runs past the end/);
  });

  test('CONTINUE abuse: thousands of empty CONTINUE records inside a string', () => {
    const head = rec(0x00fc, Buffer.concat([u32(1), u32(1), u16(3), Buffer.from([0]), Buffer.from('a')]));
    const empties = Array.from({ length: 20000 }, () => rec(0x003c));
    const tail = rec(0x003c, Buffer.concat([Buffer.from([1]), Buffer.from('bc', 'utf16le')]));
    const lsst = rec(0x00fd, Buffer.concat([u16(0), u16(0), u16(15), u32(0)]));
    expect(read(file(workbook([head, ...empties, tail], [lsst])), { headerRow: false })).toEqual([['abc']]);
  });

  test('formatting runs and phonetic data declared past the record', () => {
    const s = Buffer.concat([u16(1), Buffer.from([0x0c]), u16(0xffff), u32(0x7fffffff), Buffer.from('a')]);
    const sst = rec(0x00fc, Buffer.concat([u32(1), u32(1), s]));
    expectNodeError(() => read(file(workbook([sst], []))), /ends before its data/);
  });

  test('a 2 KB file whose declared range spans 16 million cells', () => {
    const dims = rec(0x0200, Buffer.concat([u32(0), u32(65536), u16(0), u16(256), u16(0)]));
    const bytes = file(workbook([], [dims, number(0, 0, 1)]));
    expect(bytes.length).toBeLessThan(3000);
    expectNodeError(() => read(bytes, { includeEmptyCells: true }), /more than 2000000 cells/);
    expectNodeError(() => read(bytes), /more than 2000000 cells/);
  });

  test('cells far apart are bounded as in xlsx', () => {
    const bytes = file(workbook([], [number(0, 0, 1), number(65535, 255, 2)]));
    expectNodeError(() => read(bytes), /more than 2000000 cells/);
  });

  test('MULRK records are bounded by their own length', () => {
    const cells = Buffer.alloc(8000);
    const mulrk = rec(0x00bd, Buffer.concat([u16(0), u16(0), cells.subarray(0, 6 * 1000), u16(999)]));
    expect(read(file(workbook([], [mulrk])), { headerRow: false })).toEqual([Array(1000).fill(0)]);
  });

  test('a record running past the stream', () => {
    const stream = workbook([], [number(0, 0, 1)]);
    const cut = Buffer.concat([stream.subarray(0, stream.length - 4), Buffer.from([0x03, 0x02, 0xff, 0xff])]);
    expectNodeError(() => read(file(cut)), /truncated/);
  });

  test('an Excel 95 (BIFF5) workbook or a compound file of another kind is named as such', () => {
    const biff5 = Buffer.concat([rec(0x0809, Buffer.concat([u16(0x0500), u16(5), Buffer.alloc(4)])), eof()]);
    expectNodeError(() => read(writeCfb([{ name: 'Workbook', data: biff5 }])), /BIFF8/);
    expectNodeError(() => read(writeCfb([{ name: 'Book', data: biff5 }])), /BIFF8/);
    expectNodeError(() => read(writeCfb([{ name: 'WordDocument', data: Buffer.alloc(10) }])), /no workbook stream/);
    // Excel 4: a bare BIFF4 stream, no compound file.
    expectNodeError(() => read(Buffer.concat([rec(0x0409, Buffer.alloc(6)), eof()])), /only Excel 97–2003/);
  });

  test('a sheet offset past the stream', () => {
    const stream = workbook([], []);
    const bad = Buffer.from(stream);
    bad.writeUInt32LE(0x7fffffff, bad.indexOf(Buffer.from([0x85, 0x00])) + 4);
    expectNodeError(() => read(file(bad)), /past the end of the workbook/);
  });
});

describe('xls: cells as SheetJS (n8n) reads them', () => {
  const cell = (r: number, c: number) => Buffer.concat([u16(r), u16(c), u16(15)]);
  const boolerr = (r: number, c: number, v: number, err: number) =>
    rec(0x0205, Buffer.concat([cell(r, c), Buffer.from([v, err])]));
  const formulaError = (r: number, c: number) =>
    rec(0x0006, Buffer.concat([cell(r, c), Buffer.from([2, 0, 0x17, 0, 0, 0, 0xff, 0xff]), u16(0), u32(0), u16(0)]));
  const dims = (rows: number, cols: number) =>
    rec(0x0200, Buffer.concat([u32(0), u32(rows), u16(0), u16(cols), u16(0)]));

  test('#NULL! is a null cell that keeps no row; other errors and the cached error of a formula are no cell', () => {
    const bytes = file(
      workbook(
        [],
        [
          dims(3, 2),
          number(0, 0, 1),
          number(0, 1, 2),
          boolerr(1, 0, 7, 1),
          formulaError(1, 1),
          boolerr(2, 0, 0, 1),
          boolerr(2, 1, 1, 0),
        ],
      ),
    );
    // As SheetJS 0.18.5 reads the same file (checked against n8n's install).
    expect(read(bytes, { headerRow: false })).toEqual([[1, 2], [], [null, true]]);
    expect(read(bytes)).toEqual([{ '1': null, '2': true }]);
    expect(read(bytes, { includeEmptyCells: true })).toEqual([{ '1': null, '2': true }]);
  });

  test("LibreOffice's 9-byte BOOLERR is read a byte later, as SheetJS does (its TRUE reads as false)", () => {
    const lo = (r: number, v: number) => rec(0x0205, Buffer.concat([cell(r, 0), Buffer.from([v, 0, 0])]));
    expect(read(file(workbook([], [dims(2, 1), lo(0, 1), lo(1, 0)])), { headerRow: false })).toEqual([
      [false],
      [false],
    ]);
  });

  test('a declared range with no cells reads as blank rows without a header row', () => {
    const blank = rec(0x0201, cell(0, 0));
    expect(read(file(workbook([], [dims(2, 1), blank])), { headerRow: false })).toEqual([[], []]);
    expect(read(file(workbook([], [dims(2, 1), blank])))).toEqual([]);
    expect(read(file(workbook([], [dims(0, 0)])), { headerRow: false })).toEqual([]);
  });
});

describe('xls: the compound file', () => {
  test('small and large streams, many streams, round trip', () => {
    const files = [
      { name: 'Workbook', data: Buffer.alloc(100_000, 7) },
      { name: 'small', data: Buffer.from('hello') },
      { name: 'empty', data: Buffer.alloc(0) },
      ...Array.from({ length: 20 }, (_, i) => ({ name: `s${i}`, data: Buffer.alloc(i * 300, i) })),
    ];
    const cfb = readCfb(writeCfb(files));
    for (const f of files) expect(cfb.stream(f.name)).toEqual(f.data);
    expect(cfb.stream('WORKBOOK')?.length).toBe(100_000);
    expect(cfb.stream('nope')).toBeUndefined();
  });

  test('a file large enough to need DIFAT sectors', () => {
    const data = Buffer.alloc(8 * 1024 * 1024);
    for (let i = 0; i < data.length; i += 4096) data[i] = i / 4096;
    const bytes = writeCfb([{ name: 'Workbook', data }]);
    expect(bytes.readUInt32LE(72)).toBeGreaterThan(0);
    expect(readCfb(bytes).stream('Workbook')!.equals(data)).toBe(true);
  });
});

describe('xls: what the writer makes reads back', () => {
  test('header row, types, missing cells', () => {
    expect(read(xls())).toEqual([
      { id: 1, name: 'Ann', n: 2.5, ok: true },
      { id: 2, name: 'Bob', n: 0, ok: false },
    ]);
    const noHeader = writeXls(sheet, { sheetName: 'Mine', headerRow: false });
    expect(read(noHeader, { headerRow: false, sheetName: 'Mine' })).toEqual([
      [1, 'Ann', 2.5, true],
      [2, 'Bob', 0, false],
    ]);
  });

  test('text is cut at 255 characters, as SheetJS writes xls; the string table crosses CONTINUE records intact', () => {
    const long = 'x'.repeat(20000);
    const wide = 'Zoë ✓ 漢字 '.repeat(100);
    const many = Array.from({ length: 3000 }, (_, i) => [
      `row ${i} ü`,
      i % 2 ? wide.slice(i % 50, 200 + (i % 50)) : `é${i}`,
    ]);
    const s = { columns: ['a', 'b'], rows: [[long, wide], ...many] as Cell[][] };
    const bytes = writeXls(s, { sheetName: 'Sheet', headerRow: true });
    // Over 8224 bytes of strings: the table goes on in CONTINUE records (type 0x003c).
    expect(
      readCfb(bytes)
        .stream('Workbook')!
        .includes(Buffer.from([0x3c, 0x00, 0x20, 0x20])),
    ).toBe(true);
    const rows = read(bytes);
    expect(rows[0]).toEqual({ a: long.slice(0, 255), b: wide.slice(0, 255) });
    expect(rows.slice(1)).toEqual(many.map(([a, b]) => ({ a, b })));
  });

  test('numbers of every kind; not finite ones are errors, left out when read', () => {
    const values = [0, -0.5, 1e-7, 12345678901234, 2 ** 53, -1e300, Number.NaN, Infinity];
    const s = { columns: ['v'], rows: values.map((v) => [v]) as Cell[][] };
    const rows = read(writeXls(s, { sheetName: 'Sheet', headerRow: true }));
    expect(rows).toEqual(values.filter(Number.isFinite).map((v) => ({ v })));
  });

  test('columns past the 256th are dropped (as SheetJS does); more than 65536 rows are refused', () => {
    const columns = Array.from({ length: 300 }, (_, i) => `c${i}`);
    const wide = { columns, rows: [columns.map((_, i) => i)] };
    const [row] = read(writeXls(wide, { sheetName: 'Sheet', headerRow: true })) as Array<Record<string, number>>;
    expect(Object.keys(row)).toHaveLength(256);
    expect(row.c255).toBe(255);
    const tall = { columns: ['a'], rows: Array.from({ length: 65536 }, (_, i) => [i]) };
    expect(() => writeXls(tall, { sheetName: 'Sheet', headerRow: true })).toThrow(/at most 65536 rows/);
    expect(read(writeXls(tall, { sheetName: 'Sheet', headerRow: false }), { headerRow: false })).toHaveLength(65536);
  });
});
