// Writes the hand-made oracle workflows and their cases (test/fixtures/n8n-oracle/workflows and
// cases). The JSON it writes is committed; `npm run oracle` then records n8n's outputs for them.
//   node scripts/oracle/generate-cases.mjs
// Each workflow: Webhook (POST, answers with all items of the last node) → "Input" (a Code node that
// turns body.items into items) → the node(s) under test. Cases differ only in the items sent.
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALL_INPUTS, INPUTS } from './inputs.mjs';
import { NODE_FAMILIES } from './families-nodes.mjs';
import { ENGINE_FAMILIES } from './families-engine.mjs';
import { HTTP_FAMILIES } from './families-http.mjs';
import { TRIGGER_FAMILIES } from './families-triggers.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = join(ROOT, 'test/fixtures/n8n-oracle');

// Node and webhook ids: a prefix from the workflow's name and a counter within the workflow, so
// adding a family never changes the ids of the others.
let idPrefix = '00000000';
let uuid = 0;
const id = () => `${idPrefix}-0000-4000-8000-${String(++uuid).padStart(12, '0')}`;
function startIds(name) {
  idPrefix = createHash('sha256').update(name).digest('hex').slice(0, 8);
  uuid = 0;
}

function webhookNode(path, responseData = 'allEntries', responseMode = 'lastNode', extra = {}, typeVersion = 2) {
  return {
    id: id(),
    name: 'Webhook',
    type: 'n8n-nodes-base.webhook',
    typeVersion,
    position: [0, 0],
    webhookId: id(),
    parameters: {
      httpMethod: 'POST',
      path,
      responseMode,
      ...(responseMode === 'lastNode' ? { responseData } : {}),
      options: {},
      ...extra,
    },
  };
}

function inputNode(name = 'Input', field = 'items', y = 0) {
  return {
    id: id(),
    name,
    type: 'n8n-nodes-base.code',
    typeVersion: 2,
    position: [220, y],
    parameters: { jsCode: `return ($json.body.${field} ?? []).map((j) => ({ json: j }));` },
  };
}

function withDefaults(n, i) {
  return { id: id(), position: [440 + 220 * i, 0], parameters: {}, ...n };
}

/** A family entry → workflow JSON + case file. */
function build(entry) {
  startIds(entry.name);
  const path = `oracle-${entry.name}`;
  let nodes;
  let connections;
  if (entry.graph) {
    // Custom graphs name their own nodes; the Webhook is added and connected to `entry.graph.from`.
    const g = entry.graph;
    const hook = g.from.length ? [webhookNode(path, entry.responseData, entry.responseMode)] : [];
    nodes = [...hook, ...g.nodes.map(withDefaults)];
    connections = {
      ...(hook.length ? { Webhook: { main: [g.from.map((n) => ({ node: n, type: 'main', index: 0 }))] } } : {}),
      ...g.connections,
    };
  } else {
    const chain = entry.nodes.map(withDefaults);
    nodes = [
      webhookNode(path, entry.responseData, entry.responseMode, entry.webhook, entry.webhookVersion),
      inputNode(),
      ...chain,
    ];
    const names = ['Webhook', 'Input', ...chain.map((n) => n.name)];
    connections = {};
    for (let i = 0; i < names.length - 1; i++)
      connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
  }
  const workflow = {
    name: entry.workflowName ?? `oracle ${entry.name}`,
    nodes,
    connections,
    settings: entry.settings ?? { executionOrder: 'v1' },
  };
  const bodies = entry.bodies ?? Object.fromEntries((entry.inputs ?? ALL_INPUTS).map((k) => [k, { items: INPUTS[k] }]));
  const cases = Object.entries(bodies).map(([name, body]) => ({
    name,
    trigger: {
      kind: 'webhook',
      method: 'POST',
      path,
      body,
      headers: { 'content-type': 'application/json' },
      ...(entry.resume ? { resume: entry.resume } : {}),
    },
  }));
  if (entry.manual) cases.push({ name: 'manual', trigger: { kind: 'manual', trigger: entry.manual } });
  // Credentials the workflow's nodes reference by name: `npm run oracle` and the suite create them
  // first and point the references at the ids they got.
  // An error workflow (settings.errorWorkflow) is its own file; the cases record its run.
  const errorWorkflow = entry.errorWorkflow
    ? {
        name: `oracle ${entry.name} (error workflow)`,
        nodes: entry.errorWorkflow.nodes.map(withDefaults),
        connections: entry.errorWorkflow.connections,
        settings: { executionOrder: 'v1' },
      }
    : undefined;
  // Sub-workflows called from the database by id: each its own file, with the `id` it is imported
  // under and whether it is published (`active`, as in an n8n export).
  const subWorkflows = (entry.subWorkflows ?? []).map((w) => ({
    id: w.id,
    name: w.name,
    active: w.active ?? true,
    nodes: w.nodes.map(withDefaults),
    connections: w.connections,
    settings: { executionOrder: 'v1' },
  }));
  const more = {
    ...(entry.volatileKeys ? { volatileKeys: entry.volatileKeys } : {}),
    ...(entry.volatileShapes ? { volatileShapes: true } : {}),
    ...(entry.unorderedPaths ? { unorderedPaths: entry.unorderedPaths } : {}),
    ...(subWorkflows.length
      ? { subWorkflows: subWorkflows.map((w, i) => `${entry.name}--sub-workflow${i ? `-${i + 1}` : ''}.json`) }
      : {}),
    ...(entry.credentials ? { credentials: entry.credentials } : {}),
    // Data tables the workflow's Data Table nodes use: created (and reset before each run) by
    // `npm run oracle` and the suite through each side's public API.
    ...(entry.dataTables ? { dataTables: entry.dataTables } : {}),
    ...(errorWorkflow ? { errorWorkflow: `${entry.name}--error-workflow.json` } : {}),
  };
  return { workflow, errorWorkflow, subWorkflows, cases: { workflow: `${entry.name}.json`, ...more, cases } };
}

rmSync(join(OUT, 'workflows'), { recursive: true, force: true });
rmSync(join(OUT, 'cases'), { recursive: true, force: true });
mkdirSync(join(OUT, 'workflows'), { recursive: true });
mkdirSync(join(OUT, 'cases'), { recursive: true });
let count = 0;
const seen = new Set();
for (const entry of [...NODE_FAMILIES, ...ENGINE_FAMILIES, ...HTTP_FAMILIES, ...TRIGGER_FAMILIES]) {
  if (seen.has(entry.name)) throw new Error(`duplicate case name ${entry.name}`);
  seen.add(entry.name);
  const { workflow, errorWorkflow, subWorkflows, cases } = build(entry);
  writeFileSync(join(OUT, 'workflows', `${entry.name}.json`), JSON.stringify(workflow, null, 2) + '\n');
  if (errorWorkflow)
    writeFileSync(join(OUT, 'workflows', cases.errorWorkflow), JSON.stringify(errorWorkflow, null, 2) + '\n');
  subWorkflows.forEach((w, i) =>
    writeFileSync(join(OUT, 'workflows', cases.subWorkflows[i]), JSON.stringify(w, null, 2) + '\n'),
  );
  writeFileSync(join(OUT, 'cases', `${entry.name}.json`), JSON.stringify(cases, null, 2) + '\n');
  count += cases.cases.length;
}
console.log(`${seen.size} workflows, ${count} cases`);
export { inputNode };
