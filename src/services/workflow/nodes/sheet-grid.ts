// A sheet's cells as the spreadsheet readers (spreadsheet-xml.ts, xls/) hand them to
// readSpreadsheet, with the one bound they share: a file may place cells anywhere, so the span
// of the cells placed is capped, whatever format asked for it.
import { NodeOperationError } from '../engine/node-type.js';
import type { Cell } from './sheet-formats.js';

/** The most cells a sheet read here may span. */
export const MAX_CELLS = 2_000_000;

export interface Range {
  r0: number;
  c0: number;
  r1: number;
  c1: number;
}

/** A sheet's cells: rows by index, each a sparse array of cells by column index. */
export interface Grid {
  rows: Map<number, Cell[]>;
  /** The first and last used row and column. */
  range?: Range;
  /** The range the file declares (xlsx's <dimension>, xls's DIMENSIONS), which SheetJS reads instead when present. */
  declared?: Range;
}

/** A workbook opened for reading: its sheets' names, and a sheet's cells by name. */
export interface Book {
  names: string[];
  sheet(name: string): Grid;
}

export function put(grid: Grid, r: number, c: number, v: Cell): void {
  let row = grid.rows.get(r);
  if (!row) grid.rows.set(r, (row = []));
  row[c] = v;
  const g = (grid.range ??= { r0: r, c0: c, r1: r, c1: c });
  g.r0 = Math.min(g.r0, r);
  g.c0 = Math.min(g.c0, c);
  g.r1 = Math.max(g.r1, r);
  g.c1 = Math.max(g.c1, c);
  if ((g.r1 - g.r0 + 1) * (g.c1 - g.c0 + 1) > MAX_CELLS)
    throw new NodeOperationError(`The sheet spans more than ${MAX_CELLS} cells`);
}
