// Items as a sheet and back, in the text formats Convert to File and Extract from File share
// with n8n (whose files come from SheetJS; recorded with the oracle, nt-files-*):
// - a sheet is the items' json flattened to dotted keys ("tags.0", "o.k"), columns in the
//   order keys first appear, one row per item; null cells are there but empty, missing ones
//   absent;
// - CSV: a UTF-8 byte order mark, rows joined by \n, TRUE/FALSE for booleans, fields quoted
//   when they hold the delimiter, a quote or a line break; read back as text, the mark kept in
//   the first header, empty cells left out;
// - HTML: SheetJS's table export (data-t / data-v attributes, sjs-A1 ids); read back with types;
// - RTF: SheetJS's table, null and missing cells skipped; read back as text.
import type { HTMLElement } from 'node-html-parser';
import { htmlParser } from '../../../platform/optional-modules.js';
import { isPlainObject } from './util.js';

export type Cell = string | number | boolean | null | undefined;
export interface Sheet {
  columns: string[];
  rows: Cell[][];
}

/** Nested objects and arrays as dotted keys (n8n flattens items before writing a sheet). */
function flatten(value: unknown, prefix: string, out: Record<string, Cell>): void {
  if ((isPlainObject(value) || Array.isArray(value)) && Object.keys(value).length) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
    return;
  }
  out[prefix] = isPlainObject(value) || Array.isArray(value) ? JSON.stringify(value) : (value as Cell);
}

export function toSheet(rows: Array<Record<string, unknown>>): Sheet {
  const flat = rows.map((json) => {
    const out: Record<string, Cell> = {};
    for (const [k, v] of Object.entries(json)) flatten(v, k, out);
    return out;
  });
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const row of flat) {
    for (const k of Object.keys(row)) {
      if (seen.has(k)) continue;
      seen.add(k);
      columns.push(k);
    }
  }
  return { columns, rows: flat.map((row) => columns.map((c) => (c in row ? (row[c] ?? null) : undefined))) };
}

/** A cell as SheetJS writes it in text formats: TRUE/FALSE, numbers as JavaScript prints them. */
function cellText(v: Cell): string {
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return v === null || v === undefined ? '' : String(v);
}

export function writeCsv(sheet: Sheet, delimiter = ',', headerRow = true): string {
  const field = (v: Cell) => {
    const s = cellText(v);
    return s.includes(delimiter) || /["\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = sheet.rows.map((row) => row.map(field).join(delimiter));
  if (headerRow) lines.unshift(sheet.columns.map(field).join(delimiter));
  return '\ufeff' + lines.join('\n');
}

/** RFC 4180 records (quoted fields may hold delimiters, quotes as "" and line breaks). */
export function parseCsv(text: string, delimiter = ','): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endField = () => {
    record.push(field);
    field = '';
  };
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      i++;
    } else if (text.startsWith(delimiter, i)) {
      endField();
      i += delimiter.length;
    } else if (c === '\n' || c === '\r') {
      endField();
      records.push(record);
      record = [];
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      field += c;
      i++;
    }
  }
  if (field !== '' || record.length) {
    endField();
    records.push(record);
  }
  return records;
}

const columnName = (index: number): string =>
  (index < 26 ? '' : columnName(Math.floor(index / 26) - 1)) + String.fromCharCode(65 + (index % 26));
const escapeHtml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;')
    .replace(/\n/g, '<br/>');

export function writeHtml(sheet: Sheet): string {
  const row = (cells: Cell[], r: number) =>
    '<tr>' +
    cells
      .map((v, c) => {
        const id = `id="sjs-${columnName(c)}${r + 1}"`;
        if (v === undefined) return `<td ${id}></td>`;
        if (v === null) return `<td data-t="z" ${id}></td>`;
        const t = typeof v === 'number' ? 'n' : typeof v === 'boolean' ? 'b' : 's';
        return `<td data-t="${t}" data-v="${String(v)}" ${id}>${escapeHtml(cellText(v))}</td>`;
      })
      .join('') +
    '</tr>';
  const rows = [sheet.columns, ...sheet.rows].map((cells, r) => row(cells, r));
  return `<html><head><meta charset="utf-8"/><title>SheetJS Table Export</title></head><body><table>${rows.join('')}</table></body></html>`;
}

/** A cell's text read back with a type: numbers, TRUE/FALSE, else text. */
function typed(text: string): Cell {
  if (/^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
  if (text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  return text;
}

/** The first table's rows (cells by column, absent where the cell is empty). */
export function readHtmlTable(html: string): Cell[][] {
  const { parse } = htmlParser();
  const table = parse(html).querySelector('table');
  if (!table) return [];
  return table.querySelectorAll('tr').map((tr) =>
    tr.querySelectorAll('td, th').map((td: HTMLElement) => {
      // SheetJS's export types cells with data-t (its data-v is not escaped: the text is safer).
      const t = td.getAttribute('data-t');
      const text = parse(td.innerHTML.replace(/<br\s*\/?>/gi, '\n')).textContent;
      if (t === 'z' || text === '') return undefined;
      if (t === 's') return text;
      if (t === 'n') return Number(text);
      if (t === 'b') return text.toLowerCase() === 'true';
      return typed(text);
    }),
  );
}

export function writeRtf(sheet: Sheet): string {
  const row = (cells: Cell[]) => {
    const out = ['\\trowd\\trautofit1', ...cells.map((_, c) => `\\cellx${c + 1}`), '\\pard\\intbl'];
    for (const v of cells) if (v !== null && v !== undefined) out.push(` ${cellText(v)}\\cell`);
    out.push('\\pard\\intbl\\row');
    return out.join('');
  };
  return `{\\rtf1\\ansi${[sheet.columns, ...sheet.rows].map(row).join('')}}`;
}

/** The table rows of an RTF document as text cells. */
export function readRtfTable(rtf: string): string[][] {
  const rows: string[][] = [];
  for (const part of rtf.split('\\row')) {
    const start = part.indexOf('\\pard\\intbl');
    if (start < 0) continue;
    const body = part.slice(start + '\\pard\\intbl'.length).replace(/\\pard\\intbl$/, '');
    const cells = body
      .split('\\cell')
      .slice(0, -1)
      .map((c) => c.replace(/^ /, ''));
    if (cells.length) rows.push(cells);
  }
  return rows;
}

/** Rows as items: with a header row, keyed by it (empty cells left out); without, by column number under `row`. */
export function rowsToItems(
  rows: Cell[][],
  headerRow: boolean,
  keep = (v: Cell) => v !== undefined && v !== '',
): Array<Record<string, unknown>> {
  if (!headerRow)
    return rows.map((cells) => ({
      row: Object.fromEntries(cells.flatMap((v, i) => (keep(v) ? [[String(i), v]] : []))),
    }));
  const [header = [], ...body] = rows;
  return body.map((cells) =>
    Object.fromEntries(cells.flatMap((v, i) => (keep(v) && header[i] !== undefined ? [[String(header[i]), v]] : []))),
  );
}
