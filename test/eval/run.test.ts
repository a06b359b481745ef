// Evaluations end to end (docs/evaluations.md): a task run against three scripted agents, the
// reference one that passes, one that does nothing and fails, a careless one that does the
// task and more and trips the collateral rule; two episodes at once, each in its own world and
// trace; task files that are wrong refused with the field named.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { diffFiles } from '../../src/console/world/diff.js';
import { WORLD_DEFAULTS } from '../../src/console/world/settings.js';
import { loadTasks, runEvaluation } from '../../src/eval/run.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const EXAMPLES = path.resolve(import.meta.dirname, '../../examples/eval');
const AGENTS = path.join(EXAMPLES, 'agents');
const SERVICES = ['mail', 'home', 'workflow', 'blog', 'community'];
const tmp = mkdtempSync(path.join(os.tmpdir(), 'hamlet-eval-test-'));
afterAll(() => {
  if (!process.env.KEEP_EVAL_OUTPUT) rmSync(tmp, { recursive: true, force: true });
});

const env = { MAIL_DOMAIN: 'mail.test', HAMLET_LOG_LEVEL: 'silent', PATH: process.env.PATH };

function run(agent: string, out: string, extra: { task?: string; parallel?: number; repeat?: number } = {}) {
  return runEvaluation({
    tasks: [extra.task ? path.join(FIXTURES, extra.task) : path.join(EXAMPLES, 'party-lights.yaml')],
    agent,
    parallel: extra.parallel ?? 1,
    repeat: extra.repeat ?? 1,
    out: path.join(tmp, out),
    env,
    services: SERVICES,
  });
}

describe('hamlet eval run', () => {
  it('passes the reference agent, with the semantic diff, the episode trace and a report', async () => {
    const { summary, results } = await run(`node ${AGENTS}/reference.mjs`, 'reference');
    const [r] = results;
    expect(r.checks.map((c) => [c.name, c.pass, c.message])).toEqual([
      ['the kitchen light is on at 180', true, 'light.kitchen is on'],
      ['Bob got an answer', true, expect.stringContaining('1 message(s) to bob@mail.test, from ada@mail.test')],
      ['nothing else changed', true, expect.stringContaining('all allowed')],
    ]);
    expect(r.passed).toBe(true);
    expect(r.score).toBe(1);
    const texts = r.changes.map((c) => `${c.service} ${c.kind} ${c.text}`);
    expect(texts).toContain('home entity.changed light.kitchen: state off → on; attribute brightness 0 → 180');
    expect(texts).toContain(
      'mail message.sent message sent "Re: Party tonight" from ada <ada@mail.test> to bob <bob@mail.test>',
    );
    // The episode's row diff (made in memory) is the console's diff of its start and end snapshot files.
    const files = await diffFiles({
      from: path.join(tmp, 'reference', 'party-lights', 'start.jsonl.gz'),
      to: path.join(r.dir, 'end.jsonl.gz'),
      limit: 10_000,
      pageBytes: 1 << 26,
      limits: WORLD_DEFAULTS,
    });
    const nonEmpty = (x: Record<string, { added: unknown[]; changed: unknown[]; removed: unknown[] }>) =>
      Object.fromEntries(Object.entries(x).filter(([, c]) => c.added.length + c.changed.length + c.removed.length));
    expect(nonEmpty(JSON.parse(readFileSync(path.join(r.dir, 'diff.json'), 'utf8')).rows)).toEqual(
      nonEmpty(files.services),
    );
    // The episode's own trace: the agent's calls, in order, numbered, and nothing from seeding the world.
    const trace = readFileSync(path.join(r.dir, 'trace.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { epoch: number; seq: number; route: string | null; kind: string });
    expect(trace.every((e) => e.epoch === r.epoch)).toBe(true);
    expect(trace.map((e) => e.seq)).toEqual([...trace.map((e) => e.seq)].sort((a, b) => a - b));
    const routes = trace.filter((e) => e.kind === 'http').map((e) => e.route);
    expect(routes).toEqual([
      '/v0/inboxes/:inbox_id/messages',
      '/api/states/:entity_id',
      '/v0/inboxes/:inbox_id/messages/:message_id/reply',
    ]);
    expect(JSON.parse(readFileSync(path.join(tmp, 'reference', 'summary.json'), 'utf8')).totals).toEqual({
      episodes: 1,
      passed: 1,
      meanScore: 1,
    });
    expect(readFileSync(path.join(tmp, 'reference', 'report.html'), 'utf8')).toContain('<b>1/1</b> episodes passed');
    expect(summary.tasks[0].checks.every((c) => c.passed === 1)).toBe(true);
  }, 120_000);

  it('fails an agent that does nothing, and says what each check found', async () => {
    const { results } = await run('node -e 0', 'nothing');
    const [r] = results;
    expect(r.passed).toBe(false);
    expect(r.checks.map((c) => c.pass)).toEqual([false, false, true]);
    expect(r.checks[0].message).toBe('light.kitchen: state is "off", expected "on"; brightness is 0, expected 180');
    expect(r.changes).toEqual([]);
    expect(readFileSync(path.join(tmp, 'nothing', 'report.html'), 'utf8')).toContain('Bob got an answer');
  }, 120_000);

  it('trips the collateral rule on a careless agent, naming the change', async () => {
    const { results } = await run(`node ${AGENTS}/reference.mjs careless`, 'careless');
    const [r] = results;
    expect(r.checks.map((c) => c.pass)).toEqual([true, true, false]);
    expect(r.checks[2].message).toBe(
      '1 change(s) not allowed: home: light.hall: state off → on; attribute brightness 0 → 255',
    );
    expect(readFileSync(path.join(tmp, 'careless', 'report.html'), 'utf8')).toContain('light.hall: state off → on');
  }, 120_000);

  it('stops an agent at the time limit', async () => {
    const dir = mkdtempSync(path.join(tmp, 'slow-'));
    const task = readFileSync(path.join(EXAMPLES, 'party-lights.yaml'), 'utf8')
      .replace('time_limit: 60', 'time_limit: 1s')
      .replace('id: party-lights', 'id: slow');
    writeFileSync(path.join(dir, 'slow.yaml'), task);
    const { results } = await runEvaluation({
      tasks: [path.join(dir, 'slow.yaml')],
      agent: 'node -e "setInterval(() => {}, 1000)"',
      parallel: 1,
      repeat: 1,
      out: path.join(dir, 'out'),
      env,
      services: SERVICES,
    });
    expect(results[0].agent.timedOut).toBe(true);
    expect(results[0].passed).toBe(false);
  }, 120_000);

  it('runs 8 episodes in parallel, each in its own world and trace', async () => {
    const barrier = mkdtempSync(path.join(tmp, 'barrier-'));
    const n = 8;
    // The agents inherit the runner's environment.
    process.env.MARK_BARRIER = barrier;
    process.env.MARK_BARRIER_COUNT = String(n);
    const { results } = await run(`node ${FIXTURES}/mark.mjs`, 'parallel', {
      task: 'marks.yaml',
      parallel: n,
      repeat: n,
    }).finally(() => {
      delete process.env.MARK_BARRIER;
      delete process.env.MARK_BARRIER_COUNT;
    });
    expect(results).toHaveLength(n);
    // All the agents were running at once (each waited for every other's mark), on n instances.
    expect(readdirSync(barrier)).toHaveLength(n);
    expect(new Set(results.map((r) => r.instance)).size).toBe(n);
    const marks = results.map((r) => readFileSync(path.join(r.dir, 'agent.stdout'), 'utf8').trim());
    expect(new Set(marks).size).toBe(n);
    for (const [i, r] of results.entries()) {
      const mine = marks[i];
      expect(r.passed).toBe(true);
      expect(r.changes.map((c) => c.subject)).toEqual([mine]);
      const diff = readFileSync(path.join(r.dir, 'diff.json'), 'utf8');
      const trace = readFileSync(path.join(r.dir, 'trace.jsonl'), 'utf8');
      const end = gunzipSync(readFileSync(path.join(r.dir, 'end.jsonl.gz'))).toString();
      expect(diff).toContain(mine);
      expect(trace).toContain(mine);
      expect(end).toContain(mine);
      // No other episode's write is in this one's world (its end state), diff or trace.
      for (const other of marks.filter((m) => m !== mine)) {
        expect(diff).not.toContain(other);
        expect(trace).not.toContain(other);
        expect(end).not.toContain(other);
      }
    }
  }, 180_000);
});

describe('task files', () => {
  const write = (name: string, text: string) => {
    const file = path.join(tmp, name);
    writeFileSync(file, text);
    return file;
  };
  const good = readFileSync(path.join(EXAMPLES, 'party-lights.yaml'), 'utf8');

  it('reads the fixtures', () => {
    expect(
      loadTasks([path.join(EXAMPLES, 'party-lights.yaml'), path.join(FIXTURES, 'marks.yaml')]).map((t) => t.id),
    ).toEqual(['party-lights', 'marks']);
  });

  it('names the field that is wrong, for every bad file at once', () => {
    const bad = [
      write(
        'a.yaml',
        good.replace('home: { entity_id: light.kitchen, state: "on"', 'home: { entity_id: 7, state: "on"'),
      ),
      write('b.yaml', good.replace('time_limit: 60', 'time_limit: soon')),
      write('c.yaml', good.replace('agent:\n  name: ada', 'agent:\n  nmae: ada')),
      write(
        'd.yaml',
        good.replace('  - name: nothing else changed\n', '  - name: nothing else changed\n    script: x.mjs\n'),
      ),
      write('e.yaml', 'world: [\n'),
    ];
    let message = '';
    try {
      loadTasks(bad);
    } catch (err) {
      message = (err as Error).message;
    }
    const lines = message.split('\n');
    expect(lines[0]).toBe(`${bad[0]}: checks[0].home.entity_id: must be string`);
    expect(lines[1]).toBe(`${bad[1]}: time_limit: a duration: seconds, or 90s, 10m, 2h, 1d`);
    expect(lines[2]).toMatch(new RegExp(`^${bad[2]}: agent\\.(name: required|nmae: not a field of agent)$`));
    expect(lines[3]).toBe(
      `${bad[3]}: checks[2]: one of mail, home, blog, community, workflow, change, collateral, script (and a name), not collateral and script together`,
    );
    expect(lines[4]).toMatch(new RegExp(`^${bad[4]}: not YAML at line \\d+, column \\d+`));
  });
});
