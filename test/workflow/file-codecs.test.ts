// The small codecs the Issue #29 nodes stand on: TOTP against RFC 6238's test vectors (the
// oracle can only check a code's form, the clock moves), and the zip reader against damaged
// and hostile archives (sizes that lie, a bomb, bad checksums, unsupported methods), and the
// spreadsheet reader against entity expansion and endless repeats.
import { describe, expect, test } from 'vitest';
import { base32Decode, hotp } from '../../src/services/workflow/nodes/totp.js';
import { readZip, writeZip } from '../../src/services/workflow/binary/zip.js';
import { readSpreadsheet, writeOds, writeXlsx } from '../../src/services/workflow/nodes/spreadsheet-xml.js';
import type { Cell } from '../../src/services/workflow/nodes/sheet-formats.js';

describe('TOTP (RFC 6238 appendix B)', () => {
  // The RFC's seeds: "12345678901234567890" repeated to the hash's key length.
  const seed = (n: number) => Buffer.from('1234567890'.repeat(7).slice(0, n));
  const vectors: Array<[number, string, string, string]> = [
    [59, '94287082', '46119246', '90693936'],
    [1111111109, '07081804', '68084774', '25091201'],
    [1111111111, '14050471', '67062674', '99943326'],
    [1234567890, '89005924', '91819424', '93441116'],
    [2000000000, '69279037', '90698825', '38618901'],
    [20000000000, '65353130', '77737706', '47863826'],
  ];
  test.each(vectors)('at %i s', (t, sha1, sha256, sha512) => {
    const counter = Math.floor(t / 30);
    expect(hotp(seed(20), counter, 8, 'sha1')).toBe(sha1);
    expect(hotp(seed(32), counter, 8, 'sha256')).toBe(sha256);
    expect(hotp(seed(64), counter, 8, 'sha512')).toBe(sha512);
  });
  test('base32 in either case, padding ignored, a space refused', () => {
    expect(base32Decode('GEZDGNBVGY3TQOJQ').toString()).toBe('1234567890');
    expect(base32Decode('gezdgnbvgy3tqojq====').toString()).toBe('1234567890');
    expect(() => base32Decode('GEZD GNBV')).toThrow('Invalid character found:  ');
  });
});

describe('zip', () => {
  test('round trip: stored and deflated entries, a UTF-8 name', () => {
    const files = [
      { name: 'a.txt', data: Buffer.from('alpha '.repeat(100)) },
      { name: 'dir/ü.bin', data: Buffer.from([0, 1, 2, 255]), level: 0 },
      { name: 'empty', data: Buffer.alloc(0) },
    ];
    const back = readZip(writeZip(files, new Date(2024, 0, 2, 3, 4, 6)));
    expect(back.map((f) => [f.name, f.data.toString('hex')])).toEqual(
      files.map((f) => [f.name, f.data.toString('hex')]),
    );
  });

  test('a bomb: declared sizes above the limit are refused before inflating', () => {
    const zip = writeZip([{ name: 'big', data: Buffer.alloc(2 * 1024 * 1024) }]);
    expect(() => readZip(zip, 1024 * 1024)).toThrow(/unpacks to more than/);
  });

  test('a size that lies: inflating stops at the declared size', () => {
    const zip = writeZip([{ name: 'x', data: Buffer.alloc(100_000, 7) }]);
    // Declare 10 bytes in the central directory: the entry inflates to more, so it is refused.
    const cd = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt32LE(10, cd + 24);
    expect(() => readZip(zip)).toThrow(/could not be inflated|damaged/);
  });

  test('a changed byte fails the checksum', () => {
    const zip = writeZip([{ name: 'x', data: Buffer.from('hello world'), level: 0 }]);
    zip[30 + 1 + 2] ^= 0xff;
    expect(() => readZip(zip)).toThrow(/checksum/);
  });

  test('not a zip, a truncated one, an unsupported method', () => {
    expect(() => readZip(Buffer.from('plain text, no archive'))).toThrow(/not a zip archive/);
    const zip = writeZip([{ name: 'x', data: Buffer.from('hello') }]);
    expect(() => readZip(zip.subarray(10))).toThrow();
    const cd = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt16LE(12, cd + 10); // bzip2
    expect(() => readZip(zip)).toThrow(/method 12/);
  });
});

describe('xlsx and ods', () => {
  const sheet = {
    columns: ['a', 'b'],
    rows: [
      [1, 'x & <y>'],
      [true, undefined],
    ] as Cell[][],
  };
  const opts = { sheetName: 'S', headerRow: true, compress: true, now: new Date(2024, 0, 1) };

  test('round trip of both formats', () => {
    for (const [format, write] of [
      ['xlsx', writeXlsx],
      ['ods', writeOds],
    ] as const)
      expect(readSpreadsheet(format, write(sheet, opts), {})).toEqual([{ a: 1, b: 'x & <y>' }, { a: true }]);
  });

  test('an entity a DTD defines is not expanded (no billion laughs)', () => {
    const dtd = '<!DOCTYPE x [<!ENTITY lol "lollollollollol"><!ENTITY lol2 "&lol;&lol;&lol;">]>';
    const files = readZip(writeXlsx(sheet, opts)).map((f) =>
      f.name === 'xl/worksheets/sheet1.xml'
        ? {
            name: f.name,
            data: Buffer.from(f.data.toString().replace('?>', `?>${dtd}`).replace('x &amp; &lt;y&gt;', '&lol2;')),
          }
        : f,
    );
    expect(readSpreadsheet('xlsx', writeZip(files), {})[0]).toEqual({ a: 1, b: '&lol2;' });
  });

  test('repeated rows with a value are bounded', () => {
    const files = readZip(writeOds(sheet, opts)).map((f) =>
      f.name === 'content.xml'
        ? {
            name: f.name,
            data: Buffer.from(
              f.data
                .toString()
                .replace('<table:table-row>', '<table:table-row table:number-rows-repeated="100000000">'),
            ),
          }
        : f,
    );
    expect(() => readSpreadsheet('ods', writeZip(files), {})).toThrow(/more than 2000000 cells/);
  });
});
