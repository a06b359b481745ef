// The portable snapshot file: gzip'd JSON Lines. The first line is the header (format, hash,
// clock, the tables with their owners, keys and row counts); then each table's rows in key
// order, one canonical JSON object a line. The same file loads on SQLite and PostgreSQL.
import { gunzipSync, gzipSync } from 'node:zlib';
import { canonicalRow, decodeRow, hashTexts, tableText } from './canonical.js';
import { stateHash, type ClockState, type WorldState } from './state.js';

const WORLD_FORMAT = 'hamlet-world/1';

export interface WorldHeader {
  format: typeof WORLD_FORMAT;
  hash: string;
  savedAt: string;
  name?: string;
  clock?: ClockState;
  tables: Array<{ name: string; owner: string; key: string[]; rows: number }>;
}

export class WorldFileError extends Error {}

export function headerOf(state: WorldState, savedAt: string, name?: string): WorldHeader {
  return headerWith(state, stateHash(state), savedAt, name);
}

function headerWith(state: WorldState, hash: string, savedAt: string, name?: string): WorldHeader {
  return {
    format: WORLD_FORMAT,
    hash,
    savedAt,
    ...(name ? { name } : {}),
    ...(state.clock ? { clock: state.clock } : {}),
    tables: state.tables.map((t) => ({ name: t.name, owner: t.owner, key: t.key, rows: t.rows.length })),
  };
}

export function encodeWorld(state: WorldState, header: WorldHeader): Buffer {
  return gzipTexts(header, state.tables.map((t) => tableText(t.rows.map(canonicalRow))));
}

/** A state's file and header, each row made canonical once for both the hash and the file. */
export function saveWorld(state: WorldState, savedAt: string, name?: string): { header: WorldHeader; file: Buffer } {
  const texts = state.tables.map((t) => tableText(t.rows.map(canonicalRow)));
  const header = headerWith(state, hashTexts(state.tables.map((t, i) => ({ name: t.name, text: texts[i]! }))), savedAt, name);
  return { header, file: gzipTexts(header, texts) };
}

function gzipTexts(header: WorldHeader, texts: string[]): Buffer {
  return gzipSync(Buffer.concat([Buffer.from(JSON.stringify(header) + '\n'), ...texts.map((t) => Buffer.from(t))]), { level: 1 });
}

/** Reads a snapshot file; a damaged one (or one whose rows do not hash to its header's hash) is refused. */
export function decodeWorld(file: Buffer): { header: WorldHeader; state: WorldState } {
  let text: string;
  try {
    text = gunzipSync(file).toString('utf8');
  } catch {
    throw new WorldFileError('not a world snapshot: the file is not gzip');
  }
  const lines = text.split('\n');
  let header: WorldHeader;
  try {
    header = JSON.parse(lines[0]!) as WorldHeader;
  } catch {
    throw new WorldFileError('not a world snapshot: the first line is not JSON');
  }
  if (header?.format !== WORLD_FORMAT || !Array.isArray(header.tables)) throw new WorldFileError(`not a world snapshot: format is not ${WORLD_FORMAT}`);
  let at = 1;
  const canonical: Array<{ name: string; text: string }> = [];
  const tables = header.tables.map((t) => {
    const text = lines.slice(at, at + t.rows);
    at += t.rows;
    if (text.length !== t.rows) throw new WorldFileError(`the snapshot is cut short in table ${t.name}`);
    let rows: Array<Record<string, unknown>>;
    try {
      rows = text.map((line) => JSON.parse(line) as Record<string, unknown>);
    } catch {
      throw new WorldFileError(`not a world snapshot: a row of table ${t.name} is not JSON`);
    }
    // The hash is over each row's canonical form, made before bytes are decoded (as it was saved).
    canonical.push({ name: t.name, text: tableText(rows.map(canonicalRow)) });
    return { name: t.name, owner: t.owner, key: t.key, rows: rows.map(decodeRow) };
  });
  const state: WorldState = { tables, ...(header.clock ? { clock: header.clock } : {}) };
  if (hashTexts(canonical) !== header.hash) throw new WorldFileError('the snapshot rows do not match its hash (the file was changed or damaged)');
  return { header, state };
}

/** Just the header, for listings. */
export function peekHeader(file: Buffer): WorldHeader {
  const text = gunzipSync(file).toString('utf8');
  const end = text.indexOf('\n');
  return JSON.parse(end < 0 ? text : text.slice(0, end)) as WorldHeader;
}
