// The README and docs/*.md are tested as a newcomer would use them: every fenced shell block
// (```sh, ```bash, ```shell) of one file runs, in order, in one bash session, against a fresh
// Hamlet with every service (each file is read on its own, as a newcomer would); any command that
// exits non-zero, and any curl answer that is not 2xx, fails the file's test with the line that failed.
//
// What the harness changes, and only this:
// - the default ports in the text (localhost:4000, 127.0.0.1:8123, the console's 4900, …) become the ports the test
//   instance got (every test instance listens on free ports);
// - `npx hamlet …` runs the CLI from the sources on the test's storage (what `npx hamlet` does
//   in a clone, without depending on a built dist/);
// - curl gets -sS (no progress meter), --fail-with-body (a 4xx/5xx answer is a failed command)
//   and a timeout;
// - lines that set up or start Hamlet itself (`npm ci`, `npm start`, `npm test`, `npm run …`)
//   are the harness's own job and are skipped, and so are runs of n8n's own node tests
//   (scripts/n8n-node-tests: they install and drive real n8n, like `npm run oracle`, for minutes);
// - `swaks`, when the machine does not have it, is a small SMTP client with the same options
//   (test/docs/swaks.ts).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SERVICE_NAMES } from '../../src/services/registry.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOCS = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const DEFAULT_PORTS: Record<string, { service: (typeof SERVICE_NAMES)[number]; label: string }> = {
  '4000': { service: 'blog', label: 'api' },
  '4100': { service: 'mail', label: 'api' },
  '2525': { service: 'mail', label: 'smtp' },
  '2587': { service: 'mail', label: 'submission' },
  '4200': { service: 'community', label: 'api' },
  '8123': { service: 'home', label: 'api' },
  '5678': { service: 'workflow', label: 'api' },
};
const HARNESS_LINE = /^\s*(npm (ci|start|test|run)\b|node --import tsx scripts\/n8n-node-tests\/)/;

/** The fenced shell blocks of a markdown file, with the line each starts on. */
function shellBlocks(markdown: string): Array<{ line: number; text: string }> {
  const blocks: Array<{ line: number; text: string }> = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash|shell)\s*$/.test(lines[i]!)) continue;
    const start = i + 1;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    blocks.push({ line: start + 1, text: body.join('\n') });
  }
  return blocks;
}

let t: TestHamlet | undefined;
const work = mkdtempSync(path.join(os.tmpdir(), 'hamlet-docs-'));

beforeEach(async () => {
  t = await startTestHamlet({ services: [...SERVICE_NAMES], env: { HAMLET_CONSOLE: 'on' } });
}, 60_000);

afterEach(async () => {
  await t?.destroy();
  t = undefined;
});

function portOf(service: (typeof SERVICE_NAMES)[number], label: string): string {
  return new URL(t!.url(service, label)).port;
}

/** The bash script for one file: the harness's prelude, then every block, each line numbered back to the markdown. */
function script(file: string): string {
  const blocks = shellBlocks(readFileSync(path.join(ROOT, file), 'utf8'));
  const ports = [...Object.entries(DEFAULT_PORTS).map(([port, { service, label }]) => [port, portOf(service, label)] as const), ['4900', new URL(t!.hamlet.console!.urls.web!).port] as const];
  const body = blocks
    .map(({ line, text }) => {
      let shell = text
        .split('\n')
        .map((l) => (HARNESS_LINE.test(l) ? `: skipped by the harness: ${JSON.stringify(l)}` : l))
        .join('\n');
      for (const [from, to] of ports) shell = shell.replace(new RegExp(`(localhost|127\\.0\\.0\\.1):${from}\\b`, 'g'), `$1:${to}`);
      return `__block=${line}\n${shell}`;
    })
    .join('\n');
  return `set -Eeuo pipefail
__block=0
trap 'echo "FAILED (${file}, block at line $__block): $BASH_COMMAND" >&2' ERR
trap 'rc=$?; [ $rc -eq 0 ] || echo "exit $rc in ${file}, the block at line $__block" >&2' EXIT
curl() { command curl -sS --fail-with-body --max-time 20 "$@"; }
npx() { if [ "$1" = hamlet ]; then shift; node --import tsx "${ROOT}/src/cli.ts" "$@"; else command npx "$@"; fi; }
command -v swaks >/dev/null || swaks() { node --import tsx "${ROOT}/test/docs/swaks.ts" "$@"; }
${body}
`;
}

function run(file: string): Promise<{ code: number | null; out: string }> {
  const scriptFile = path.join(work, file.replace(/\W/g, '_') + '.sh');
  writeFileSync(scriptFile, script(file));
  const env = { ...process.env, HAMLET_DATA_DIR: t!.dataDir, HAMLET_LOG_LEVEL: 'warn', ...(t!.config.databaseUrl ? { DATABASE_URL: t!.config.databaseUrl } : {}) };
  return new Promise((resolve) => {
    const child = spawn('bash', [scriptFile], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => resolve({ code, out }));
  });
}

it.each(DOCS.filter((f) => shellBlocks(readFileSync(path.join(ROOT, f), 'utf8')).length > 0))('%s: every shell block runs as written', async (file) => {
  const { code, out } = await run(file);
  expect(code, out.slice(-4000)).toBe(0);
}, 180_000);
