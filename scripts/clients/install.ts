// Installs a heavy real client (Node-RED with its Home Assistant nodes, n8n-mcp, ...) into a
// cache folder outside the repository, once, so `npm ci` stays lean and only the conformance
// step (`npm run conformance`) pays for them. Each client is a list of exact npm versions in
// CLIENTS; its folder is ~/.cache/hamlet-clients/<name>-<version> (HAMLET_CLIENTS_DIR moves the
// root). While npm works, a progress line on stderr says how long it has taken and how far it got
// (scripts/npm-install.mjs); stdout holds only the folders installed.
//
//   node --import tsx scripts/clients/install.ts node-red     install one client (or several)
//   node --import tsx scripts/clients/install.ts              install every client
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { npmInstall, packagesUnpacked } from '../npm-install.mjs';

interface ClientSpec {
  /** The version the folder is named after (the client's main package). */
  version: string;
  /** Exact versions to install, the client's main package first. */
  packages: Record<string, string>;
  /** Leave optional dependencies out: n8n-mcp's better-sqlite3 (it falls back to sql.js), so nothing compiles. */
  omitOptional?: boolean;
  /** What a person waits for, printed when the install starts. */
  about: string;
}

const CLIENTS = {
  // Node-RED 5 needs Node 22; 4.1 is the newest line on Node 20.
  'node-red': {
    version: '4.1.8',
    packages: { 'node-red': '4.1.8', 'node-red-contrib-home-assistant-websocket': '0.80.3' },
    omitOptional: true,
    about: 'Node-RED and its Home Assistant nodes (about 1 minute, 100 MB)',
  },
  'n8n-mcp': {
    version: '2.87.0',
    packages: { 'n8n-mcp': '2.87.0' },
    omitOptional: true,
    about: 'n8n-mcp (about 1 minute, 110 MB)',
  },
} satisfies Record<string, ClientSpec>;

type ClientName = keyof typeof CLIENTS;

function clientsRoot(): string {
  return process.env.HAMLET_CLIENTS_DIR ?? path.join(homedir(), '.cache', 'hamlet-clients');
}

/** Where a client lives once installed. */
function clientDir(name: ClientName): string {
  return path.join(clientsRoot(), `${name}-${CLIENTS[name].version}`);
}

/** The folder of one installed package of a client. */
function packageDir(name: ClientName, pkg: string): string {
  return path.join(clientDir(name), 'node_modules', pkg);
}

/** The marker a finished install leaves: the spec it installed, so a changed spec installs again. */
const markerOf = (dir: string) => path.join(dir, '.hamlet-installed.json');

function isInstalled(name: ClientName): boolean {
  const marker = markerOf(clientDir(name));
  if (!existsSync(marker)) return false;
  return readFileSync(marker, 'utf8') === JSON.stringify(CLIENTS[name]);
}

const LOCK_WAIT_MS = 15 * 60_000;

/** Whether the process that took a lock still runs (a lock just made, without its pid yet, counts as held). */
function holderAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(lock, 'pid'), 'utf8'));
  } catch {
    return existsSync(lock);
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Installs a client unless it is already there; resolves to its folder. Two processes asking
 * for the same client at once (two test files) install it once: the second waits for the
 * first's lock (a directory, created atomically) to go.
 */
export async function ensureClient(
  name: ClientName,
  log: (line: string) => void = (l) => console.error(l),
): Promise<string> {
  const dir = clientDir(name);
  if (isInstalled(name)) return dir;
  mkdirSync(clientsRoot(), { recursive: true });
  const lock = `${dir}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      // A lock left by a process that is gone (killed mid-install) is taken over.
      if (!holderAlive(lock)) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline)
        throw new Error(
          `${lock} is still there after ${LOCK_WAIT_MS / 60_000} minutes: remove it if no install is running`,
        );
      else await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    if (!isInstalled(name)) await install(name, dir, log);
    return dir;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

async function install(name: ClientName, dir: string, log: (line: string) => void): Promise<void> {
  const spec: ClientSpec = CLIENTS[name];
  // A half-finished earlier attempt starts over from nothing.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: `hamlet-client-${name}`, private: true, dependencies: spec.packages }, null, 2),
  );
  log(`[clients] installing ${spec.about} into ${dir}`);
  const started = Date.now();
  const args = [
    '--no-audit',
    '--no-fund',
    '--no-package-lock',
    '--loglevel=error',
    ...(spec.omitOptional ? ['--omit=optional'] : []),
  ];
  await npmInstall(dir, args, { label: `clients ${name}`, log });
  for (const [pkg, version] of Object.entries(spec.packages)) {
    const installed = JSON.parse(readFileSync(path.join(dir, 'node_modules', pkg, 'package.json'), 'utf8')) as {
      version: string;
    };
    if (installed.version !== version) throw new Error(`${pkg} installed as ${installed.version}, expected ${version}`);
  }
  writeFileSync(markerOf(dir), JSON.stringify(spec));
  log(`[clients] ${name} ready in ${Math.round((Date.now() - started) / 1000)} s (${packagesUnpacked(dir)} packages)`);
}

/** The path of a package's bin script, as its package.json names it. */
export function binOf(name: ClientName, pkg: string, bin: string): string {
  const dir = packageDir(name, pkg);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    bin: string | Record<string, string>;
  };
  const rel = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[bin];
  if (!rel) throw new Error(`${pkg} has no bin named ${bin}`);
  return path.join(dir, rel);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((n) => !(n in CLIENTS));
  if (unknown.length) {
    console.error(`unknown client ${unknown.join(', ')}; known: ${Object.keys(CLIENTS).join(', ')}`);
    process.exit(2);
  }
  for (const name of (wanted.length ? wanted : Object.keys(CLIENTS)) as ClientName[])
    console.log(await ensureClient(name));
}
