// The console's evaluation pages (/evals, issue 31): the runs `hamlet eval run` wrote under
// HAMLET_EVAL_RUNS, newest first; a run per task and per check; an episode with its checks,
// its changes as people read them, the row diff, its people's rule firings and its trace.
// The runs are made by the runner itself (two agents over one prepared run), so the pages are
// tested against the files the runner really writes. Then the hostile part: names that try to
// leave the folder, result files too large, malformed, of the wrong shape or not files at all,
// HTML wherever a run puts text, and the console's login.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { MAX_RESULT_BYTES } from '../../src/console/evals/files.js';
import { runAgentOver, withPreparedRun } from '../../src/eval/run.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

const EXAMPLES = path.resolve(import.meta.dirname, '../../examples/eval');
const HTML_AGENT = path.join(import.meta.dirname, 'fixtures', 'eval-html-agent.mjs');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'hamlet-evals-page-'));
const runs = path.join(tmp, 'runs');
const SECRET = 'outside-the-runs-folder-7f3a';
const CHECK_NAME = '<script>alert("name")</script> kitchen on';

let t: TestHamlet;
let auth: Record<string, string>;

beforeAll(async () => {
  // A second task: party-lights under another id, a check named with HTML, and Bob, a simulated
  // person who thanks Ada for her answer.
  const html = readFileSync(path.join(EXAMPLES, 'party-lights.yaml'), 'utf8')
    .replace('id: party-lights', 'id: html-task')
    .replace('name: the kitchen light is on at 180', `name: '${CHECK_NAME}'`)
    .replace(
      'checks:',
      'people:\n  - name: bob\n    rules:\n      - on: mail\n        match: { text: kitchen }\n        reply: "Thanks, see you! Bob"\n        times: 1\nchecks:',
    );
  writeFileSync(path.join(tmp, 'html-task.yaml'), html);
  const env = { MAIL_DOMAIN: 'mail.test', HAMLET_LOG_LEVEL: 'silent', PATH: process.env.PATH };
  await withPreparedRun(
    {
      tasks: [path.join(EXAMPLES, 'party-lights.yaml'), path.join(tmp, 'html-task.yaml')],
      parallel: 1,
      episodes: 2,
      out: path.join(tmp, 'prepared'),
      env,
      services: ['mail', 'home'],
    },
    async (run) => {
      await runAgentOver(run, { agent: `node ${HTML_AGENT}`, repeat: 1, out: path.join(runs, 'careless-run') });
      await runAgentOver(run, {
        agent: `node ${path.join(EXAMPLES, 'agents', 'reference.mjs')}`,
        repeat: 1,
        out: path.join(runs, 'reference-run'),
      });
    },
  );
  // Outside the folder: what no page may ever show.
  mkdirSync(path.join(tmp, 'outside', 'party-lights', '1'), { recursive: true });
  writeFileSync(path.join(tmp, 'outside', 'summary.json'), JSON.stringify({ agent: SECRET }));
  writeFileSync(path.join(tmp, 'outside', 'party-lights', '1', 'trace.jsonl'), SECRET);
  symlinkSync(path.join(tmp, 'outside'), path.join(runs, 'escape'));

  t = await startTestHamlet({ services: ['blog'], env: { HAMLET_CONSOLE: 'on', HAMLET_EVAL_RUNS: runs } });
  auth = { authorization: `Bearer ${(await t.hamlet.platform.keys.create('admin')).key}` };
}, 120_000);
afterAll(async () => {
  await t?.destroy();
  rmSync(tmp, { recursive: true, force: true });
});

const web = () => t.hamlet.console!.urls.web;
/** A GET with the path sent as written (fetch would resolve `..` and `%2e%2e` before sending). */
const page = (url: string, headers: Record<string, string> = auth) =>
  new Promise<{ status: number; text: string; type: string }>((resolve, reject) => {
    const req = http.request(web() + '/', { method: 'GET', path: url, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          text: Buffer.concat(chunks).toString('utf8'),
          type: String(res.headers['content-type'] ?? ''),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });

/** A copy of a run the runner wrote, to spoil one of its files. */
function copyRun(name: string): string {
  const dir = path.join(runs, name);
  cpSync(path.join(runs, 'careless-run'), dir, { recursive: true });
  return dir;
}

describe('HAMLET_EVAL_RUNS', () => {
  it('defaults to eval-runs in the working directory, where `hamlet eval run` writes by default', () => {
    expect(loadConfig({}).evals.runsDir).toBe(path.resolve('eval-runs'));
    expect(loadConfig({ HAMLET_EVAL_RUNS: 'elsewhere/runs' }).evals.runsDir).toBe(path.resolve('elsewhere/runs'));
  });
});

describe('/evals', () => {
  it('lists the runs in the folder, newest first, with their tasks, episodes and passes', async () => {
    const list = await page('/evals');
    expect(list.status).toBe(200);
    expect(list.text).toContain('<a href="/evals" aria-current="page">Evaluations</a>');
    const careless = list.text.indexOf('href="/evals/careless-run"');
    const reference = list.text.indexOf('href="/evals/reference-run"');
    expect(careless).toBeGreaterThan(0);
    expect(reference).toBeGreaterThan(0);
    expect(reference).toBeLessThan(careless); // written last, shown first
    const row = (name: string) => list.text.slice(list.text.indexOf(`href="/evals/${name}"`)).split('</tr>')[0];
    expect(row('reference-run')).toMatch(/<td>2<\/td><td>2<\/td><td[^>]*>2\/2<\/td>/);
    expect(row('careless-run')).toMatch(/<td>2<\/td><td>2<\/td><td[^>]*>0\/2<\/td>/);
    // The symlink out of the folder is not a run.
    expect(list.text).not.toContain('escape');
    expect(list.text).not.toContain(SECRET);
  });

  it('shows a run per task and per check, with each failing check’s message and each episode’s timings', async () => {
    const run = await page('/evals/careless-run');
    expect(run.status).toBe(200);
    expect(run.text).toContain('<h2 id="task-party-lights">party-lights</h2>');
    expect(run.text).toContain('Bob got an answer');
    expect(run.text).toContain('0 message(s) to bob@mail.test');
    // The collateral rule names the change, with its HTML escaped.
    expect(run.text).toContain('1 change(s) not allowed: home: light.hall:');
    expect(run.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(run.text).toContain('&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt; kitchen on');
    expect(run.text).not.toMatch(/<img src=x|<script>alert/);
    expect(run.text).toContain('href="/evals/careless-run/party-lights/1"');
    expect(run.text).toMatch(/Reset<\/th>/);
    const reference = await page('/evals/reference-run');
    expect(reference.text).toMatch(/the kitchen light is on at 180<\/td><td>home<\/td><td[^>]*>1\/1<\/td>/);
  });

  it('shows an episode: checks, changes as people read them, the row diff, people, errors and the trace', async () => {
    const ep = await page('/evals/careless-run/party-lights/1');
    expect(ep.status).toBe(200);
    expect(ep.text).toContain('light.kitchen: state off → on; attribute brightness 0 → 180');
    expect(ep.text).toContain('light.hall');
    expect(ep.text).toContain('home_states'); // the row diff's table
    expect(ep.text).toMatch(/class="bad"[^>]*>failed/);
    expect(ep.text).toContain('href="/evals/careless-run/party-lights/1/trace.jsonl"');
    expect(ep.text).not.toMatch(/<img src=x|<script>alert/);

    const people = await page('/evals/reference-run/html-task/1');
    // Bob's one rule fired once; his reply is in the episode's row diff.
    expect(people.text).toContain('<tr><td>bob</td><td>1</td><td>1</td></tr>');
    expect(people.text).toContain('Thanks, see you! Bob');
    expect(people.text).toContain('<details><summary>Rows added'); // closed: the episode passed
    expect(ep.text).toContain('<details open><summary>Rows added'); // open: it failed

    const trace = await page('/evals/reference-run/party-lights/1/trace.jsonl');
    expect(trace.status).toBe(200);
    expect(trace.type).toMatch(/^text\/plain/);
    expect(
      trace.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).route),
    ).toContain('/api/states/:entity_id');
  });

  it('answers 404 for names that try to leave the folder, and never shows a file outside it', async () => {
    for (const url of [
      '/evals/..',
      '/evals/%2e%2e',
      '/evals/..%2f..%2fetc',
      '/evals/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
      '/evals/escape',
      '/evals/escape/party-lights/1',
      '/evals/escape/party-lights/1/trace.jsonl',
      '/evals/careless-run/..',
      '/evals/careless-run/%2e%2e/1',
      '/evals/careless-run/..%2f..%2f..%2foutside/1',
      '/evals/careless-run/party-lights/..',
      '/evals/careless-run/party-lights/1%2f..',
      '/evals/careless-run/party-lights/0',
      '/evals/careless-run/party-lights/1/..%2f..%2f..%2fsummary.json',
      '/evals/careless-run/party-lights/1/end.jsonl.gz',
      '/evals/careless-run/nope/1',
      '/evals/nope',
    ]) {
      const res = await page(url);
      expect(res.status, url).toBe(404);
      expect(res.text, url).not.toContain(SECRET);
    }
  });

  it('refuses a NUL in a name with the platform’s 400, before any page reads a file', async () => {
    for (const url of [
      '/evals/a%00b',
      '/evals/careless-run/party-lights%00/1',
      '/evals/careless-run/party-lights/1/trace.jsonl%00',
    ]) {
      const res = await page(url);
      expect(res.status, url).toBe(400);
      expect(res.text, url).toContain('NUL characters');
    }
  });

  it('reports a result file too large, malformed, of the wrong shape or not a file, on its own page', async () => {
    const dir = copyRun('spoiled-run');
    const episode = path.join(dir, 'party-lights', '1', 'result.json');
    const cases: Array<[string, () => void, RegExp]> = [
      [
        'too large',
        () => writeFileSync(episode, ' '.repeat(MAX_RESULT_BYTES + 1)),
        /more than the [\d,]+ bytes the console reads/,
      ],
      ['not JSON', () => writeFileSync(episode, '{"task": "party-lights", '), /is not JSON/],
      ['deeply nested', () => writeFileSync(episode, '['.repeat(1_000_000)), /is not JSON/],
      [
        'wrong shape',
        () => {
          const real = JSON.parse(
            readFileSync(path.join(runs, 'careless-run', 'party-lights', '1', 'result.json'), 'utf8'),
          );
          writeFileSync(episode, JSON.stringify({ ...real, checks: [{ name: 5 }] }));
        },
        /checks\[0\]\.name/,
      ],
      [
        'a pipe',
        () => {
          rmSync(episode, { force: true });
          execFileSync('mkfifo', [episode]);
        },
        /not a file/,
      ],
    ];
    for (const [what, spoil, message] of cases) {
      spoil();
      const started = performance.now();
      const ep = await page('/evals/spoiled-run/party-lights/1');
      expect(ep.status, what).toBe(422);
      expect(ep.text, what).toMatch(/role="alert"/);
      expect(ep.text, what).toMatch(message);
      expect(performance.now() - started, what).toBeLessThan(2000);
      // The run's page still shows, naming the episode it could not read.
      const run = await page('/evals/spoiled-run');
      expect(run.status, what).toBe(200);
      expect(run.text, what).toMatch(message);
      rmSync(episode, { force: true });
    }
  });

  it('escapes a summary whose task names hold HTML, and reports a summary it cannot read', async () => {
    const dir = copyRun('tampered-run');
    const summary = JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8'));
    summary.tasks[0].id = '<b onmouseover=alert(2)>task</b>';
    summary.agent = '<i>agent</i>';
    writeFileSync(path.join(dir, 'summary.json'), JSON.stringify(summary));
    for (const url of ['/evals', '/evals/tampered-run']) {
      const res = await page(url);
      expect(res.status, url).toBe(200);
      expect(res.text, url).not.toMatch(/<b onmouseover|<i>agent/);
    }
    expect((await page('/evals/tampered-run')).text).toContain('&lt;b onmouseover=alert(2)&gt;task&lt;/b&gt;');

    writeFileSync(path.join(dir, 'summary.json'), 'not json');
    const list = await page('/evals');
    expect(list.status).toBe(200);
    expect(list.text.slice(list.text.indexOf('href="/evals/tampered-run"')).split('</tr>')[0]).toMatch(/is not JSON/);
    const run = await page('/evals/tampered-run');
    expect(run.status).toBe(422);
    expect(run.text).toMatch(/role="alert"[^>]*>[^<]*summary\.json is not JSON/);
  });

  it('shows an episode’s errors, escaped, and its first 1000 changes, saying how many more result.json holds', async () => {
    const dir = copyRun('many-changes-run');
    const file = path.join(dir, 'party-lights', '1', 'result.json');
    const real = JSON.parse(readFileSync(file, 'utf8'));
    const changes = Array.from({ length: 1500 }, (_, i) => ({ ...real.changes[0], text: `change number ${i}` }));
    const errors = ['event at +10s: <b>the home answered 500</b>'];
    writeFileSync(file, JSON.stringify({ ...real, changes, errors }));
    const ep = await page('/evals/many-changes-run/party-lights/1');
    expect(ep.status).toBe(200);
    expect(ep.text).toContain('change number 999<');
    expect(ep.text).not.toContain('change number 1000<');
    expect(ep.text).toContain('500 more in <a href="/evals/many-changes-run/party-lights/1/result.json">');
    expect(ep.text).toMatch(
      /<h2 id="errors">Errors<\/h2><ul class="error" role="alert"><li>event at \+10s: &lt;b&gt;the home answered 500&lt;\/b&gt;<\/li>/,
    );
  });

  it('lists a run still going (no summary yet) as such, and a file among the runs is no run', async () => {
    mkdirSync(path.join(runs, 'running-run', 'party-lights', '1'), { recursive: true });
    writeFileSync(path.join(runs, 'notes.txt'), 'not a run');
    const list = await page('/evals');
    expect(list.text.slice(list.text.indexOf('href="/evals/running-run"')).split('</tr>')[0]).toContain(
      'no summary.json yet',
    );
    expect(list.text).not.toContain('notes.txt');
    const run = await page('/evals/running-run');
    expect(run.status).toBe(200);
    expect(run.text).toContain('has no summary.json yet');
    expect((await page('/evals/running-run/party-lights/1')).status).toBe(404); // no result.json yet
    expect((await page('/evals/notes.txt')).status).toBe(404);
    expect((await page('/evals/notes.txt/party-lights/1')).status).toBe(404);
  });

  it('requires the console login, like every other page', async () => {
    for (const url of ['/evals', '/evals/careless-run', '/evals/careless-run/party-lights/1']) {
      const browser = await page(url, { accept: 'text/html' });
      expect(browser.status, url).toBe(302);
      const program = await page(url, {});
      expect(program.status, url).toBe(401);
    }
    const trace = await page('/evals/careless-run/party-lights/1/trace.jsonl', {});
    expect(trace.status).toBe(401);
    expect(trace.text).not.toContain('"route"');
  });
});
