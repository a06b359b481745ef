// The oracle cases that the conformance run's findings became (test/fixtures/n8n-oracle, `nt-*`):
// each behaviour where Hamlet differed from n8n 2.8.4 on n8n's own node tests, rewritten here as
// a workflow of this project's own, with inputs chosen to pin the rule down (not n8n's test data).
//   node scripts/n8n-node-tests/cases.mjs     rewrites every nt-* workflow and case file
//   npm run oracle -- nt-                      records n8n 2.8.4's answers for them
// Workflows: Webhook (POST, answers with the last node's items) → "Input" (a Code node turning
// body.items into items; with `inputs: 2`, "A" and "B" from body.a and body.b) → the nodes under
// test, each fed by the input(s) (fan-out), or chained when `chain` is set.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CASES } from './cases-list.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = join(ROOT, 'test/fixtures/n8n-oracle');

function ids(name) {
  const prefix = createHash('sha256').update(`nt-${name}`).digest('hex').slice(0, 8);
  let n = 0;
  return () => `${prefix}-0000-4000-8000-${String(++n).padStart(12, '0')}`;
}

const code = (name, field, id, y) => ({
  id: id(),
  name,
  type: 'n8n-nodes-base.code',
  typeVersion: 2,
  position: [220, y],
  parameters: { jsCode: `return ($json.body.${field} ?? []).map((j) => ({ json: j }));` },
});

/** One case entry → the workflow and its case file. */
function build(entry) {
  const id = ids(entry.name);
  const path = `nt-${entry.name}`;
  const nodes = [];
  const connections = {};
  const link = (from, to, index = 0, output = 0) => {
    const outs = (connections[from] ??= { main: [] }).main;
    while (outs.length <= output) outs.push([]);
    outs[output].push({ node: to, type: 'main', index });
  };
  // `manual` starts at a Manual Trigger, or at the node `manual` describes ({type, typeVersion}).
  const manual = Boolean(entry.manual);
  const start = typeof entry.manual === 'object' ? entry.manual : { type: 'manualTrigger', typeVersion: 1 };
  if (manual)
    nodes.push({
      id: id(),
      name: 'Manual',
      type: `n8n-nodes-base.${start.type}`,
      typeVersion: start.typeVersion,
      position: [0, 0],
      parameters: {},
    });
  else {
    nodes.push({
      id: id(),
      name: 'Webhook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      position: [0, 0],
      webhookId: id(),
      parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
    });
  }
  const first = manual ? 'Manual' : 'Webhook';
  const sources = [];
  if (!manual && entry.inputs === 2) {
    nodes.push(code('A', 'a', id, -100), code('B', 'b', id, 100));
    link(first, 'A');
    link(first, 'B');
    sources.push('A', 'B');
  } else if (!manual) {
    nodes.push(code('Input', 'items', id, 0));
    link(first, 'Input');
    sources.push('Input');
  } else sources.push(first);
  entry.nodes.forEach((n, i) => {
    const { name, type, typeVersion, parameters = {}, ...extra } = n;
    nodes.push({
      id: id(),
      name,
      type: type.includes('.') ? type : `n8n-nodes-base.${type}`,
      typeVersion,
      position: [440 + 220 * (entry.chain ? i : 0), entry.chain ? 0 : 160 * i],
      parameters,
      ...extra,
    });
  });
  if (entry.connections) {
    for (const [from, outs] of Object.entries(entry.connections))
      outs.forEach((targets, output) => targets.forEach(([to, index = 0]) => link(from, to, index, output)));
  } else if (entry.chain) {
    let prev = sources[0];
    for (const n of entry.nodes) {
      link(prev, n.name);
      prev = n.name;
    }
  } else {
    for (const n of entry.nodes) sources.forEach((s, index) => link(s, n.name, index));
  }
  const workflow = {
    name: `nt ${entry.name}`,
    nodes,
    connections,
    settings: entry.settings ?? { executionOrder: 'v1' },
  };
  const cases = manual
    ? [{ name: 'manual', trigger: { kind: 'manual', trigger: 'Manual' } }]
    : Object.entries(entry.bodies).map(([name, body]) => ({
        name,
        trigger: {
          kind: 'webhook',
          method: 'POST',
          path,
          body: Array.isArray(body) ? { items: body } : body,
          headers: { 'content-type': 'application/json' },
        },
      }));
  const more = {
    ...(entry.credentials ? { credentials: entry.credentials } : {}),
    ...(entry.volatileKeys ? { volatileKeys: entry.volatileKeys } : {}),
    ...(entry.volatileShapes ? { volatileShapes: entry.volatileShapes } : {}),
  };
  return { workflow, cases: { workflow: `nt-${entry.name}.json`, ...more, cases } };
}

for (const sub of ['workflows', 'cases']) {
  mkdirSync(join(OUT, sub), { recursive: true });
  for (const f of readdirSync(join(OUT, sub))) if (f.startsWith('nt-')) rmSync(join(OUT, sub, f));
}
const seen = new Set();
let count = 0;
for (const entry of CASES) {
  if (seen.has(entry.name)) throw new Error(`duplicate case name ${entry.name}`);
  seen.add(entry.name);
  const { workflow, cases } = build(entry);
  writeFileSync(join(OUT, 'workflows', `nt-${entry.name}.json`), JSON.stringify(workflow, null, 2) + '\n');
  writeFileSync(join(OUT, 'cases', `nt-${entry.name}.json`), JSON.stringify(cases, null, 2) + '\n');
  count += cases.cases.length;
}
console.log(`${seen.size} nt-* workflows, ${count} cases`);
