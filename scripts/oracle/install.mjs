// Installs n8n (the oracle) into a cache folder outside the repository.
// Never part of `npm test`: only `npm run oracle` calls it. The xlsx override is needed because
// n8n-nodes-base pins xlsx to a cdn.sheetjs.com tarball that is not reachable from here.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { npmInstall } from '../npm-install.mjs';

export const N8N_VERSION = '2.8.4';

export function cacheDir() {
  return process.env.HAMLET_ORACLE_DIR ?? join(homedir(), '.cache', 'hamlet-oracle', `n8n-${N8N_VERSION}`);
}

export function n8nBin(dir = cacheDir()) {
  return join(dir, 'node_modules', '.bin', 'n8n');
}

function installedVersion(dir) {
  const pkg = join(dir, 'node_modules', 'n8n', 'package.json');
  if (!existsSync(pkg)) return null;
  return JSON.parse(readFileSync(pkg, 'utf8')).version;
}

/** Installs n8n unless it is there; resolves to its folder. Progress lines go to stderr. */
export async function ensureInstalled(dir = cacheDir()) {
  if (installedVersion(dir) === N8N_VERSION && existsSync(n8nBin(dir))) return dir;
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify(
      { name: 'n8n-oracle', private: true, dependencies: { n8n: N8N_VERSION }, overrides: { xlsx: '0.18.5' } },
      null,
      2,
    ),
  );
  console.error(`[oracle] installing n8n ${N8N_VERSION} into ${dir} (about 8 minutes, 2.3 GB)…`);
  await npmInstall(dir, ['--no-audit', '--no-fund', '--loglevel=error'], { label: 'oracle' });
  if (installedVersion(dir) !== N8N_VERSION) throw new Error('n8n did not install where expected');
  return dir;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await ensureInstalled());
}
