// Every shell example of docs/home.md and of README.md's home section, run with bash exactly as
// written against a home started on its documented port (8123), with the storage the `hamlet`
// command uses. The only change is the one the text asks of the reader: the token line
// `T=hamlet_home_…` gets a real token. curl is wrapped only to fail the block on an HTTP status
// outside 2xx (the examples use -s, which hides it); any non-zero exit fails the test.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHome, type HomeTest } from './helpers.js';

const run = promisify(execFile);
const ROOT = process.cwd();
const PORT = 8123;

/** The ```sh blocks of a Markdown text. */
function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
}

/** README.md's home section: from its heading to the next heading of the same level. */
function readmeHomeSection(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('### Home (');
  expect(start).toBeGreaterThan(0);
  const end = readme.indexOf('\n### ', start + 1);
  return readme.slice(start, end);
}

const FAIL_ON_HTTP_ERROR = `
curl() {
  local out code
  out=$(command curl -w '\\n%{http_code}' "$@") || { echo "curl failed: curl $*" >&2; exit 1; }
  code=\${out##*$'\\n'}
  printf '%s\\n' "\${out%$'\\n'*}"
  if [ "$code" -lt 200 ] || [ "$code" -ge 300 ]; then echo "HTTP $code from: curl $*" >&2; exit 1; fi
}
set -e -o pipefail
`;

let h: HomeTest;
let cliEnv: Record<string, string>;

beforeAll(async () => {
  // `npx hamlet` runs the built CLI, which `npm ci` builds (prepare); build it if this checkout has not.
  if (!existsSync(path.join(ROOT, 'dist/cli.js'))) await run('npm', ['run', 'build'], { cwd: ROOT, timeout: 240_000 });
  h = await startHome({ env: { HOME_PORT: String(PORT) } });
  cliEnv = { HAMLET_DATA_DIR: h.t.dataDir, ...(h.t.config.databaseUrl ? { DATABASE_URL: h.t.config.databaseUrl } : {}), HAMLET_LOG_LEVEL: 'silent' };
}, 300_000);
afterAll(async () => {
  await h?.t.destroy();
});

async function runBlock(block: string): Promise<string> {
  try {
    const r = await run('bash', ['-c', FAIL_ON_HTTP_ERROR + block], { cwd: ROOT, env: { ...process.env, ...cliEnv }, timeout: 240_000 });
    return r.stdout;
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`the example failed:\n${block}\n--- stdout\n${err.stdout}\n--- stderr\n${err.stderr ?? err.message}`, { cause: e });
  }
}

describe('shell examples', () => {
  it('docs/home.md: every shell block, with the token the reader is told to set', async () => {
    const blocks = shellBlocks(readFileSync(path.join(ROOT, 'docs/home.md'), 'utf8'));
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      const withToken = block.replace(/^T=hamlet_home_…$/m, `T=${h.token}`);
      const out = await runBlock(withToken);
      expect(out.length).toBeGreaterThan(0);
    }
    // What the tour did is visible afterwards.
    expect((await h.api('GET', '/api/states/sensor.power')).body).toMatchObject({ state: '230' });
    expect((await h.api('GET', '/api/config/automation/config/hall_on')).body).toMatchObject({ alias: 'Hall on at dusk' });
  }, 300_000);

  it("README.md's home section: every shell block as written", async () => {
    const blocks = shellBlocks(readmeHomeSection());
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) await runBlock(block);
    expect((await h.api('GET', '/api/states/light.living_room')).body).toMatchObject({ state: 'on', attributes: { brightness: 180 } });
  }, 300_000);
});
