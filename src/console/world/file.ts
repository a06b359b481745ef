// The portable snapshot file: gzip'd JSON Lines. The first line is the header (format, hash,
// clock, the tables with their owners, keys and row counts); then each table's rows in key
// order, one canonical JSON object a line. The same file loads on SQLite and PostgreSQL.
import { gunzipSync, gzipSync } from 'node:zlib';
import { canonicalJson, decodeRow } from './canonical.js';
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
  return {
    format: WORLD_FORMAT,
    hash: stateHash(state),
    savedAt,
    ...(name ? { name } : {}),
    ...(state.clock ? { clock: state.clock } : {}),
    tables: state.tables.map((t) => ({ name: t.name, owner: t.owner, key: t.key, rows: t.rows.length })),
  };
}

export function encodeWorld(state: WorldState, header: WorldHeader): Buffer {
  const lines = [JSON.stringify(header)];
  for (const t of state.tables) for (const row of t.rows) lines.push(canonicalJson(row));
  return gzipSync(lines.join('\n') + '\n', { level: 1 });
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
  const tables = header.tables.map((t) => {
    const rows = lines.slice(at, at + t.rows).map((line) => decodeRow(JSON.parse(line) as Record<string, unknown>));
    at += t.rows;
    if (rows.length !== t.rows) throw new WorldFileError(`the snapshot is cut short in table ${t.name}`);
    return { name: t.name, owner: t.owner, key: t.key, rows };
  });
  const state: WorldState = { tables, ...(header.clock ? { clock: header.clock } : {}) };
  if (stateHash(state) !== header.hash) throw new WorldFileError('the snapshot rows do not match its hash (the file was changed or damaged)');
  return { header, state };
}

/** Just the header, for listings. */
export function peekHeader(file: Buffer): WorldHeader {
  const text = gunzipSync(file).toString('utf8');
  const end = text.indexOf('\n');
  return JSON.parse(end < 0 ? text : text.slice(0, end)) as WorldHeader;
}
