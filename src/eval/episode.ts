// One episode: the task's world restored into a warm instance (which starts the trace's next
// epoch), the agent run with its keys and instruction while the task's scripted events and
// clock steps happen, then the end state read: the diff from the start, the episode's own
// trace, the checks. Everything lands in the episode's folder (result.json, diff.json,
// trace.jsonl, start and end snapshots, the agent's output).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { saveWorld } from '../console/world/file.js';
import { nodemailer } from '../platform/optional-modules.js';
import { runAgent, type AgentRun } from './agent.js';
import { describeChanges, rowDiff, type EpisodeChanges } from './changes.js';
import { runChecks, type CheckResult } from './checks.js';
import { settlePeople, startPeople } from './people.js';
import type { Instance } from './pool.js';
import { Readers } from './readers.js';
import type { Task, TaskEvent } from './task.js';
import type { StartWorld } from './world-setup.js';

export interface EpisodeResult {
  task: string;
  episode: number;
  instance: number;
  /** The trace epoch the episode's restore started: GET /admin/api/trace?epoch=… on that instance. */
  epoch: number;
  /** Checks passed over checks run, 0 to 1. */
  score: number;
  passed: boolean;
  checks: CheckResult[];
  agent: AgentRun;
  /** The changes as people read them (diff.json holds the rows too). */
  changes: EpisodeChanges['semantic'];
  traceEntries: number;
  /** Things that went wrong around the agent (an event that could not be delivered, a simulated person who could not act). */
  errors: string[];
  /** The task's simulated people and how often each of their rules fired in this episode. */
  people: Array<{ name: string; fired: number[] }>;
  timings: { resetMs: number; agentMs: number; settleMs: number; diffMs: number; checksMs: number; totalMs: number };
  dir: string;
}

const readers = new WeakMap<Instance, Promise<Readers>>();
function readersOf(instance: Instance): Promise<Readers> {
  let r = readers.get(instance);
  if (!r) readers.set(instance, (r = Readers.for(instance)));
  return r;
}

/** What the agent is handed: the JSON file's content and the environment. */
function handOver(
  task: Task,
  start: StartWorld,
  instance: Instance,
  file: string,
): { json: Record<string, unknown>; env: Record<string, string> } {
  const own = start.keys.agents[task.agent.name] ?? {};
  const services = Object.entries(own).filter(([s]) => !task.agent.services || task.agent.services.includes(s));
  const keys = services.map(([, k]) => k.key);
  const env: Record<string, string> = {
    HAMLET_TASK_FILE: file,
    HAMLET_TASK: task.id,
    HAMLET_AGENT: task.agent.name,
    HAMLET_INSTRUCTION: task.instruction,
    HAMLET_MCP_URL: instance.mcpUrl,
    HAMLET_MCP_KEYS: keys.join(','),
  };
  for (const [name, urls] of Object.entries(instance.urls))
    if (urls.api) env[`HAMLET_${name.toUpperCase()}_URL`] = urls.api;
  for (const [service, k] of services) env[`HAMLET_${service.toUpperCase()}_KEY`] = k.key;
  const json = {
    task: task.id,
    agent: task.agent.name,
    instruction: task.instruction,
    time_limit_seconds: task.timeLimitMs / 1000,
    mcp: { url: instance.mcpUrl, headers: { 'X-Hamlet-Keys': keys.join(', ') } },
    services: Object.fromEntries(
      Object.entries(instance.urls).map(([name, urls]) => [
        name,
        { ...urls, ...Object.fromEntries(services.filter(([s]) => s === name).flatMap(([, k]) => Object.entries(k))) },
      ]),
    ),
    clock: instance.hamlet.platform.clock.now().toISOString(),
  };
  return { json, env };
}

/** Delivers one scripted event: a mail from outside over SMTP, or an entity's new state. */
async function deliver(event: TaskEvent, start: StartWorld, instance: Instance, r: Readers): Promise<void> {
  if ('mail' in event) {
    const smtp = instance.urls.mail?.smtp;
    if (!smtp) throw new Error('a mail event needs the mail service');
    const { hostname, port } = new URL(smtp);
    const to = start.keys.agents[event.mail.to]?.mail?.inbox ?? event.mail.to;
    const transport = nodemailer().createTransport({
      host: hostname,
      port: Number(port),
      secure: false,
      ignoreTLS: true,
    });
    try {
      await transport.sendMail({ from: event.mail.from, to, subject: event.mail.subject, text: event.mail.text });
    } finally {
      transport.close();
    }
    return;
  }
  const { entity_id, state, attributes } = event.home;
  const res = await r.call('home', `/api/states/${encodeURIComponent(entity_id)}`, {
    method: 'POST',
    body: { state, attributes: attributes ?? {} },
  });
  if (res.status >= 300) throw new Error(`the home answered ${res.status} setting ${entity_id}`);
}

export async function runEpisode(
  task: Task,
  start: StartWorld,
  instance: Instance,
  opts: { agent: string; dir: string; episode: number },
): Promise<EpisodeResult> {
  const began = performance.now();
  const { platform } = instance.hamlet;
  const dir = opts.dir;
  mkdirSync(dir, { recursive: true });
  const errors: string[] = [];
  const r = await readersOf(instance);

  // What the last episode left running finishes before its world is replaced.
  await platform.jobs
    .idle(undefined, 60_000)
    .catch(() => errors.push('work of the previous episode was still running at the restore'));
  const t0 = performance.now();
  await instance.world.restore(start.state);
  const epoch = platform.trace.epoch;
  const resetMs = performance.now() - t0;

  // The task's simulated people, in this episode's world only; what they could not do is an error of the episode.
  const people = await startPeople(task, instance, opts.episode, (message) => errors.push(message));

  const startMs = platform.clock.ms();
  const cancels = task.events.map((event) =>
    platform.timers.at(startMs + event.atMs, () =>
      deliver(event, start, instance, r).catch((err: Error) =>
        errors.push(`event at +${event.atMs / 1000}s: ${err.message}`),
      ),
    ),
  );
  const taskFile = path.join(dir, 'task.json');
  const { json, env } = handOver(task, start, instance, taskFile);
  writeFileSync(taskFile, JSON.stringify(json, null, 2) + '\n', { mode: 0o600 });

  // The clock's steps while the agent runs, one after another.
  let steps: Promise<unknown> = Promise.resolve();
  const stepTimers: NodeJS.Timeout[] = [];
  const agent = await runAgent(opts.agent, env, dir, task.timeLimitMs, () => {
    for (const step of task.clock.steps) {
      const move = () => {
        steps = steps
          .then(() => platform.timers.advance(step.advanceMs))
          .catch((err: Error) => errors.push(`clock step: ${err.message}`));
      };
      stepTimers.push(setTimeout(move, step.afterMs));
    }
  });
  for (const t of stepTimers) clearTimeout(t);
  await steps;

  const t1 = performance.now();
  if (task.clock.settleMs > 0)
    await platform.timers
      .advance(task.clock.settleMs)
      .catch((err: Error) => errors.push(`settling the clock: ${err.message}`));
  await platform.jobs
    .idle(undefined, 60_000)
    .catch(() => errors.push('work the agent started did not finish within 60 s'));
  for (const cancel of cancels) cancel();
  let fired: EpisodeResult['people'] = [];
  if (people) {
    await settlePeople(people, instance).catch(() =>
      errors.push('work the simulated people started did not finish within 60 s'),
    );
    fired = people.list().map(({ name, fired: times }) => ({ name, fired: times }));
    await people.stop();
  }
  const settleMs = performance.now() - t1;

  const t2 = performance.now();
  const end = await instance.world.read();
  const endFile = path.join(dir, 'end.jsonl.gz');
  writeFileSync(endFile, saveWorld(end, platform.clock.now().toISOString(), `${task.id} #${opts.episode}`).file);
  const rows = rowDiff(start.state, end);
  const changes: EpisodeChanges = { rows, semantic: describeChanges(rows, instance.services, start.state, end) };
  writeFileSync(path.join(dir, 'diff.json'), JSON.stringify(changes, null, 2) + '\n');
  const trace: string[] = [];
  for await (const entry of platform.trace.all({ epoch, order: 'oldest' })) trace.push(JSON.stringify(entry));
  writeFileSync(path.join(dir, 'trace.jsonl'), trace.length ? trace.join('\n') + '\n' : '');
  const diffMs = performance.now() - t2;

  const t3 = performance.now();
  const checks = await runChecks(task.checks, {
    readers: r,
    keys: start.keys,
    changes,
    script: { task: task.id, episodeDir: dir, urls: instance.urls, keys: start.keys, changes },
  });
  const checksMs = performance.now() - t3;
  const passedChecks = checks.filter((c) => c.pass).length;
  const result: EpisodeResult = {
    task: task.id,
    episode: opts.episode,
    instance: instance.index,
    epoch,
    score: checks.length ? passedChecks / checks.length : 0,
    passed: checks.length > 0 && passedChecks === checks.length,
    checks,
    agent,
    changes: changes.semantic,
    traceEntries: trace.length,
    errors,
    people: fired,
    timings: { resetMs, agentMs: agent.durationMs, settleMs, diffMs, checksMs, totalMs: performance.now() - began },
    dir,
  };
  writeFileSync(path.join(dir, 'result.json'), JSON.stringify(result, null, 2) + '\n');
  return result;
}
