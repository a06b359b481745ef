// The starter suite (examples/eval/starter/, `npm run eval:starter`): its 42 tasks cover the
// five services and tasks across them (two of them need simulated people who answer), and its three scripted agents, run over one
// preparation with warm instances in parallel, each meet their expectation: the reference
// agent passes every task, the do-nothing agent fails every task, and the careless agent
// trips every task's collateral rule and nothing else.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTasks } from '../../src/eval/run.js';
import { runStarterSuite, starterTasks, type StarterOutcome } from '../../scripts/eval-starter.js';

const SERVICES = ['blog', 'mail', 'community', 'home', 'workflow'];
const tmp = mkdtempSync(path.join(os.tmpdir(), 'hamlet-eval-starter-test-'));
afterAll(() => {
  if (!process.env.KEEP_EVAL_OUTPUT) rmSync(tmp, { recursive: true, force: true });
});

describe('the starter suite', () => {
  const tasks = loadTasks(starterTasks());

  it('has 42 tasks over the five services and across them, each with a collateral rule', () => {
    expect(tasks).toHaveLength(42);
    const servicesOf = (t: (typeof tasks)[number]) => t.tags.filter((tag) => SERVICES.includes(tag));
    for (const service of SERVICES)
      expect(tasks.filter((t) => servicesOf(t).includes(service)).length).toBeGreaterThanOrEqual(6);
    expect(tasks.filter((t) => servicesOf(t).length >= 2).length).toBeGreaterThanOrEqual(8);
    expect(tasks.filter((t) => t.events.length).length).toBeGreaterThanOrEqual(3);
    expect(tasks.filter((t) => t.clock.settleMs > 0 || t.clock.steps.length).length).toBeGreaterThanOrEqual(3);
    // Tasks that cannot be done without a simulated person's answer, by mail and in a community.
    const withPeople = tasks.filter((t) => t.people.length);
    expect(withPeople.map((t) => t.tags.filter((tag) => SERVICES.includes(tag))).sort()).toEqual([
      ['community'],
      ['mail'],
    ]);
    for (const t of tasks)
      expect(
        t.checks.filter((c) => c.collateral),
        t.id,
      ).toHaveLength(1);
  });

  it('is passed by the reference agent, failed by the do-nothing agent, and the careless agent trips every collateral rule', async () => {
    const { outcomes } = await runStarterSuite({ parallel: 4, out: tmp, env: { PATH: process.env.PATH } });
    const by = Object.fromEntries(outcomes.map((o) => [o.kind, o])) as Record<StarterOutcome['kind'], StarterOutcome>;
    // What broke an expectation is named with the checks' own words.
    for (const o of outcomes) expect(o.broken, o.kind).toEqual({});
    expect(by.reference.summary.totals).toMatchObject({ episodes: 42, passed: 42 });
    expect(by.nothing.summary.totals).toMatchObject({ episodes: 42, passed: 0 });
    expect(by.careless.summary.totals).toMatchObject({ episodes: 42, passed: 0 });
    for (const r of by.careless.results) {
      expect(
        r.checks.filter((c) => !c.pass).map((c) => c.kind),
        r.task,
      ).toEqual(['collateral']);
      expect(r.checks.find((c) => c.kind === 'collateral')!.message, r.task).toMatch(/^\d+ change\(s\) not allowed: /);
    }
    // The do-nothing agent changed nothing, except what the task's own events did.
    for (const r of by.nothing.results)
      if (!tasks.find((t) => t.id === r.task)!.events.length) expect(r.changes, r.task).toEqual([]);
  }, 600_000);
});
