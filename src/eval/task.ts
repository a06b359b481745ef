// A task file (YAML, src/eval/task.schema.json, docs/evaluations.md): read, checked against
// the schema, and turned into what an episode needs. A task that is wrong anywhere is refused
// whole, with the file and the field named (`tasks/x.yaml: checks[2].home.entity_id: must be
// string`), before any episode starts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { parse, YAMLParseError } from 'yaml';
import { checkPeople, type PersonSpec } from '../console/world/people-rules.js';
import { ScenarioError, type Scenario } from '../console/world/scenario.js';

export const CHECK_KINDS = ['mail', 'home', 'blog', 'community', 'workflow', 'change', 'collateral', 'script'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

export interface MailCheck {
  to?: string;
  from?: string;
  subject_contains?: string;
  text_contains?: string;
  count?: number;
}
export interface HomeCheck {
  entity_id: string;
  state?: string;
  attributes?: Record<string, unknown>;
}
export interface PostCheck {
  author?: string;
  title_contains?: string;
  content_contains?: string;
  count?: number;
}
export interface CommunityCheck extends PostCheck {
  community?: string;
}
export interface WorkflowCheck {
  name: string;
  active?: boolean;
  min_executions?: number;
  exists?: boolean;
}
export interface CollateralRule {
  service: string;
  kind?: string;
  subject?: string;
}
/** Changes of the semantic diff: what no public read shows (a comment, a vote, a label, a follow). */
export interface ChangeCheck extends CollateralRule {
  text_contains?: string;
  count?: number;
}
export interface CollateralCheck {
  allow?: CollateralRule[];
}

export interface Check {
  name?: string;
  mail?: MailCheck;
  home?: HomeCheck;
  blog?: PostCheck;
  community?: CommunityCheck;
  workflow?: WorkflowCheck;
  change?: ChangeCheck;
  collateral?: CollateralCheck;
  /** Resolved against the task's folder. */
  script?: string;
}

export type TaskEvent = { atMs: number } & (
  | { mail: { from: string; to: string; subject: string; text: string } }
  | { home: { entity_id: string; state: string; attributes?: Record<string, unknown> } }
);

export interface Task {
  id: string;
  file: string;
  description?: string;
  tags: string[];
  world: {
    demo?: { seed: number; size: 'small' | 'large' };
    snapshot?: string;
    keys?: string;
    scenario?: { scenario: Scenario; baseDir: string };
    clock?: { now?: string; frozen?: boolean };
  };
  agent: { name: string; services?: string[] };
  /** Simulated people of the task, beside its scenario's (docs/evaluations.md, "Simulated people"). */
  people: PersonSpec[];
  /** With the episode's number, draws the people's choices among several texts (default 0). */
  peopleSeed: number;
  instruction: string;
  timeLimitMs: number;
  events: TaskEvent[];
  clock: { steps: Array<{ afterMs: number; advanceMs: number }>; settleMs: number };
  checks: Check[];
}

export class TaskError extends Error {}

const DEFAULT_TIME_LIMIT_MS = 120_000;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The task schema, as committed (docs/evaluations.md shows it). */
export function taskSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL('./task.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
}

let validate: ReturnType<Ajv['compile']> | undefined;

function validator() {
  if (validate) return validate;
  const ajv = new Ajv({ allErrors: false, strict: false });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return (validate = ajv.compile(taskSchema()));
}

/** `/checks/2/home` → `checks[2].home`. */
function fieldOf(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((out, part) => (/^\d+$/.test(part) ? `${out}[${part}]` : out ? `${out}.${part}` : part), '');
}

function explain(e: ErrorObject): string {
  const at = fieldOf(e.instancePath);
  const where = (name: string) => (at ? `${at}.${name}` : name);
  switch (e.keyword) {
    case 'required':
      return `${where(String(e.params.missingProperty))}: required`;
    case 'additionalProperties':
      return `${where(String(e.params.additionalProperty))}: not a field of ${at || 'a task'}`;
    case 'enum':
      return `${at}: must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'oneOf':
      return `${at}: ${at.endsWith('time_limit') || /\.(at|after|advance|settle)$/.test(at) ? 'a duration: seconds, or 90s, 10m, 2h, 1d' : 'not one of the forms it takes'}`;
    default:
      return `${at || 'the task'}: ${e.message ?? 'is not valid'}`;
  }
}

/** A duration in milliseconds (the schema has checked its shape). */
function durationMs(value: number | string): number {
  if (typeof value === 'number') return value * 1000;
  const m = /^\+?([0-9]+(?:\.[0-9]+)?)(ms|s|m|h|d)$/.exec(value)!;
  return Number(m[1]) * UNIT_MS[m[2]];
}

/**
 * The agents a task's people may be: its scenario's, when the scenario is the whole world;
 * on a demo or a snapshot the names are known only once the world is made (startPeople).
 */
function agentsOf(world: Record<string, unknown>, scenario: Task['world']['scenario']): Set<string> | undefined {
  if (world.demo || world.snapshot) return undefined;
  const agents = (scenario?.scenario as { agents?: unknown } | undefined)?.agents;
  return new Set(
    (Array.isArray(agents) ? agents : [])
      .map((a) => (a as { name?: unknown } | null)?.name)
      .filter((n) => typeof n === 'string'),
  );
}

/** Reads, checks and resolves a task file; a TaskError names the file and the field. */
export function loadTask(file: string): Task {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new TaskError(`${file}: cannot read the task (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  let raw: unknown;
  try {
    raw = parse(text, { maxAliasCount: 100 });
  } catch (err) {
    const where =
      err instanceof YAMLParseError && err.linePos
        ? ` at line ${err.linePos[0].line}, column ${err.linePos[0].col}`
        : '';
    throw new TaskError(`${file}: not YAML${where}: ${(err as Error).message.split('\n')[0]}`);
  }
  return taskOf(raw, file);
}

/** A parsed task (YAML or JSON) checked and resolved; `file` names it in errors and anchors its relative paths. */
function taskOf(raw: unknown, file: string): Task {
  const fail = (message: string): never => {
    throw new TaskError(`${file}: ${message}`);
  };
  const check = validator();
  if (!check(raw)) {
    // A value that fits none of a field's forms reports each form's complaint first: the field's own (oneOf) says it better.
    const [first] = check.errors!;
    fail(
      explain(
        check.errors!.find((e) => e.keyword === 'oneOf' && first.instancePath.startsWith(e.instancePath)) ?? first,
      ),
    );
  }
  const t = raw as Record<string, any>;
  const dir = path.dirname(path.resolve(file));
  const checks = (t.checks as Check[]).map((c, i) => {
    const kinds = CHECK_KINDS.filter((k) => c[k] !== undefined);
    if (kinds.length !== 1)
      fail(
        `checks[${i}]: one of ${CHECK_KINDS.join(', ')} (and a name), ${kinds.length ? `not ${kinds.join(' and ')} together` : 'none given'}`,
      );
    const m = c.mail;
    if (
      m &&
      m.to === undefined &&
      m.from === undefined &&
      m.subject_contains === undefined &&
      m.text_contains === undefined
    )
      fail(`checks[${i}].mail: name at least one of to, from, subject_contains, text_contains`);
    return c.script ? { ...c, script: path.resolve(dir, c.script) } : c;
  });
  const world = t.world as Record<string, any>;
  if (world.keys && !world.snapshot)
    fail('world.keys: only with world.snapshot (a scenario or the demo hands out its own keys)');
  if (world.demo && world.snapshot) fail('world: a demo or a snapshot, not both');
  let scenario: Task['world']['scenario'];
  if (typeof world.scenario === 'string') {
    const at = path.resolve(dir, world.scenario);
    let text: string;
    try {
      text = readFileSync(at, 'utf8');
    } catch {
      return fail(`world.scenario: no such file ${world.scenario}`);
    }
    try {
      scenario = { scenario: parse(text) as Scenario, baseDir: path.dirname(at) };
    } catch (err) {
      return fail(`world.scenario: ${world.scenario} is not YAML: ${(err as Error).message.split('\n')[0]}`);
    }
  } else if (world.scenario) scenario = { scenario: world.scenario as Scenario, baseDir: dir };
  let people: PersonSpec[] = [];
  try {
    people = checkPeople(t.people, agentsOf(world, scenario));
  } catch (err) {
    if (!(err instanceof ScenarioError)) throw err;
    fail(err.message);
  }
  const events: TaskEvent[] = ((t.events ?? []) as Array<Record<string, any>>).map(
    (e) => ({ ...e, atMs: durationMs(e.at) }) as TaskEvent,
  );
  const clock = (t.clock ?? {}) as Record<string, any>;
  return {
    id: (t.id as string | undefined) ?? path.basename(file).replace(/\.(ya?ml|json)$/i, ''),
    file,
    description: t.description,
    tags: t.tags ?? [],
    world: {
      ...(world.demo ? { demo: { seed: world.demo.seed ?? 1, size: world.demo.size ?? 'small' } } : {}),
      ...(world.snapshot ? { snapshot: path.resolve(dir, world.snapshot) } : {}),
      ...(world.keys ? { keys: path.resolve(dir, world.keys) } : {}),
      ...(scenario ? { scenario } : {}),
      ...(world.clock ? { clock: world.clock } : {}),
    },
    agent: t.agent,
    people,
    peopleSeed: (t.people_seed as number | undefined) ?? 0,
    instruction: t.instruction,
    timeLimitMs: t.time_limit === undefined ? DEFAULT_TIME_LIMIT_MS : durationMs(t.time_limit),
    events: events.sort((a, b) => a.atMs - b.atMs),
    clock: {
      steps: ((clock.steps ?? []) as Array<Record<string, any>>).map((s) => ({
        afterMs: durationMs(s.after),
        advanceMs: durationMs(s.advance),
      })),
      settleMs: clock.settle === undefined ? 0 : durationMs(clock.settle),
    },
    checks,
  };
}
