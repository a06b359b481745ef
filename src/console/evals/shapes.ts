// What the /evals pages read of a run's files (src/eval/run.ts writes summary.json, episode.ts
// each result.json and diff.json), checked field by field: the files are on disk, anyone could
// have edited them, and a page must say which field is wrong rather than fail. The console
// cannot import src/eval (which imports the console), so the fields it reads are named here;
// test/console/evals-page.test.ts reads files the runner really wrote, so the two cannot drift
// apart unseen.

export class ShapeError extends Error {}

type Json = unknown;

function at(where: string, v: Json, what: string): never {
  throw new ShapeError(`${where} is ${v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v}, expected ${what}`);
}
const obj = (v: Json, where: string): Record<string, Json> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, Json>) : at(where, v, 'an object');
const list = (v: Json, where: string): Json[] => (Array.isArray(v) ? v : at(where, v, 'a list'));
const text = (v: Json, where: string): string => (typeof v === 'string' ? v : at(where, v, 'text'));
const num = (v: Json, where: string): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : at(where, v, 'a number');
const bool = (v: Json, where: string): boolean => (typeof v === 'boolean' ? v : at(where, v, 'true or false'));
const texts = (v: Json, where: string): string[] => list(v, where).map((x, i) => text(x, `${where}[${i}]`));
/** Timings in milliseconds, by name (whichever the runner wrote). */
const timings = (v: Json, where: string): Record<string, number> =>
  Object.fromEntries(Object.entries(obj(v, where)).map(([k, x]) => [k, num(x, `${where}.${k}`)]));

export interface RunView {
  agent: string;
  parallel: number;
  startedAt: string;
  tasks: Array<{
    id: string;
    file: string;
    episodes: number;
    passed: number;
    meanScore: number;
    checks: Array<{ name: string; kind: string; passed: number; of: number }>;
  }>;
  episodes: Array<{
    task: string;
    episode: number;
    score: number;
    passed: boolean;
    errors: string[];
    failed: string[];
    timedOut: boolean;
    timings: Record<string, number>;
  }>;
  totals: { episodes: number; passed: number; meanScore: number };
  timings: Record<string, number>;
}

export function runView(json: Json, label = 'summary.json'): RunView {
  const s = obj(json, label);
  const totals = obj(s.totals, `${label}: totals`);
  return {
    agent: text(s.agent, `${label}: agent`),
    parallel: num(s.parallel, `${label}: parallel`),
    startedAt: text(s.startedAt, `${label}: startedAt`),
    tasks: list(s.tasks, `${label}: tasks`).map((t, i) => {
      const w = `${label}: tasks[${i}]`;
      const task = obj(t, w);
      return {
        id: text(task.id, `${w}.id`),
        file: text(task.file, `${w}.file`),
        episodes: num(task.episodes, `${w}.episodes`),
        passed: num(task.passed, `${w}.passed`),
        meanScore: num(task.meanScore, `${w}.meanScore`),
        checks: list(task.checks, `${w}.checks`).map((c, j) => {
          const cw = `${w}.checks[${j}]`;
          const check = obj(c, cw);
          return {
            name: text(check.name, `${cw}.name`),
            kind: text(check.kind, `${cw}.kind`),
            passed: num(check.passed, `${cw}.passed`),
            of: num(check.of, `${cw}.of`),
          };
        }),
      };
    }),
    episodes: list(s.episodes, `${label}: episodes`).map((e, i) => {
      const w = `${label}: episodes[${i}]`;
      const ep = obj(e, w);
      return {
        task: text(ep.task, `${w}.task`),
        episode: num(ep.episode, `${w}.episode`),
        score: num(ep.score, `${w}.score`),
        passed: bool(ep.passed, `${w}.passed`),
        errors: texts(ep.errors, `${w}.errors`),
        failed: texts(ep.failed, `${w}.failed`),
        timedOut: bool(ep.timedOut, `${w}.timedOut`),
        timings: timings(ep.timings, `${w}.timings`),
      };
    }),
    totals: {
      episodes: num(totals.episodes, `${label}: totals.episodes`),
      passed: num(totals.passed, `${label}: totals.passed`),
      meanScore: num(totals.meanScore, `${label}: totals.meanScore`),
    },
    timings: timings(s.timings, `${label}: timings`),
  };
}

export interface EpisodeView {
  task: string;
  episode: number;
  score: number;
  passed: boolean;
  checks: Array<{ name: string; kind: string; pass: boolean; message: string }>;
  agent: { exitCode: number | null; signal: string | null; timedOut: boolean; durationMs: number };
  changes: Array<{ service: string; kind: string; subject: string; text: string }>;
  traceEntries: number;
  errors: string[];
  people: Array<{ name: string; fired: number[] }>;
  timings: Record<string, number>;
}

export function episodeView(json: Json, label = 'result.json'): EpisodeView {
  const r = obj(json, label);
  const agent = obj(r.agent, `${label}: agent`);
  return {
    task: text(r.task, `${label}: task`),
    episode: num(r.episode, `${label}: episode`),
    score: num(r.score, `${label}: score`),
    passed: bool(r.passed, `${label}: passed`),
    checks: list(r.checks, `${label}: checks`).map((c, i) => {
      const w = `${label}: checks[${i}]`;
      const check = obj(c, w);
      return {
        name: text(check.name, `${w}.name`),
        kind: text(check.kind, `${w}.kind`),
        pass: bool(check.pass, `${w}.pass`),
        message: text(check.message, `${w}.message`),
      };
    }),
    agent: {
      exitCode: agent.exitCode === null ? null : num(agent.exitCode, `${label}: agent.exitCode`),
      signal: agent.signal === null ? null : text(agent.signal, `${label}: agent.signal`),
      timedOut: bool(agent.timedOut, `${label}: agent.timedOut`),
      durationMs: num(agent.durationMs, `${label}: agent.durationMs`),
    },
    changes: list(r.changes, `${label}: changes`).map((c, i) => {
      const w = `${label}: changes[${i}]`;
      const change = obj(c, w);
      return {
        service: text(change.service, `${w}.service`),
        kind: text(change.kind, `${w}.kind`),
        subject: change.subject === undefined ? '' : text(change.subject, `${w}.subject`),
        text: text(change.text, `${w}.text`),
      };
    }),
    traceEntries: num(r.traceEntries, `${label}: traceEntries`),
    errors: texts(r.errors, `${label}: errors`),
    people: list(r.people ?? [], `${label}: people`).map((p, i) => {
      const w = `${label}: people[${i}]`;
      const person = obj(p, w);
      return {
        name: text(person.name, `${w}.name`),
        fired: list(person.fired, `${w}.fired`).map((n, j) => num(n, `${w}.fired[${j}]`)),
      };
    }),
    timings: timings(r.timings, `${label}: timings`),
  };
}

/** One row of an episode's diff.json, as the page lists it. */
export interface DiffRowView {
  service: string;
  change: 'added' | 'changed' | 'removed';
  table: string;
  key: string;
  detail: string;
}

const DETAIL_CHARS = 600;
const short = (v: Json): string => {
  const s = JSON.stringify(v) ?? 'undefined';
  return s.length > DETAIL_CHARS ? `${s.slice(0, DETAIL_CHARS)}…` : s;
};

/** The row diff of diff.json ({rows: {service: {added, changed, removed}}}), in order. */
export function diffRows(json: Json, label = 'diff.json'): DiffRowView[] {
  const rows = obj(obj(json, label).rows, `${label}: rows`);
  const out: DiffRowView[] = [];
  for (const [service, value] of Object.entries(rows)) {
    const w = `${label}: rows.${service}`;
    const changes = obj(value, w);
    for (const change of ['added', 'changed', 'removed'] as const) {
      list(changes[change], `${w}.${change}`).forEach((r, i) => {
        const row = obj(r, `${w}.${change}[${i}]`);
        const columns = change === 'changed' ? texts(row.columns ?? [], `${w}.${change}[${i}].columns`) : [];
        const before = row.before && typeof row.before === 'object' ? (row.before as Record<string, Json>) : {};
        const after = row.after && typeof row.after === 'object' ? (row.after as Record<string, Json>) : {};
        out.push({
          service,
          change,
          table: text(row.table, `${w}.${change}[${i}].table`),
          key: short(row.key),
          detail:
            change === 'changed'
              ? columns.map((c) => `${c}: ${short(before[c])} → ${short(after[c])}`).join('; ')
              : short(row.row),
        });
      });
    }
  }
  return out;
}
