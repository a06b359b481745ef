// The zipped-XML spreadsheets, xlsx (Office Open XML, ECMA-376) and ods (OpenDocument), for
// plain cell values: text, numbers and booleans, one sheet written, any sheet read. Files are
// zip archives (binary/zip.ts) of XML read by the small scanner below: no DTDs, no external
// entities, only XML's five named entities and character references, so a hostile file cannot
// make the reader fetch or expand anything. Repeated rows and columns (ods) and far-apart cell
// references (xlsx) are bounded by MAX_CELLS. Formulas, styles, dates' formats and merged
// cells are not kept: a formula's cached value is read, a date is the number stored.
import { NodeOperationError } from '../engine/node-type.js';
import { readZip, writeZip } from '../binary/zip.js';
import type { Cell, Sheet } from './sheet-formats.js';
import { MAX_CELLS, put, type Book, type Grid } from './sheet-grid.js';
import { isBareBiff, isCfb, readXlsBook } from './xls/xls.js';

/** The most columns with values (the largest office suites allow 16384). */
const MAX_COLUMNS = 16_384;

// ---- XML ---------------------------------------------------------------------------------------

interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: Array<XmlNode | string>;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e] ?? m;
  });
}

const escapeXml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // Characters XML 1.0 cannot carry at all.
    // eslint-disable-next-line no-control-regex
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/g, '');

/** A tree of the document's elements (names with their prefixes), text kept as strings. */
function parseXml(text: string): XmlNode {
  const root: XmlNode = { name: '#document', attrs: {}, children: [] };
  const stack = [root];
  const re =
    /<!\[CDATA\[([\s\S]*?)\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!DOCTYPE[^>]*>|<(\/?)([^\s/>]+)([^>]*?)(\/?)>|([^<]+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const top = stack[stack.length - 1];
    if (m[1] !== undefined) top.children.push(m[1]);
    else if (m[6] !== undefined) top.children.push(unescapeXml(m[6]));
    else if (m[3] !== undefined) {
      if (m[2] === '/') {
        if (stack.length > 1) stack.pop();
        continue;
      }
      const attrs: Record<string, string> = {};
      for (const a of m[4].matchAll(/([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')/g)) attrs[a[1]] = unescapeXml(a[3] ?? a[4]);
      const node: XmlNode = { name: m[3], attrs, children: [] };
      top.children.push(node);
      if (m[5] !== '/') stack.push(node);
    }
  }
  return root;
}

const local = (name: string) => name.slice(name.indexOf(':') + 1);
const elements = (n: XmlNode, name: string) =>
  n.children.filter((c): c is XmlNode => typeof c !== 'string' && local(c.name) === name);
function find(n: XmlNode, name: string): XmlNode | undefined {
  for (const c of n.children) {
    if (typeof c === 'string') continue;
    if (local(c.name) === name) return c;
    const deeper = find(c, name);
    if (deeper) return deeper;
  }
  return undefined;
}
function findAll(n: XmlNode, name: string, out: XmlNode[] = []): XmlNode[] {
  for (const c of n.children) {
    if (typeof c === 'string') continue;
    if (local(c.name) === name) out.push(c);
    else findAll(c, name, out);
  }
  return out;
}
const textOf = (n: XmlNode): string => n.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');

// ---- shared -----------------------------------------------------------------------------------

function bad(message: string): NodeOperationError {
  return new NodeOperationError(message);
}

function unzip(bytes: Buffer): Map<string, Buffer> {
  try {
    return new Map(readZip(bytes).map((e) => [e.name, e.data]));
  } catch (e) {
    throw bad(`The file could not be read as a spreadsheet: ${(e as Error).message}`);
  }
}

/** The sheet's rows, header first when asked, as cell lists (missing cells left out). */
function sheetRows(sheet: Sheet, headerRow: boolean): Cell[][] {
  return headerRow ? [sheet.columns, ...sheet.rows] : sheet.rows;
}

// ---- xlsx -------------------------------------------------------------------------------------

const colName = (c: number): string => {
  let s = '';
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
};

function cellRef(ref: string): { r: number; c: number } | undefined {
  const m = /^\$?([A-Z]{1,3})\$?(\d{1,7})$/.exec(ref.toUpperCase());
  if (!m) return undefined;
  let c = 0;
  for (const ch of m[1]) c = c * 26 + (ch.charCodeAt(0) - 64);
  return { r: Number(m[2]) - 1, c: c - 1 };
}

const XLSX_TYPES = {
  '[Content_Types].xml':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>',
  '_rels/.rels':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  'xl/_rels/workbook.xml.rels':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
  'xl/styles.xml':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs></styleSheet>',
};

function xlsxCell(ref: string, v: Cell): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number')
    return Number.isFinite(v) ? `<c r="${ref}"><v>${v}</v></c>` : `<c r="${ref}" t="e"><v>#NUM!</v></c>`;
  if (typeof v === 'boolean') return `<c r="${ref}" t="b"><v>${v ? 1 : 0}</v></c>`;
  return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(String(v))}</t></is></c>`;
}

export function writeXlsx(
  sheet: Sheet,
  opts: { sheetName: string; headerRow: boolean; compress: boolean; now: Date },
): Buffer {
  const rows = sheetRows(sheet, opts.headerRow);
  const width = Math.max(1, sheet.columns.length);
  const last = `${colName(width - 1)}${Math.max(1, rows.length)}`;
  const body = rows
    .map((cells, r) => `<row r="${r + 1}">${cells.map((v, c) => xlsxCell(`${colName(c)}${r + 1}`, v)).join('')}</row>`)
    .join('');
  const files: Record<string, string> = {
    ...XLSX_TYPES,
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${escapeXml(opts.sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/worksheets/sheet1.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:${last}"/><sheetData>${body}</sheetData></worksheet>`,
  };
  const level = opts.compress ? 6 : 0;
  return writeZip(
    Object.entries(files).map(([name, xml]) => ({ name, data: Buffer.from(xml), level })),
    opts.now,
  );
}

/** Resolves a relationship target against the folder of the part that names it. */
function partPath(from: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = from.split('/').slice(0, -1);
  for (const p of target.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '.') parts.push(p);
  }
  return parts.join('/');
}

function readXlsxBook(files: Map<string, Buffer>): Book {
  const xml = (name: string) => {
    const b = files.get(name);
    return b ? parseXml(b.toString('utf8')) : undefined;
  };
  const workbook = xml('xl/workbook.xml');
  if (!workbook) throw bad('The file is not an xlsx workbook (no xl/workbook.xml)');
  const rels = new Map(
    findAll(xml('xl/_rels/workbook.xml.rels') ?? parseXml(''), 'Relationship').map((r) => [r.attrs.Id, r.attrs.Target]),
  );
  const sheets = findAll(workbook, 'sheet').map((s) => ({
    name: s.attrs.name ?? '',
    path: partPath('xl/workbook.xml', rels.get(s.attrs['r:id'] ?? '') ?? ''),
  }));
  const sst = xml('xl/sharedStrings.xml');
  const strings = sst ? elements(find(sst, 'sst') ?? sst, 'si').map((si) => findAll(si, 't').map(textOf).join('')) : [];
  return {
    names: sheets.map((s) => s.name),
    sheet(name) {
      const doc = xml(sheets.find((s) => s.name === name)?.path ?? '');
      const grid: Grid = { rows: new Map() };
      if (!doc) return grid;
      const [from, to] = (find(doc, 'dimension')?.attrs.ref ?? '').split(':').map(cellRef);
      if (from) grid.declared = { r0: from.r, c0: from.c, r1: (to ?? from).r, c1: (to ?? from).c };
      let nextRow = 0;
      for (const row of findAll(doc, 'row')) {
        const r = row.attrs.r ? Number(row.attrs.r) - 1 : nextRow;
        nextRow = r + 1;
        let nextCol = 0;
        for (const c of elements(row, 'c')) {
          const at = c.attrs.r ? cellRef(c.attrs.r) : { r, c: nextCol };
          if (!at) continue;
          nextCol = at.c + 1;
          const v = find(c, 'v');
          const raw = v ? textOf(v) : undefined;
          const t = c.attrs.t ?? 'n';
          let value: Cell;
          if (t === 'inlineStr')
            value = findAll(find(c, 'is') ?? c, 't')
              .map(textOf)
              .join('');
          else if (raw === undefined) continue;
          else if (t === 's') value = strings[Number(raw)] ?? '';
          else if (t === 'b') value = raw === '1' || raw === 'true';
          else if (t === 'str' || t === 'd') value = raw;
          else if (t === 'e') continue;
          else value = Number(raw);
          put(grid, at.r, at.c, value);
        }
      }
      return grid;
    },
  };
}

// ---- ods --------------------------------------------------------------------------------------

const ODS_MIME = 'application/vnd.oasis.opendocument.spreadsheet';
const ODS_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';

function odsCell(v: Cell): string {
  if (v === null || v === undefined) return '<table:table-cell/>';
  if (typeof v === 'number')
    return `<table:table-cell office:value-type="float" office:value="${v}"><text:p>${v}</text:p></table:table-cell>`;
  if (typeof v === 'boolean')
    return `<table:table-cell office:value-type="boolean" office:boolean-value="${v}"><text:p>${v ? 'TRUE' : 'FALSE'}</text:p></table:table-cell>`;
  // Line breaks are <text:line-break/> and runs of spaces <text:s/> in ODF text.
  const text = escapeXml(String(v))
    .replace(/\r?\n/g, '<text:line-break/>')
    .replace(/ {2,}/g, (s) => ` <text:s text:c="${s.length - 1}"/>`);
  return `<table:table-cell office:value-type="string"><text:p>${text}</text:p></table:table-cell>`;
}

export function writeOds(
  sheet: Sheet,
  opts: { sheetName: string; headerRow: boolean; compress: boolean; now: Date },
): Buffer {
  const rows = sheetRows(sheet, opts.headerRow)
    .map(
      (cells) =>
        `<table:table-row>${Array.from({ length: cells.length }, (_, c) => odsCell(cells[c])).join('')}</table:table-row>`,
    )
    .join('');
  const content = `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content ${ODS_NS} office:version="1.2"><office:body><office:spreadsheet><table:table table:name="${escapeXml(opts.sheetName)}">${rows}</table:table></office:spreadsheet></office:body></office:document-content>`;
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="${ODS_MIME}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`;
  const level = opts.compress ? 6 : 0;
  // The media type comes first and stored, so that tools can tell the file's type from its start.
  return writeZip(
    [
      { name: 'mimetype', data: Buffer.from(ODS_MIME), level: 0 },
      { name: 'content.xml', data: Buffer.from(content), level },
      { name: 'META-INF/manifest.xml', data: Buffer.from(manifest), level },
    ],
    opts.now,
  );
}

/** A cell's text: paragraphs on lines, <text:s/> as spaces, <text:tab/> and line breaks kept. */
function odsText(n: XmlNode): string {
  return n.children
    .map((c) => {
      if (typeof c === 'string') return c;
      const name = local(c.name);
      if (name === 's') return ' '.repeat(Math.min(Number(c.attrs['text:c'] ?? 1) || 1, 10_000));
      if (name === 'tab') return '\t';
      if (name === 'line-break') return '\n';
      if (name === 'annotation') return '';
      return odsText(c);
    })
    .join('');
}

function readOdsBook(files: Map<string, Buffer>): Book {
  const content = files.get('content.xml');
  if (!content) throw bad('The file is not an OpenDocument spreadsheet (no content.xml)');
  const tables = findAll(parseXml(content.toString('utf8')), 'table');
  return {
    names: tables.map((t) => t.attrs['table:name'] ?? ''),
    sheet(name) {
      const table = tables.find((t) => (t.attrs['table:name'] ?? '') === name);
      const grid: Grid = { rows: new Map() };
      if (!table) return grid;
      let r = 0;
      for (const row of findAll(table, 'table-row')) {
        const rowRepeat = Math.max(1, Number(row.attrs['table:number-rows-repeated'] ?? 1) || 1);
        const cells: Array<{ c: number; v: Cell }> = [];
        let c = 0;
        for (const cell of row.children) {
          if (typeof cell === 'string') continue;
          const kind = local(cell.name);
          if (kind !== 'table-cell' && kind !== 'covered-table-cell') continue;
          const repeat = Math.max(1, Number(cell.attrs['table:number-columns-repeated'] ?? 1) || 1);
          const type = cell.attrs['office:value-type'] ?? cell.attrs['calcext:value-type'];
          let v: Cell;
          if (kind === 'table-cell' && type) {
            if (['float', 'percentage', 'currency'].includes(type)) v = Number(cell.attrs['office:value']);
            else if (type === 'boolean') v = cell.attrs['office:boolean-value'] === 'true';
            else if (type === 'date') v = cell.attrs['office:date-value'];
            else if (type === 'time') v = cell.attrs['office:time-value'];
            else v = elements(cell, 'p').map(odsText).join('\n');
          }
          // Empty cells repeat freely (a row's tail); cells with values are placed one by one.
          if (v !== undefined) {
            if (c + repeat > MAX_COLUMNS) throw bad(`The sheet has more than ${MAX_COLUMNS} columns`);
            for (let k = 0; k < repeat; k++) cells.push({ c: c + k, v });
          }
          c += repeat;
        }
        if (cells.length) {
          // Refused before filling: a row of values repeated a million times is a million rows.
          if ((r + rowRepeat) * (cells[cells.length - 1].c + 1) > MAX_CELLS)
            throw bad(`The sheet spans more than ${MAX_CELLS} cells`);
          for (let k = 0; k < rowRepeat; k++) for (const x of cells) put(grid, r + k, x.c, x.v);
        }
        r += rowRepeat;
      }
      return grid;
    },
  };
}

// ---- reading as SheetJS's sheet_to_json does --------------------------------------------------

export interface ReadOptions {
  sheetName?: string;
  headerRow?: boolean;
  includeEmptyCells?: boolean;
  range?: string | number;
}

/** An xls workbook whose damage (the container's or the records') fails as a node error. */
function xlsBook(bytes: Buffer): Book {
  const guard = <T>(read: () => T): T => {
    try {
      return read();
    } catch (e) {
      if (e instanceof NodeOperationError) throw e;
      throw bad(`The file could not be read as a spreadsheet: ${(e as Error).message}`);
    }
  };
  const book = guard(() => readXlsBook(bytes));
  return { names: book.names, sheet: (name) => guard(() => book.sheet(name)) };
}

/**
 * The rows of a workbook's sheet (the first unless `sheetName`) as n8n's Extract from File gives
 * them: with a header row, objects keyed by it (duplicates as name_1, name_2; an empty header
 * cell as __EMPTY); without, the rows' cell lists; empty rows left out, missing cells absent
 * (or "" with `includeEmptyCells`).
 */
export function readSpreadsheet(format: string, bytes: Buffer, options: ReadOptions): unknown[] {
  // The file's content decides, whatever the operation says (an xlsx read as ods reads as
  // xlsx, an xls as xlsx reads as xls: n8n's reader detects the format too).
  let book: Book;
  if (isCfb(bytes)) {
    book = xlsBook(bytes);
    format = 'xls';
  } else {
    if (isBareBiff(bytes))
      throw bad('The file could not be read as a spreadsheet: only Excel 97–2003 (BIFF8) xls files are read here');
    const files = unzip(bytes);
    const kind = files.has('xl/workbook.xml') ? 'xlsx' : files.has('content.xml') ? 'ods' : format;
    book = kind === 'xlsx' ? readXlsxBook(files) : readOdsBook(files);
    format = kind;
  }
  if (book.names.length === 0) throw bad('Spreadsheet does not have any sheets!');
  let name = book.names[0];
  if (options.sheetName) {
    if (!book.names.includes(options.sheetName))
      throw bad(`Spreadsheet does not contain sheet called "${options.sheetName}"!`);
    name = options.sheetName;
  }
  const grid = book.sheet(name);
  // An xls sheet is read over its declared range even with no cells in it (SheetJS: blank rows).
  const used = grid.range ?? (format === 'xls' ? grid.declared : undefined);
  if (!used) return [];
  // xlsx and xls: the declared range, else the cells' own; ods: from the first cell (A1) on.
  const range = format === 'xlsx' || grid.declared ? { ...(grid.declared ?? used) } : { ...used, r0: 0, c0: 0 };
  if (options.range !== undefined && options.range !== '') {
    const n = Number(options.range);
    if (Number.isInteger(n)) range.r0 = n;
    else {
      const [a, b] = String(options.range).split(':').map(cellRef);
      if (a) Object.assign(range, { r0: a.r, c0: a.c });
      if (b) Object.assign(range, { r1: b.r, c1: b.c });
    }
  }
  // A declared range (or one asked for) is walked cell by cell: bounded like the cells themselves.
  if ((range.r1 - range.r0 + 1) * (range.c1 - range.c0 + 1) > MAX_CELLS)
    throw bad(`The sheet spans more than ${MAX_CELLS} cells`);
  const defval = options.includeEmptyCells ? '' : undefined;
  const out: unknown[] = [];
  const cellAt = (r: number, c: number) => grid.rows.get(r)?.[c];
  // A null cell (xls's #NULL!) stays null, the default or not, but does not make a row non-empty.
  const valueAt = (r: number, c: number) => {
    const v = cellAt(r, c);
    return v === undefined ? defval : v;
  };
  if (options.headerRow === false) {
    for (let r = range.r0; r <= range.r1; r++) {
      const row: unknown[] = [];
      for (let c = range.c0; c <= range.c1; c++) {
        const v = valueAt(r, c);
        if (v !== undefined) row[c - range.c0] = v;
      }
      // Without a header SheetJS keeps blank rows (as empty lists).
      out.push(Array.from(row, (v) => v ?? null));
    }
    return out;
  }
  const header: string[] = [];
  const seen = new Map<string, number>();
  for (let c = range.c0; c <= range.c1; c++) {
    const v = cellAt(range.r0, c);
    const base =
      v === undefined || v === null ? '__EMPTY' : typeof v === 'boolean' ? (v ? 'TRUE' : 'FALSE') : String(v);
    // A repeated name gets _1, _2, … (skipping names already taken), as SheetJS numbers them.
    let key = base;
    let count = seen.get(base) ?? 0;
    if (!count) seen.set(base, 1);
    else {
      do key = `${base}_${count++}`;
      while (seen.has(key));
      seen.set(base, count);
      seen.set(key, 1);
    }
    header.push(key);
  }
  for (let r = range.r0 + 1; r <= range.r1; r++) {
    const row: Record<string, unknown> = {};
    let empty = true;
    for (let c = range.c0; c <= range.c1; c++) {
      const v = valueAt(r, c);
      if (v === undefined) continue;
      row[header[c - range.c0]] = v;
      if (cellAt(r, c) !== undefined && cellAt(r, c) !== null) empty = false;
    }
    if (!empty) out.push(row);
  }
  return out;
}
