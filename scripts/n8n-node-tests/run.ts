// n8n's own offline node tests as a conformance run (docs/workflow.md, "n8n's own node tests").
//
//   node --import tsx scripts/n8n-node-tests/run.ts <folder> [--record] [words…]
//   N8N_NODE_TESTS_DIR=<folder> node --import tsx scripts/n8n-node-tests/run.ts [--record] [words…]
//
// <folder> holds n8n's test workflows as in n8n's repository (a checkout of the monorepo, or a
// folder with just packages/nodes-base/nodes/<Node>/test/… filled file by file); it stays
// outside this repository, as does everything the run writes (under <folder>/.hamlet/).
// `--record` first records n8n 2.8.4's own answer to each test through the oracle
// (scripts/oracle/run.mjs with ORACLE_FIXTURES pointed at <folder>/.hamlet/oracle); without it
// the answers recorded before are used. `--pins` judges against the pinned data instead (n8n's
// harness as it stands; for a look before anything is recorded). Words keep only the tests whose
// path contains one.
//
// Each test is judged as n8n's node test harness judges it: the workflow without its pinData,
// started at its start node with one empty item; each pinned node's runs, output 0 of each,
// pairedItem and binary left out, key order ignored, must equal the expected ones, and the run
// must succeed. The expected runs are n8n 2.8.4's (where they differ from the pinned data, 2.8.4
// wins; the report says where they do).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWorkflowServer, type WorkflowTestServer } from '../../test/workflow/helpers.js';
import { NODE_TESTS } from './selection.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Item {
  json?: unknown;
}
interface WorkflowFile {
  name?: string;
  nodes: Array<{ name: string; type: string; parameters?: unknown }>;
  connections: unknown;
  settings?: Record<string, unknown>;
  pinData?: Record<string, Item[]>;
}
/** A node's run as the oracle records it (scripts/oracle/capture.mjs). */
interface RecordedRun {
  output?: unknown[][];
  error?: { message: string };
}
interface RecordedCase {
  /** n8n refused the manual run (a node type it does not know): no run to compare. */
  refused?: { status: number; message: string };
  status: string;
  nodes: Record<string, RecordedRun[]>;
  droppedVolatilePaths?: string[];
  error?: { message: string; node: string | null };
}
interface HamletRun {
  data?: { main?: Array<Array<{ json: unknown }> | null> };
  error?: { message: string };
}

/** The folder of n8n's nodes: <folder>/packages/nodes-base/nodes, or <folder> itself. */
function nodesDir(folder: string): string {
  const inRepo = path.join(folder, 'packages/nodes-base/nodes');
  return existsSync(inRepo) ? inRepo : folder;
}

/** A file name for the oracle fixture folder: the test's path with its separators flattened. */
const slug = (testPath: string) => testPath.replace(/\.json$/, '').replace(/[^A-Za-z0-9_.-]+/g, '__');

/**
 * The node n8n's harness starts at (Workflow.getStartNode): the first trigger-like node of the
 * file (a Manual Trigger, the legacy Start node, or any other trigger), else the first node.
 */
function startNode(wf: WorkflowFile): string {
  const starters = wf.nodes.filter((n) => /(\.start|Trigger|\.webhook)$/.test(n.type));
  return (starters[0] ?? wf.nodes[0]).name;
}

/**
 * The workflow as the harness runs it: its pinned data removed. Its runs are saved whatever its
 * settings say (the recorder reads n8n's saved execution; saving changes no node's behaviour),
 * and it has `settings` (n8n's public API wants them).
 */
function withoutPins(wf: WorkflowFile): WorkflowFile {
  const { pinData: _pins, ...rest } = wf;
  const settings = {
    ...rest.settings,
    saveManualExecutions: true,
    saveDataSuccessExecution: 'all',
    saveDataErrorExecution: 'all',
  };
  return { ...rest, name: rest.name ?? 'n8n node test', settings };
}

/** Writes the tests as oracle fixtures (workflows/, cases/) and records n8n 2.8.4's runs. */
function record(folder: string, tests: Array<{ path: string; wf: WorkflowFile }>): void {
  const fixtures = path.join(folder, '.hamlet', 'oracle');
  for (const sub of ['workflows', 'cases', 'expected']) mkdirSync(path.join(fixtures, sub), { recursive: true });
  for (const t of tests) {
    const name = `${slug(t.path)}.json`;
    rmSync(path.join(fixtures, 'expected', name), { force: true });
    writeFileSync(path.join(fixtures, 'workflows', name), JSON.stringify(withoutPins(t.wf), null, 2));
    writeFileSync(
      path.join(fixtures, 'cases', name),
      JSON.stringify(
        { workflow: name, cases: [{ name: 'harness', trigger: { kind: 'manual', trigger: startNode(t.wf) } }] },
        null,
        2,
      ),
    );
  }
  const words = tests.map((t) => slug(t.path));
  const res = spawnSync(process.execPath, [path.join(ROOT, 'scripts/oracle/run.mjs'), ...words], {
    stdio: 'inherit',
    // Its own n8n instance folder and port, so a recording of the oracle's cases may run meanwhile.
    env: {
      ORACLE_DATA_DIR: path.join(folder, '.hamlet', 'n8n-data'),
      ORACLE_PORT: '5790',
      ...process.env,
      ORACLE_FIXTURES: fixtures,
    },
  });
  if (res.status !== 0)
    console.log(
      `[n8n-node-tests] the oracle ended with status ${res.status}; tests it could not record are reported as such`,
    );
}

function recorded(folder: string, testPath: string): RecordedCase | undefined {
  const file = path.join(folder, '.hamlet', 'oracle', 'expected', `${slug(testPath)}.json`);
  if (!existsSync(file)) return undefined;
  return (JSON.parse(readFileSync(file, 'utf8')) as { cases: RecordedCase[] }).cases[0];
}

/** A value with the keys whose value is undefined left out, as Jest's toEqual ignores them. */
function comparable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(comparable);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== undefined)
        .map(([k, x]) => [k, comparable(x)]),
    );
  return v;
}

/** Differences between two values, key order ignored; `skip` holds paths whose value only has to exist. */
function differences(expected: unknown, actual: unknown, at: string, skip: Set<string>, out: string[]): void {
  if (out.length > 6) return;
  if (skip.has(at)) return;
  if (expected === null || typeof expected !== 'object' || actual === null || typeof actual !== 'object') {
    if (!Object.is(expected, actual) && JSON.stringify(expected) !== JSON.stringify(actual))
      out.push(
        `${at}: expected ${JSON.stringify(expected)?.slice(0, 160)}, got ${JSON.stringify(actual)?.slice(0, 160)}`,
      );
    return;
  }
  if (Array.isArray(expected) !== Array.isArray(actual))
    return void out.push(
      `${at}: expected ${JSON.stringify(expected).slice(0, 160)}, got ${JSON.stringify(actual).slice(0, 160)}`,
    );
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  if (Array.isArray(e) && e.length !== (a as unknown as unknown[]).length)
    out.push(`${at}: expected ${e.length} entries, got ${(a as unknown as unknown[]).length}`);
  for (const k of new Set([...Object.keys(e), ...Object.keys(a)])) {
    if (!(k in a)) out.push(`${at}/${k}: missing (expected ${JSON.stringify(e[k])?.slice(0, 120)})`);
    else if (!(k in e)) out.push(`${at}/${k}: unexpected (${JSON.stringify(a[k])?.slice(0, 120)})`);
    else differences(e[k], a[k], `${at}/${k}`, skip, out);
  }
}

/** Output 0 of each run (null for a run without data), as the harness reads a node's runs. */
const recordedRuns = (runs: RecordedRun[] = []) => runs.map((r) => (r.output ? (r.output[0] ?? []) : null));
const hamletRuns = (runs: HamletRun[] = []) =>
  runs.map((r) => (r.data?.main ? (r.data.main[0] ?? []).map((it) => it.json) : null));

/**
 * The harness's verdict on `actual` runs against `expected` ones for the pinned nodes, plus the
 * run status. Paths are /<node>/<run>/<item>/…; the oracle's volatile paths (values that changed
 * between its two recordings) only have to exist.
 */
function judge(
  pinned: string[],
  expected: Record<string, unknown[]>,
  expectedStatus: string,
  actual: Record<string, unknown[]>,
  actualStatus: string,
  skip = new Set<string>(),
): string[] {
  const out: string[] = [];
  if (actualStatus !== expectedStatus) out.push(`status: expected ${expectedStatus}, got ${actualStatus}`);
  for (const node of pinned)
    differences(comparable(expected[node] ?? []), comparable(actual[node] ?? []), `/${node}`, skip, out);
  return out;
}

/** The oracle's volatile paths (/nodes/<node>/<run>/output/0/<item>/…) in the judge's form. */
function volatile(c: RecordedCase): Set<string> {
  const paths = new Set<string>();
  for (const p of c.droppedVolatilePaths ?? []) {
    const m = /^\/nodes\/([^/]+)\/(\d+)\/output\/0(\/.*)?$/.exec(p);
    if (m) paths.add(`/${m[1]}/${m[2]}${m[3] ?? ''}`);
  }
  return paths;
}

async function runInHamlet(
  s: WorkflowTestServer,
  wf: WorkflowFile,
): Promise<{ status: string; runs: Record<string, unknown[]>; error?: string; refusal?: string }> {
  const created = await s.api('POST', '/workflows', withoutPins(wf));
  if (created.status !== 200)
    return { status: `import ${created.status}`, runs: {}, error: JSON.stringify(created.body).slice(0, 200) };
  const id = created.body.id as string;
  try {
    const res = await s.api('POST', `/workflows/${id}/execute`, {});
    if (res.status !== 200)
      return {
        status: `execute ${res.status}`,
        runs: {},
        error: JSON.stringify(res.body).slice(0, 200),
        refusal: res.body?.message,
      };
    const runData = (res.body.data?.resultData?.runData ?? {}) as Record<string, HamletRun[]>;
    const runs = Object.fromEntries(Object.entries(runData).map(([n, r]) => [n, hamletRuns(r)]));
    return { status: res.body.status, runs, error: res.body.data?.resultData?.error?.message };
  } finally {
    await s.api('DELETE', `/workflows/${id}`);
  }
}

interface Verdict {
  path: string;
  pass: boolean;
  problems: string[];
  /** Where n8n 2.8.4's own runs differ from the file's pinned data (n8n's harness would fail it). */
  n8nVsPins: string[];
  /** n8n 2.8.4 refuses to run the workflow at all, and Hamlet refuses it with the same message. */
  refusedLikeN8n?: boolean;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const doRecord = args.includes('--record');
  const againstPins = args.includes('--pins');
  const rest = args.filter((a) => !a.startsWith('--'));
  const folder = process.env.N8N_NODE_TESTS_DIR ?? rest.shift();
  if (!folder) throw new Error('give the folder of n8n node tests: run.ts <folder> (or N8N_NODE_TESTS_DIR)');
  const nodes = nodesDir(path.resolve(folder));
  const selected = NODE_TESTS.filter((p) => rest.length === 0 || rest.some((w) => p.includes(w)));
  const tests = selected.flatMap((p) => {
    const file = path.join(nodes, p);
    if (!existsSync(file)) {
      console.log(`[n8n-node-tests] missing: ${p}`);
      return [];
    }
    return [{ path: p, wf: JSON.parse(readFileSync(file, 'utf8')) as WorkflowFile }];
  });
  if (doRecord) record(path.resolve(folder), tests);

  const s = await startWorkflowServer();
  const verdicts: Verdict[] = [];
  try {
    for (const t of tests) {
      const pinned = Object.keys(t.wf.pinData ?? {});
      const pins = Object.fromEntries(
        Object.entries(t.wf.pinData ?? {}).map(([name, items]) => [name, [items.map((i) => i.json ?? i)]]),
      );
      if (againstPins) {
        const ours = await runInHamlet(s, t.wf);
        const problems = judge(pinned, pins, 'success', ours.runs, ours.status);
        if (problems.length && ours.error) problems.push(`Hamlet's error: ${ours.error}`);
        verdicts.push({ path: t.path, pass: problems.length === 0, problems, n8nVsPins: [] });
        continue;
      }
      const n8n = recorded(path.resolve(folder), t.path);
      if (!n8n) {
        verdicts.push({
          path: t.path,
          pass: false,
          problems: ["n8n 2.8.4's answer is not recorded (run with --record)"],
          n8nVsPins: [],
        });
        continue;
      }
      if (n8n.refused) {
        // Nothing ran in n8n 2.8.4, so the test cannot pass there either; what counts is that
        // Hamlet refuses the same way.
        const ours = await runInHamlet(s, t.wf);
        const same = ours.refusal === n8n.refused.message && /^execute 4\d\d$/.test(ours.status);
        verdicts.push({
          path: t.path,
          pass: false,
          problems: [
            `n8n 2.8.4 refuses the manual run (${n8n.refused.status}): ${n8n.refused.message}`,
            `Hamlet: ${ours.status} ${ours.refusal ?? ours.error ?? ''}`,
          ],
          n8nVsPins: [],
          refusedLikeN8n: same,
        });
        continue;
      }
      const n8nRuns = Object.fromEntries(Object.entries(n8n.nodes).map(([name, runs]) => [name, recordedRuns(runs)]));
      const n8nVsPins = judge(pinned, pins, 'success', n8nRuns, n8n.status, volatile(n8n));
      const ours = await runInHamlet(s, t.wf);
      const problems = judge(pinned, n8nRuns, n8n.status, ours.runs, ours.status, volatile(n8n));
      if (problems.length && ours.error) problems.push(`Hamlet's error: ${ours.error}`);
      if (problems.length && n8n.error) problems.push(`n8n's error: ${n8n.error.message} (${n8n.error.node})`);
      verdicts.push({ path: t.path, pass: problems.length === 0, problems, n8nVsPins });
    }
  } finally {
    await s.stop();
  }

  const byNode = new Map<string, Verdict[]>();
  for (const v of verdicts) {
    const node = v.path.split('/test/')[0];
    byNode.set(node, [...(byNode.get(node) ?? []), v]);
  }
  console.log('\nPer node (passed/tests):');
  for (const [node, vs] of [...byNode].sort())
    console.log(`  ${node}: ${vs.filter((v) => v.pass).length}/${vs.length}`);
  for (const v of verdicts.filter((x) => !x.pass)) console.log(`\nFAIL ${v.path}\n  ${v.problems.join('\n  ')}`);
  const differing = verdicts.filter((v) => v.n8nVsPins.length);
  if (differing.length) {
    console.log(
      `\nWhere n8n 2.8.4 differs from the pinned data (${differing.length}; 2.8.4's answer is the expected one):`,
    );
    for (const v of differing) console.log(`  ${v.path}\n    ${v.n8nVsPins.slice(0, 3).join('\n    ')}`);
  }
  const passed = verdicts.filter((v) => v.pass).length;
  const refused = verdicts.filter((v) => v.refusedLikeN8n).length;
  console.log(
    `\nn8n node tests: ${passed}/${verdicts.length} pass (of ${NODE_TESTS.length} selected offline tests)${refused ? `; ${refused} more that n8n 2.8.4 itself refuses to run, refused by Hamlet alike` : ''}`,
  );
  mkdirSync(path.join(path.resolve(folder), '.hamlet'), { recursive: true });
  writeFileSync(
    path.join(path.resolve(folder), '.hamlet', againstPins ? 'report-pins.json' : 'report.json'),
    JSON.stringify(verdicts, null, 2),
  );
}

await main();
