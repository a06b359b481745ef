// `npm run fuzz`: a differential fuzzer of the workflow engine against n8n 2.8.4.
//
//   npm run fuzz -- --node set --cases 500 --seed 7      one node type ("set" or "n8n-nodes-base.set")
//   npm run fuzz -- --node all --cases 400 --seed 1      every node type the fuzzer covers, 400 each
//   options: --batch 40 (cases per n8n run), --parallel 4 (engine runs at once), --shrink 10 (differences to shrink, one per kind),
//            --fixtures (write each shrunk difference as an fz-* oracle fixture), --report file.json
//            --all-diffs (the report lists every differing case, not one per kind)
//
// Cases come from n8n's own node descriptions (params.ts) and inputs of the shapes that break
// engines (values.ts), seeded: the same seed gives the same cases. n8n's answers are cached by
// case hash (n8n-runner.ts), so only new cases start n8n (the oracle's install, on FUZZ_PORT,
// default 5690, with its own data folder). Never part of `npm test`: only the fixtures are.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeRegistry } from '../../src/services/workflow/nodes/registry.js';
import { cacheDir, n8nBin } from '../oracle/install.mjs';
import type { N8nClient } from '../oracle/n8n-server.mjs';
import { startN8n } from '../oracle/n8n-server.mjs';
import { caseHash, descriptionOf, generateCase, type FuzzCase } from './cases.js';
import { parameterIssues } from './n8n-issues.js';
import { writeFixture } from './fixture.js';
import { differences, runAllOnHamlet, runOnHamlet, startHamlet } from './hamlet-runner.js';
import { cached, n8nAnswers, type Answer } from './n8n-runner.js';
import type { NodeDescription } from './params.js';
import { shrink } from './shrink.js';

/** Node types the engine runs that the fuzzer leaves out, and why. */
const NOT_FUZZED: Record<string, string> = {
  manualTrigger: 'the run’s own trigger',
  webhook: 'a trigger (HTTP cases: the oracle’s families)',
  scheduleTrigger: 'a trigger',
  cron: 'a trigger',
  errorTrigger: 'a trigger',
  executeWorkflowTrigger: 'a trigger',
  executeWorkflow: 'needs sub-workflows in both instances',
  dataTable: 'needs the same data tables in both instances (the dt-* oracle cases cover it)',
  httpRequest: 'network (the echo-server families cover it)',
  readWriteFile: 'the disk: n8n and the engine read and write different folders (its own tests confine it)',
  respondToWebhook: 'answers a webhook call',
  wait: 'waits on the clock or a call',
  convertToFile: 'binary data (another helper’s)',
  extractFromFile: 'binary data (another helper’s)',
  readPDF: 'needs a PDF on the item (the pdf-* oracle cases and test/workflow/pdf.test.ts cover it)',
};

function args() {
  const a = process.argv.slice(2);
  const get = (k: string, d?: string) => {
    const i = a.indexOf(`--${k}`);
    return i >= 0 ? a[i + 1] : d;
  };
  return {
    node: get('node', 'all')!,
    cases: Number(get('cases', '100')),
    seed: get('seed', '1')!,
    batch: Number(get('batch', '40')),
    shrink: Number(get('shrink', '0')),
    fixtures: a.includes('--fixtures'),
    report: get('report'),
    parallel: Number(get('parallel', '4')),
    allDiffs: a.includes('--all-diffs'),
  };
}

function descriptions(): Map<string, NodeDescription[]> {
  const file = process.env.FUZZ_NODES_JSON ?? join(cacheDir(), 'node_modules/n8n-nodes-base/dist/types/nodes.json');
  const all = JSON.parse(readFileSync(file, 'utf8')) as NodeDescription[];
  const by = new Map<string, NodeDescription[]>();
  for (const d of all) by.set(d.name, [...(by.get(d.name) ?? []), d]);
  return by;
}

function fuzzedTypes(descs: Map<string, NodeDescription[]>): string[] {
  return nodeRegistry
    .types()
    .filter((t) => t.startsWith('n8n-nodes-base.'))
    .map((t) => t.slice('n8n-nodes-base.'.length))
    .filter((t) => !(t in NOT_FUZZED) && descs.has(t))
    .sort();
}

/** A difference's kind: the node type and the first problem with indices and values cut, so one bug is shrunk once. */
function kindOf(c: FuzzCase, problems: string[]): string {
  const first = (problems[0] ?? '').replace(/\/\d+/g, '/#').replace(/:.*$/, '');
  return `${c.type}@${c.typeVersion} ${first}`;
}

async function main() {
  const o = args();
  const descs = descriptions();
  const types = o.node === 'all' ? fuzzedTypes(descs) : [o.node.replace(/^n8n-nodes-base\./, '')];
  for (const t of types) if (!descs.has(t)) throw new Error(`n8n has no node type ${t}`);
  // Only cases n8n agrees to run (its own parameter check): a draw it refuses is redrawn.
  let redrawn = 0;
  const accept = (d: NodeDescription, c: FuzzCase) => {
    const ok = parameterIssues(d, c) === null;
    if (!ok) redrawn++;
    return ok;
  };
  const valid = (c: FuzzCase) => parameterIssues(descriptionOf(descs.get(c.type)!, c), c) === null;
  const cases = types.flatMap((t) =>
    Array.from({ length: o.cases }, (_, i) => generateCase(descs.get(t)!, o.seed, i, accept)),
  );
  console.log(
    `[fuzz] ${cases.length} cases over ${types.length} node types, seed ${o.seed} (${redrawn} draws n8n would refuse for their parameters were redrawn)`,
  );

  const hamlet = await startHamlet();
  let n8n: N8nClient | undefined;
  const ensureN8n = async () => {
    if (n8n) return n8n;
    // Installing n8n takes minutes and gigabytes: `npm run oracle` does it once; the fuzzer only uses it.
    const dir = cacheDir();
    // An install under way (its binary not yet linked) is waited for, up to FUZZ_WAIT_INSTALL_S seconds.
    const until = Date.now() + 1000 * Number(process.env.FUZZ_WAIT_INSTALL_S ?? 0);
    while (!existsSync(n8nBin(dir)) && Date.now() < until) await new Promise((r) => setTimeout(r, 10_000));
    if (!existsSync(n8nBin(dir)))
      throw new Error(`n8n is not installed in ${dir}: run \`node scripts/oracle/install.mjs\` first`);
    process.env.ORACLE_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'hamlet-fuzz-n8n-'));
    console.log('[fuzz] starting n8n…');
    n8n = await startN8n(dir, Number(process.env.FUZZ_PORT ?? 5690));
    n8n.versionCli = await n8n.version();
    return n8n;
  };
  try {
    const ours = await runAllOnHamlet(hamlet, cases, o.parallel, (s) => console.log(`[fuzz] ${s}`));
    console.log('[fuzz] engine runs done');
    const predictedErrors = new Set(cases.filter((c) => ours.get(c)!.status !== 'success'));
    const need = cases.some((c) => !cached(c));
    const answers = await n8nAnswers(need ? await ensureN8n() : undefined, cases, {
      batchSize: o.batch,
      parallel: o.parallel,
      predictedErrors,
      log: (s) => console.log(`[fuzz] ${s}`),
    });

    const perType = new Map<string, { cases: number; match: number }>();
    const diffs: Array<{ c: FuzzCase; problems: string[] }> = [];
    // Cases n8n never finished (it could not save the run) say nothing of the engine: counted apart.
    const unfinished = cases.filter((c) => answers.get(c)!.status === 'unfinished');
    if (unfinished.length)
      console.log(
        `[fuzz] ${unfinished.length} cases left out: n8n did not finish their run (${[...new Set(unfinished.map((c) => `${c.type}@${c.typeVersion}`))].join(', ')})`,
      );
    // A case that differs is run on n8n a second time (later, cached apart): values that changed
    // between n8n's two runs (the clock's) are volatile, as the oracle's recorder finds them.
    const differing = cases.filter(
      (c) =>
        answers.get(c)!.status !== 'unfinished' && differences(answers.get(c)!, ours.get(c)!, hamlet.url).length > 0,
    );
    const again = await n8nAnswers(
      differing.some((c) => !cached(c, 'again')) ? await ensureN8n() : undefined,
      differing,
      { variant: 'again', batchSize: o.batch, parallel: o.parallel, log: (s) => console.log(`[fuzz] again: ${s}`) },
    );
    for (const c of cases) {
      if (answers.get(c)!.status === 'unfinished') continue;
      const problems = differences(answers.get(c)!, ours.get(c)!, hamlet.url, again.get(c));
      const t = perType.get(c.type) ?? { cases: 0, match: 0 };
      t.cases++;
      if (problems.length === 0) t.match++;
      else diffs.push({ c, problems });
      perType.set(c.type, t);
    }
    const kinds = new Map<string, { c: FuzzCase; problems: string[]; count: number }>();
    for (const d of diffs) {
      const k = kindOf(d.c, d.problems);
      const seen = kinds.get(k);
      if (seen) seen.count++;
      else kinds.set(k, { ...d, count: 1 });
    }
    console.log('\n| node type | cases | match | rate |\n|---|---:|---:|---:|');
    let total = 0;
    let matched = 0;
    for (const [t, r] of [...perType].sort()) {
      total += r.cases;
      matched += r.match;
      console.log(`| ${t} | ${r.cases} | ${r.match} | ${((100 * r.match) / r.cases).toFixed(1)} % |`);
    }
    console.log(`| all | ${total} | ${matched} | ${((100 * matched) / total).toFixed(2)} % |\n`);
    for (const [k, v] of kinds)
      console.log(`[diff] ${v.count}× ${k}\n    ${caseHash(v.c)} ${v.problems.slice(0, 3).join('\n    ')}`);

    const shrunk: Array<{ kind: string; c: FuzzCase; problems: string[]; fixture?: string }> = [];
    for (const [kind, v] of [...kinds].slice(0, o.shrink)) {
      const judge = async (cands: FuzzCase[]) => {
        const a = await n8nAnswers(cands.some((x) => !cached(x)) ? await ensureN8n() : undefined, cands, {
          batchSize: o.batch,
        });
        const res: boolean[] = [];
        const runs = await runAllOnHamlet(hamlet, cands, o.parallel);
        for (const x of cands) res.push(differences(a.get(x)!, runs.get(x)!, hamlet.url).length > 0);
        return res;
      };
      const small = await shrink(v.c, judge, valid);
      const a = (await n8nAnswers(cached(small) ? undefined : await ensureN8n(), [small])).get(small) as Answer;
      const problems = differences(a, await runOnHamlet(hamlet, small), hamlet.url);
      const entry: (typeof shrunk)[number] = { kind, c: small, problems };
      if (o.fixtures) entry.fixture = await writeFixture(await ensureN8n(), small);
      shrunk.push(entry);
      console.log(
        `[shrunk] ${kind}${entry.fixture ? ` → ${entry.fixture}` : ''}\n  ${JSON.stringify(small)}\n  ${problems.slice(0, 4).join('\n  ')}`,
      );
    }
    if (o.report)
      writeFileSync(
        o.report,
        JSON.stringify(
          {
            seed: o.seed,
            perType: Object.fromEntries(perType),
            unfinished: unfinished.map((c) => ({ hash: caseHash(c), case: c })),
            kinds: [...kinds].map(([k, v]) => ({
              kind: k,
              count: v.count,
              hash: caseHash(v.c),
              case: v.c,
              problems: v.problems.slice(0, 6),
            })),
            shrunk,
            // Every differing case (the kinds above show one each), for reading a node's differences in full.
            ...(o.allDiffs
              ? { diffs: diffs.map((d) => ({ hash: caseHash(d.c), case: d.c, problems: d.problems.slice(0, 6) })) }
              : {}),
          },
          null,
          2,
        ),
      );
  } finally {
    n8n?.stop();
    await hamlet.stop();
  }
}

await main();
