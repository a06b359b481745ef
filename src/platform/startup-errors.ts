// Start-up failures an operator can fix, told as one line that names the setting and its
// value (passwords masked) and says what is wrong: a port taken, a data directory that is a
// file or not writable, a read-only SQLite file, a PostgreSQL that cannot be reached or
// refuses us. Anything else is still one line (its message); the stack only when asked for.
import path from 'node:path';
import { maskUrlPassword } from './redact.js';
import type { PortSetting } from './settings.js';

interface SystemError extends Error {
  code?: string;
  syscall?: string;
  path?: string;
  port?: number;
  address?: string;
}

/** The settings a start-up failure may be about. */
export interface StartupSettings {
  host: string;
  dataDir: string;
  databaseUrl?: string;
}

const CONNECT_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
};

const PG_FAILURES: Record<string, string> = {
  '28P01': 'password authentication failed',
  '28000': 'the server refused this user',
  '3D000': 'the database does not exist',
  '3F000': 'the schema does not exist',
  '42501': 'the user lacks a permission the tables need',
  '57P03': 'the server is starting up or shutting down',
  '53300': 'too many connections on the server',
};

/**
 * One line for a start-up failure; `config` is absent when the configuration itself failed.
 * `ports` are the port settings read (platform/settings.ts), so a port taken names its variable.
 */
export function describeStartupError(
  error: unknown,
  config: StartupSettings | undefined,
  ports: PortSetting[] = [],
): string {
  const err = rootCause(error);
  const known = config ? describeKnown(err, config, ports) : undefined;
  const line = known ?? `hamlet: ${firstLine(err.message ?? String(err))}`;
  return maskUrlPassword(line);
}

function describeKnown(err: SystemError, config: StartupSettings, ports: PortSetting[]): string | undefined {
  // Listening: a port taken, a privileged port, an address this machine does not have.
  if (err.syscall === 'listen' || err.code === 'EADDRINUSE') {
    const where = `${err.address ?? config.host}:${err.port ?? '?'}`;
    if (err.code === 'EADDRNOTAVAIL')
      return `HAMLET_HOST=${config.host}: this machine has no such address to listen on (${where})`;
    const names = ports.filter((p) => p.port === err.port).map((p) => `${p.setting}=${err.port}`);
    const setting = names.length ? names.join(', ') : `port ${err.port}`;
    if (err.code === 'EADDRINUSE')
      return `${setting}: ${where} is already in use by another program; choose another port`;
    if (err.code === 'EACCES')
      return `${setting}: permission denied listening on ${where} (ports below 1024 need privileges)`;
    return `${setting}: cannot listen on ${where} (${err.code ?? err.message})`;
  }

  if (config.databaseUrl) {
    const setting = `DATABASE_URL=${maskUrlPassword(config.databaseUrl)}`;
    if (err.code && CONNECT_FAILURES[err.code])
      return `${setting}: cannot connect to PostgreSQL (${CONNECT_FAILURES[err.code]})`;
    if (err.code && PG_FAILURES[err.code])
      return `${setting}: PostgreSQL refused: ${PG_FAILURES[err.code]} (${firstLine(err.message)})`;
  }

  const dir = config.dataDir;
  const setting = `HAMLET_DATA_DIR=${dir}`;
  const file = path.join(dir, 'hamlet.sqlite');
  // The data directory: made with mkdir, then the SQLite file opened inside it.
  if (err.path && (err.syscall === 'mkdir' || err.syscall === 'open' || err.syscall === 'access')) {
    if (err.code === 'EEXIST' || err.code === 'ENOTDIR')
      return `${setting}: not a directory (${err.path} is a file, or a file stands in its path)`;
    if (err.code === 'EACCES' || err.code === 'EPERM')
      return `${setting}: permission denied creating or writing ${err.path}`;
    if (err.code === 'EROFS') return `${setting}: ${err.path} is on a read-only file system`;
    if (err.code === 'ENOSPC') return `${setting}: no space left on the device holding ${err.path}`;
  }
  const sqlite = err.code?.startsWith('SQLITE_') ? err.code : undefined;
  if (sqlite && !config.databaseUrl) {
    if (sqlite.startsWith('SQLITE_READONLY'))
      return `${setting}: the database ${file} is read-only (the file and its directory must be writable by this user)`;
    if (sqlite.startsWith('SQLITE_CANTOPEN'))
      return `${setting}: cannot open the database ${file} (is the directory writable by this user?)`;
    if (sqlite === 'SQLITE_NOTADB' || sqlite.startsWith('SQLITE_CORRUPT'))
      return `${setting}: ${file} is not a SQLite database or is damaged`;
    if (sqlite.startsWith('SQLITE_BUSY') || sqlite.startsWith('SQLITE_LOCKED'))
      return `${setting}: the database ${file} is locked by another process`;
    if (sqlite === 'SQLITE_FULL') return `${setting}: the disk holding ${file} is full`;
    return `${setting}: the database ${file} failed to open (${sqlite}: ${firstLine(err.message)})`;
  }
  return undefined;
}

/** The innermost cause (migrations wrap the database's own error). */
function rootCause(error: unknown): SystemError {
  let err = error as SystemError & { cause?: unknown };
  for (let i = 0; i < 5 && err?.cause instanceof Error && !err.code; i++) err = err.cause;
  return err instanceof Error ? err : new Error(String(error));
}

function firstLine(text: string): string {
  return String(text).split('\n')[0].trim();
}
