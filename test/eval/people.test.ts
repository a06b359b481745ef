// Simulated people during evaluation episodes (issue 31): a task's people (from its scenario or
// declared in the task) act while the agent works, inside the episode's own world; a person's
// reply reaches the agent, who acts on it; a timed rule changes the house when the clock gets
// there; a person whose replies come from an outside simulator over HTTP is told the
// conversation so far, and a simulator that is slow, answers too much, or sits on an internal
// address the operator did not allow is a clear error in the episode's report, never a hang.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTasks, runEvaluation } from '../../src/eval/run.js';
import type { EpisodeResult } from '../../src/eval/episode.js';
import { chooseText } from '../../src/console/people/choice.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const SERVICES = ['mail', 'home', 'community'];
const tmp = mkdtempSync(path.join(os.tmpdir(), 'hamlet-eval-people-test-'));
const env = { MAIL_DOMAIN: 'mail.test', HAMLET_LOG_LEVEL: 'silent', PATH: process.env.PATH };

let simulator: Server;
let simUrl = '';
/** What the simulator was asked, by path. */
const asked: Record<string, any[]> = {};

beforeAll(async () => {
  simulator = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const route = req.url ?? '/';
      (asked[route] ??= []).push(JSON.parse(body));
      if (route === '/good') return res.end('The Birch room, second floor.');
      if (route === '/json') {
        res.setHeader('content-type', 'application/json');
        return res.end(JSON.stringify({ reply: 'The Oak room, by the stairs.' }));
      }
      if (route === '/bad-action') {
        res.setHeader('content-type', 'application/json');
        return res.end(JSON.stringify({ send: { to: 5 } }));
      }
      if (route === '/huge') return res.end('x'.repeat(1024 * 1024));
      if (route === '/trickle') {
        // Headers at once, then a byte every 200 ms: the time limit covers the body too.
        res.writeHead(200, { 'content-type': 'text/plain' });
        const drip = setInterval(() => res.write('.'), 200);
        return void setTimeout(() => (clearInterval(drip), res.end()), 5_000);
      }
      if (route === '/slow') return void setTimeout(() => res.end('Too late: the Elm room.'), 5_000);
      res.statusCode = 404;
      res.end();
    });
  });
  await new Promise<void>((r) => simulator.listen(0, '127.0.0.1', r));
  simUrl = `http://127.0.0.1:${(simulator.address() as AddressInfo).port}`;
});
afterAll(() => {
  simulator?.closeAllConnections();
  simulator?.close();
  if (!process.env.KEEP_EVAL_OUTPUT) rmSync(tmp, { recursive: true, force: true });
});

/** A task on a small office world whose person Sam answers by `rule` (YAML flow mapping). */
function task(id: string, rule: string, extra = ''): string {
  const file = path.join(tmp, `${id}.yaml`);
  writeFileSync(
    file,
    `id: ${id}
world:
  scenario:
    agents:
      - { name: ada, mail: true }
      - { name: sam, mail: true, keys: [home] }
      - { name: bob, mail: true }
    home:
      states:
        - { entity_id: climate.office, state: heat, attributes: { temperature: 18, hvac_modes: ["off", heat], min_temp: 7, max_temp: 30, supported_features: 1 } }
  clock: { now: "2026-01-05T08:00:00Z" }
agent: { name: ada }
instruction: Ask Sam which room the review is in, then tell Bob.
time_limit: 20s
people:
  - name: sam
    rules:
      - ${rule}
${extra}
checks:
  - name: Bob was told the room
    mail: { to: bob, from: ada, text_contains: room }
`,
  );
  return file;
}

const byTask = (results: EpisodeResult[]) => Object.fromEntries(results.map((r) => [r.task, r]));
const traceOf = (r: EpisodeResult) =>
  readFileSync(path.join(r.dir, 'trace.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { route: string | null; kind: string; epoch: number });

describe('simulated people in episodes', () => {
  it('act while the agent works: a reply the agent acts on, a timed thermostat change, the outside simulator', async () => {
    const timed = `      - { at: "2026-01-05T09:00:00Z", home: { service: climate.set_temperature, data: { entity_id: climate.office, temperature: 21 } } }
clock: { settle: 2h }`;
    const tasks = [
      task('rules', `{ on: mail, match: { subject: room }, reply: "The Maple room, ground floor." }`, timed),
      task('simulated', `{ on: mail, match: { subject: room }, reply_from: "${simUrl}/good" }`),
      task('simulated-json', `{ on: mail, match: { subject: room }, reply_from: "${simUrl}/json", timeout: 5s }`),
    ];
    const { results } = await runEvaluation({
      tasks,
      agent: `node ${FIXTURES}/ask.mjs`,
      parallel: 3,
      repeat: 1,
      out: path.join(tmp, 'people'),
      env: { ...env, HAMLET_ALLOW_INTERNAL_REQUESTS: '1' },
      services: SERVICES,
    });
    const r = byTask(results);
    for (const one of results) expect(one.errors, one.task).toEqual([]);

    // Each episode's Sam heard only that episode's mail: one reply each, in its own world.
    for (const one of results)
      expect(
        one.changes.filter((c) => c.kind === 'message.sent' && c.text.includes('from sam')),
        one.task,
      ).toHaveLength(1);
    expect(r.rules.people).toEqual([{ name: 'sam', fired: [1, 1] }]);
    // The rule's reply reached the agent, which told Bob what it said.
    expect(r.rules.passed).toBe(true);
    expect(readFileSync(path.join(r.rules.dir, 'agent.stdout'), 'utf8').trim()).toBe('The Maple room, ground floor.');
    const texts = r.rules.changes.map((c) => `${c.service} ${c.kind} ${c.text}`);
    expect(texts).toContain(
      'mail message.sent message sent "Re: Which room?" from sam <sam@mail.test> to ada <ada@mail.test>',
    );
    // The timed rule ran when the settling clock passed 09:00, with Sam's key.
    expect(
      texts.some((t) => t.startsWith('home entity.changed climate.office') && t.includes('temperature 18 → 21')),
    ).toBe(true);
    // Sam's calls are in the episode's own trace.
    const routes = traceOf(r.rules).map((e) => e.route);
    expect(routes).toContain('/v0/inboxes/:inbox_id/messages/:message_id/reply');
    expect(routes).toContain('/api/services/:domain/:service');

    // The outside simulator was told the conversation so far, and its answer was Sam's reply.
    expect(r.simulated.passed).toBe(true);
    expect(readFileSync(path.join(r.simulated.dir, 'agent.stdout'), 'utf8').trim()).toBe(
      'The Birch room, second floor.',
    );
    const [question] = asked['/good'];
    expect(question).toMatchObject({
      person: 'sam',
      event: { kind: 'mail', subject: 'Which room?' },
      conversation: [{ from: expect.stringContaining('ada@mail.test'), subject: 'Which room?', self: false }],
    });
    expect(question.conversation[0].text).toContain('which room is the review in');
    expect(r['simulated-json'].passed).toBe(true);
    expect(readFileSync(path.join(r['simulated-json'].dir, 'agent.stdout'), 'utf8').trim()).toBe(
      'The Oak room, by the stairs.',
    );
  }, 120_000);

  it("draws a person's choice among several replies from the task's seed and the episode's number", async () => {
    const rooms = ['The Ash room.', 'The Birch room.', 'The Cedar room.', 'The Elm room.', 'The Oak room.'];
    const file = task('choices', `{ on: mail, match: { subject: room }, reply: ${JSON.stringify(rooms)} }`);
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('agent: { name: ada }', 'people_seed: 11\nagent: { name: ada }'),
    );
    const { results } = await runEvaluation({
      tasks: [file],
      agent: `node ${FIXTURES}/ask.mjs`,
      parallel: 2,
      repeat: 3,
      out: path.join(tmp, 'choices'),
      env,
      services: SERVICES,
    });
    const said = results.map((r) => readFileSync(path.join(r.dir, 'agent.stdout'), 'utf8').trim());
    expect(said).toEqual(
      results.map((r) => chooseText(rooms, { seed: 11 + r.episode - 1, person: 'sam', rule: 0, turn: 0 })),
    );
    for (const one of results) expect(one.passed, one.task).toBe(true);
    // The draw spreads over the list: twenty seeds meet most of the rooms.
    const drawn = new Set(
      Array.from({ length: 20 }, (_, seed) => chooseText(rooms, { seed, person: 'sam', rule: 0, turn: 0 })),
    );
    expect(drawn.size).toBeGreaterThanOrEqual(4);
  }, 120_000);

  it('reports a hostile simulator (slow, trickling, huge answer, an action that is none) as an error of the episode, within its time limit', async () => {
    const tasks = [
      task('slow-only-ask', `{ on: mail, match: { subject: room }, reply_from: "${simUrl}/slow", timeout: 1s }`),
      task('huge-only-ask', `{ on: mail, match: { subject: room }, reply_from: "${simUrl}/huge" }`),
      task('action-only-ask', `{ on: mail, match: { subject: room }, simulator: "${simUrl}/bad-action" }`),
      task('trickle-only-ask', `{ on: mail, match: { subject: room }, reply_from: "${simUrl}/trickle", timeout: 1s }`),
    ];
    const { results } = await runEvaluation({
      tasks,
      agent: `node ${FIXTURES}/ask.mjs`,
      parallel: 3,
      repeat: 1,
      out: path.join(tmp, 'hostile'),
      env: { ...env, HAMLET_ALLOW_INTERNAL_REQUESTS: '1' },
      services: SERVICES,
    });
    const r = byTask(results);
    expect(r['slow-only-ask'].errors).toEqual([
      `sam, rules[0]: the simulator at ${simUrl}/slow did not answer within 1 s`,
    ]);
    expect(r['huge-only-ask'].errors).toEqual([
      `sam, rules[0]: the simulator at ${simUrl}/huge answered more than 64 KiB`,
    ]);
    expect(r['trickle-only-ask'].errors).toEqual([
      `sam, rules[0]: the simulator at ${simUrl}/trickle did not answer within 1 s`,
    ]);
    expect(r['trickle-only-ask'].timings.settleMs).toBeLessThan(3_000);
    expect(r['action-only-ask'].errors).toEqual([
      `sam, rules[0]: the simulator at ${simUrl}/bad-action answered a send without {to, subject, text}`,
    ]);
    // None made Sam say anything.
    for (const one of results)
      expect(
        one.changes.filter((c) => c.text.includes('from sam')),
        one.task,
      ).toEqual([]);
    // The slow one was given up after its second, not waited for (it answers after 5).
    expect(r['slow-only-ask'].timings.settleMs).toBeLessThan(3_000);
    const summary = JSON.parse(readFileSync(path.join(tmp, 'hostile', 'summary.json'), 'utf8'));
    expect(summary.episodes.map((e: { errors: string[] }) => e.errors.length)).toEqual([1, 1, 1, 1]);
    expect(readFileSync(path.join(tmp, 'hostile', 'report.html'), 'utf8')).toContain('did not answer within 1 s');
  }, 120_000);

  it('refuses a simulator on an internal address unless the operator allows it', async () => {
    const before = (asked['/good'] ?? []).length;
    const { results } = await runEvaluation({
      tasks: [task('internal-only-ask', `{ on: mail, match: { subject: room }, reply_from: "${simUrl}/good" }`)],
      agent: `node ${FIXTURES}/ask.mjs`,
      parallel: 1,
      repeat: 1,
      out: path.join(tmp, 'internal'),
      env,
      services: SERVICES,
    });
    expect(results[0].errors).toHaveLength(1);
    expect(results[0].errors[0]).toMatch(
      /^sam, rules\[0\]: the simulator at http:\/\/127\.0\.0\.1:\d+\/good: refusing to connect to 127\.0\.0\.1 .*internal addresses are blocked; set HAMLET_ALLOW_INTERNAL_REQUESTS=1/,
    );
    expect((asked['/good'] ?? []).length).toBe(before);
  }, 120_000);
});

describe('people in task files', () => {
  it('are checked with the place named', () => {
    const bad = [
      task('bad-action', `{ on: mail, match: { subject: room }, reply: "Yes", comment: "No" }`),
      task('bad-url', `{ on: mail, reply_from: "ftp://example.com/x" }`),
      task('bad-timeout', `{ on: mail, reply_from: "http://example.com/x", timeout: 5m }`),
      task('bad-name', `{ on: mail, reply: "Yes" }`),
      task('bad-list', `{ on: mail, reply: [] }`),
    ];
    writeFileSync(bad[3], readFileSync(bad[3], 'utf8').replace('  - name: sam\n', '  - name: zoe\n'));
    let message = '';
    try {
      loadTasks(bad);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message.split('\n')).toEqual([
      `${bad[0]}: people[0].rules[0]: one action (reply, send, comment, home), a simulator or reply_from`,
      `${bad[1]}: people[0].rules[0].reply_from: an http(s) URL`,
      `${bad[2]}: people[0].rules[0].timeout: a duration from 1s to 60s`,
      `${bad[3]}: people[0].name: an agent of the scenario (the person's accounts are the agent's)`,
      `${bad[4]}: people[0].rules[0].reply: a text (or a list of 1 to 50), on a rule with on: mail`,
    ]);
  });
});
