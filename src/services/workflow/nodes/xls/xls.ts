// Excel 97–2003 files (.xls): a BIFF8 workbook stream (biff.ts) inside a compound file (cfb.ts).
import type { Sheet } from '../sheet-formats.js';
import type { Book } from '../sheet-grid.js';
import { readBiff, writeBiff, BiffError } from './biff.js';
import { readCfb, writeCfb } from './cfb.js';

export { isCfb } from './cfb.js';

/** An Excel 2–5 file: a bare BIFF stream starting with its BOF record, no compound file around it. */
export const isBareBiff = (bytes: Buffer): boolean =>
  bytes.length >= 4 && [0x0009, 0x0209, 0x0409, 0x0809].includes(bytes.readUInt16LE(0)) && bytes.readUInt16LE(2) <= 20;

/** One sheet as an .xls file (its stream named "Workbook", as Excel 97 and later name it). */
export function writeXls(sheet: Sheet, opts: { sheetName: string; headerRow: boolean }): Buffer {
  return writeCfb([{ name: 'Workbook', data: writeBiff(sheet, opts) }]);
}

/** An .xls file's workbook; throws a CfbError or BiffError saying what is wrong with it. */
export function readXlsBook(bytes: Buffer): Book {
  const cfb = readCfb(bytes);
  const stream = cfb.stream('Workbook');
  if (!stream)
    throw new BiffError(
      cfb.stream('Book') ? 'only Excel 97–2003 (BIFF8) workbooks are read here' : 'the file holds no workbook stream',
    );
  return readBiff(stream);
}
