// The docs' shell examples as one bash script, for the docs tests: the fenced shell blocks of
// markdown files, the order a reader meets the docs in (the README, then each doc as the README
// first links it), and the script that runs them against a test instance.
//
// What the harness changes, and only this:
// - the default ports in the text (localhost:4000, 127.0.0.1:8123, the console's 4900, …) become
//   the ports the test instance got (every test instance listens on free ports);
// - `npx hamlet …` runs the CLI from the sources on the test's storage (what `npx hamlet` does in
//   a clone, without depending on a built dist/);
// - curl gets -sS (no progress meter), --fail-with-body (a 4xx/5xx answer is a failed command)
//   and a timeout (a minute: a loaded machine answers slowly, never wrongly);
// - lines that set up or start Hamlet itself (`npm ci`, `npm start`, `npm test`, `npm run …`)
//   are the harness's own job and are skipped, and so are runs of n8n's own node tests
//   (scripts/n8n-node-tests: they install and drive real n8n, like `npm run oracle`, for minutes).
// Nothing else is provided: a tool the machine lacks fails the script, as it would the reader.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_SHELL } from '../helpers/cli.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const HARNESS_LINE = /^\s*(npm (ci|start|test|run)\b|node --import tsx scripts\/n8n-node-tests\/)/;

export interface ShellBlock {
  file: string;
  /** The markdown line the block's first command is on. */
  line: number;
  text: string;
}

/** The fenced shell blocks (```sh, ```bash, ```shell) of a markdown file of the repository. */
export function shellBlocks(file: string): ShellBlock[] {
  const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash|shell)\s*$/.test(lines[i])) continue;
    const start = i + 1;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    blocks.push({ file, line: start + 1, text: body.join('\n') });
  }
  return blocks;
}

/** README.md and every docs/*.md, the README first. */
export function allDocs(): string[] {
  return ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
}

/**
 * The order a reader meets the docs in: README.md, then each doc in the order the README first
 * links it; docs the README never links come last, by name, so none is left out.
 */
export function readingOrder(): string[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const linked = [...readme.matchAll(/\]\((?:\.\/)?(docs\/[\w-]+\.md)(?:#[^)]*)?\)/g)].map((m) => m[1]);
  const order = ['README.md', ...new Set(linked)];
  return [...order, ...allDocs().filter((f) => !order.includes(f))];
}

/** Maps a default port of the docs (e.g. '4000') to the port the test instance listens on. */
export type PortMap = ReadonlyArray<readonly [string, string]>;

/** The bash script running `blocks` in order in one session; a failure names its file and line. */
export function bashScript(blocks: ShellBlock[], ports: PortMap): string {
  const body = blocks
    .map(({ file, line, text }) => {
      let shell = text
        .split('\n')
        .map((l) => (HARNESS_LINE.test(l) ? `: skipped by the harness: ${JSON.stringify(l)}` : l))
        .join('\n');
      for (const [from, to] of ports) shell = shell.replace(new RegExp(`(localhost|127\\.0\\.0\\.1):${from}\\b`, 'g'), `$1:${to}`);
      return `__where=${JSON.stringify(`${file}, the block at line ${line}`)}\n${shell}`;
    })
    .join('\n');
  return `set -Eeuo pipefail
__where=prelude
trap 'echo "FAILED ($__where): $BASH_COMMAND" >&2' ERR
trap 'rc=$?; [ $rc -eq 0 ] || echo "exit $rc in $__where" >&2' EXIT
curl() { command curl -sS --fail-with-body --max-time 60 "$@"; }
npx() { if [ "$1" = hamlet ]; then shift; ${CLI_SHELL} "$@"; else command npx "$@"; fi; }
${body}
`;
}

/** Runs a script with bash in the repository's folder; stdout and stderr together. */
export function runBash(scriptFile: string, script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  writeFileSync(scriptFile, script);
  return new Promise((resolve) => {
    const child = spawn('bash', [scriptFile], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => resolve({ code, out }));
  });
}
