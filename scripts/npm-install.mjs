// `npm install` in a cache folder with a progress line on stderr every few seconds (how long it
// has taken, how many packages are unpacked so far), so a heavy on-demand install (the n8n
// oracle, the conformance clients) is never minutes of silence. Used by scripts/oracle and
// scripts/clients; plain JavaScript so `npm run oracle` needs no TypeScript loader.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The packages under dir/node_modules (a scope's packages one by one). */
export function packagesUnpacked(dir) {
  const nm = join(dir, 'node_modules');
  if (!existsSync(nm)) return 0;
  let n = 0;
  for (const e of readdirSync(nm)) n += e.startsWith('@') ? readdirSync(join(nm, e)).length : e.startsWith('.') ? 0 : 1;
  return n;
}

/**
 * Runs `npm install <args>` in `dir`; npm's own output is inherited. Resolves when npm exits 0,
 * rejects with its status otherwise. `label` names the install in the progress lines; `count` is
 * the folder whose node_modules grows (dir itself, unless it installs elsewhere: -g --prefix).
 */
export async function npmInstall(
  dir,
  args,
  { label, count = dir, log = (line) => console.error(line), everyMs = 10_000 },
) {
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  const timer = setInterval(() => {
    const n = packagesUnpacked(count);
    log(`[${label}] ${seconds()} s, ${n ? `${n} packages unpacked so far` : 'resolving the dependency tree'}`);
  }, everyMs);
  try {
    const code = await new Promise((resolve, reject) => {
      const child = spawn('npm', ['install', ...args], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
      child.once('error', reject);
      child.once('exit', resolve);
    });
    if (code !== 0) throw new Error(`npm install (${label}) failed with status ${code}`);
  } finally {
    clearInterval(timer);
  }
  log(`[${label}] done in ${seconds()} s (${packagesUnpacked(count)} packages)`);
}
