// `npm run test:pack`: Hamlet installed as a tool works. Packs the repository (`npm pack`, which
// builds dist/ through `prepare`), checks what the package holds (the build and the files it
// reads at run time; no sources, tests or source maps), installs it the way a user would
// (`npm install -g` of the .tgz into a temporary prefix, without devDependencies), then runs
// `hamlet start` from there, outside the clone, on free ports and a temporary data folder, and
// waits until every service answers its /healthz (the SMTP ports their 220 greeting) and a key
// minted by the installed CLI opens an API; then stops it with Ctrl-C and expects a clean exit.
// Slow (a production install from the registry, a native module that may compile): not part of
// `npm test`. HAMLET_PACK_KEEP=1 leaves the temporary folder for a look.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmInstall } from './npm-install.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const START_TIMEOUT_MS = 180_000;
/** The ports `hamlet start` opens: HTTP ones answer /healthz, SMTP ones greet. */
const PORTS = [
  { env: 'BLOG_PORT', name: 'blog', http: true },
  { env: 'MAIL_PORT', name: 'mail', http: true },
  { env: 'SMTP_PORT', name: 'mail smtp', http: false },
  { env: 'MAIL_SUBMISSION_PORT', name: 'mail submission', http: false },
  { env: 'COMMUNITY_PORT', name: 'community', http: true },
  { env: 'HOME_PORT', name: 'home', http: true },
  { env: 'WORKFLOW_PORT', name: 'workflow', http: true },
  { env: 'HAMLET_CONSOLE_PORT', name: 'console', http: true },
];
/** Files the running server reads besides its JavaScript: each must be in the package. */
const MUST_HOLD = [
  'dist/cli.js',
  'dist/services/home/demo-house.yaml',
  'dist/console/static/console.css',
  'dist/services/workflow/expressions/guest/prelude.js',
  'package.json',
  'README.md',
];
/** What a user's install must not carry. */
const MUST_NOT_HOLD = [
  /^src\//,
  /^test\//,
  /^bench\//,
  /^scripts\//,
  /\.map$/,
  /^node_modules\//,
  /^data\//,
  /tsx-entry\.mjs$/,
];

const started = Date.now();
const say = (line) => console.error(`[pack-test] ${Math.round((Date.now() - started) / 1000)} s: ${line}`);
const fail = (why) => {
  throw new Error(why);
};

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function pack(dest) {
  say('npm pack (builds dist/ first)');
  const res = spawnSync('npm', ['pack', '--json', '--pack-destination', dest], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 << 20,
  });
  if (res.status !== 0) fail(`npm pack exited ${res.status}`);
  // npm prints the build's own output before the JSON on stdout: the JSON is the last array.
  const [info] = JSON.parse(res.stdout.slice(res.stdout.lastIndexOf('\n[') + 1));
  const files = info.files.map((f) => f.path);
  const missing = MUST_HOLD.filter((f) => !files.includes(f));
  const extra = files.filter((f) => MUST_NOT_HOLD.some((re) => re.test(f)));
  if (missing.length) fail(`the package lacks ${missing.join(', ')}`);
  if (extra.length)
    fail(
      `the package holds what a user does not need: ${extra.slice(0, 10).join(', ')}${extra.length > 10 ? ', …' : ''}`,
    );
  say(
    `${info.filename}: ${files.length} files, ${(info.size / 1e6).toFixed(1)} MB packed, ${(info.unpackedSize / 1e6).toFixed(1)} MB unpacked`,
  );
  return path.join(dest, info.filename);
}

async function until(what, check) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) fail(`${what}: no answer within ${START_TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const healthy = async (port) => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;

/** An SMTP port is up when it sends its 220 greeting. */
const greets = (port) =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(5000, () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(false));
    socket.once('data', (d) => (socket.end('QUIT\r\n'), resolve(d.toString().startsWith('220'))));
  });

async function main() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'hamlet-pack-'));
  let server;
  try {
    const tgz = pack(work);
    const prefix = path.join(work, 'prefix');
    say(`npm install -g --omit=dev into ${prefix}`);
    await npmInstall(
      work,
      ['-g', '--prefix', prefix, '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error', tgz],
      { label: 'pack-test', count: path.join(prefix, 'lib', 'node_modules', 'hamlet') },
    );
    const bin = path.join(prefix, 'bin', 'hamlet');
    const ports = Object.fromEntries(await Promise.all(PORTS.map(async (p) => [p.env, String(await freePort())])));
    // Outside the clone: nothing of the repository (its node_modules above all) is reachable.
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HAMLET_DATA_DIR: path.join(work, 'data'),
      HAMLET_LOG_LEVEL: 'warn',
      ...ports,
    };
    const version = spawnSync(bin, ['--version'], { cwd: work, env, encoding: 'utf8' });
    if (version.status !== 0) fail(`hamlet --version exited ${version.status}: ${version.stderr}`);
    say(`hamlet --version: ${version.stdout.trim()}`);
    say('hamlet start');
    server = spawn(bin, ['start'], { cwd: work, env, stdio: ['ignore', 'inherit', 'inherit'] });
    const exited = new Promise((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));
    await Promise.race([
      Promise.all(
        PORTS.map((p) =>
          until(p.name, () => (p.http ? healthy(ports[p.env]) : greets(ports[p.env]))).then(() =>
            say(`${p.name} answers on ${ports[p.env]}`),
          ),
        ),
      ),
      exited.then(({ code, signal }) => fail(`hamlet start exited early (${code ?? signal})`)),
    ]);
    const key = spawnSync(bin, ['keys', 'create', 'home'], { cwd: work, env, encoding: 'utf8' });
    if (key.status !== 0) fail(`hamlet keys create home exited ${key.status}: ${key.stderr}`);
    const states = await fetch(`http://127.0.0.1:${ports.HOME_PORT}/api/states`, {
      headers: { authorization: `Bearer ${key.stdout.trim()}` },
    });
    const entities = states.ok ? (await states.json()).length : 0;
    if (!entities) fail(`GET /api/states with the new key: ${states.status}, no entities`);
    say(`a key from the installed CLI reads the home's ${entities} entities`);
    server.kill('SIGINT');
    const { code, signal } = await exited;
    server = undefined;
    if (code !== 0) fail(`hamlet start stopped with ${code ?? signal} after Ctrl-C`);
    say('stopped cleanly: the packed install works');
  } finally {
    server?.kill('SIGKILL');
    if (process.env.HAMLET_PACK_KEEP) say(`left in ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  say(`FAILED: ${err.message}`);
  process.exitCode = 1;
});
