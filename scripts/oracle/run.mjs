// `npm run oracle`: installs n8n 2.8.4 outside the repository (once), starts it on loopback,
// imports every workflow of the oracle fixture folder, runs each case twice and writes the
// expected outputs in the corpus format. Never part of `npm test` or .ci/run.
//
//   npm run oracle                      every case file
//   npm run oracle -- merge set-3.4     only case files whose name contains one of these words
//
// Fixture layout (test/fixtures/n8n-oracle): workflows/<name>.json (n8n export format),
// cases/<name>.json ({workflow, volatileKeys?, volatileShapes?, unorderedPaths?, credentials?,
// errorWorkflow?, subWorkflows?, dataTables?, cases:[{name, trigger}]}), expected/<name>.json (written here).
// `credentials` are created in n8n first and the workflow's references (by type and name) pointed
// at them; `errorWorkflow` names a second workflow file that is created, published and set as the
// workflow's settings.errorWorkflow: the cases record its run; `subWorkflows` are workflow files
// created under the `id` they carry (and published when their `active` says so), for Execute
// Workflow nodes that name them by id; `dataTables` ([{name, columns, rows}]) are created through
// n8n's public API before the import (Data Table references naming one by id get its id) and reset
// to their seed rows before every run (test/fixtures/n8n-oracle/data-tables.mjs).
// Random output: `volatileShapes` records the form of the volatile values (type, length, uuid/hex/
// base64/ascii) for the suite to check; arrays at `unorderedPaths` compare as multisets.
// A manual run n8n refuses is recorded as `refused: {status, message}` (the engine must refuse
// it with a 4xx and the same message).
// A trigger with `resume` makes a second request, to the `resumeUrl` of the first answer, once
// the execution waits (a Wait on its webhook); `response.resume` records that answer.
// Redirects are never followed: a 3xx status and its Location are the recorded answer.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureInstalled, N8N_VERSION } from './install.mjs';
import { startN8n } from './n8n-server.mjs';
import { captureCase, dropPaths, orderUnordered, shapeOf, valueAt, volatilePaths } from './capture.mjs';
import { ECHO_BASE, startEchoServer } from '../../test/fixtures/n8n-oracle/echo-server.mjs';
import {
  createDataTables,
  deleteDataTables,
  pointAtDataTables,
  resetDataTables,
} from '../../test/fixtures/n8n-oracle/data-tables.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURES = process.env.ORACLE_FIXTURES ?? join(ROOT, 'test/fixtures/n8n-oracle');
const PORT = Number(process.env.ORACLE_PORT ?? 5688);

// The public API accepts only these keys on create (others get 400, pinData too): a workflow's
// pinData goes with its manual run instead (the fuzzer's fz-* cases pin their input items).
const WORKFLOW_KEYS = ['name', 'nodes', 'connections', 'settings', 'staticData'];
const NODE_KEYS = [
  'id',
  'name',
  'type',
  'typeVersion',
  'position',
  'parameters',
  'credentials',
  'disabled',
  'notes',
  'notesInFlow',
  'executeOnce',
  'alwaysOutputData',
  'retryOnFail',
  'maxTries',
  'waitBetweenTries',
  'onError',
  'continueOnFail',
  'webhookId',
];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function forUpload(wf) {
  const body = Object.fromEntries(WORKFLOW_KEYS.filter((k) => wf[k] !== undefined).map((k) => [k, wf[k]]));
  body.settings ??= {};
  body.nodes = wf.nodes.map((n) =>
    Object.fromEntries(NODE_KEYS.filter((k) => n[k] !== undefined).map((k) => [k, n[k]])),
  );
  return body;
}

async function executionIds(n8n, workflowId) {
  const r = await n8n.api('GET', `/executions?workflowId=${workflowId}&limit=250`);
  return new Set((r.body.data ?? []).map((e) => e.id));
}

/** `unfinished`: the statuses to wait past ('waiting' too when the case resumes the run itself). */
async function newExecution(n8n, workflowId, seen, unfinished = ['new', 'running']) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const r = await n8n.api('GET', `/executions?workflowId=${workflowId}&limit=20`);
    // The oldest new execution is the case's own: an inline sub-workflow records its run under
    // the same workflow, later (newest first in the list).
    const fresh = (r.body.data ?? []).filter((e) => !seen.has(e.id)).at(-1);
    if (fresh && !unfinished.includes(fresh.status)) {
      const full = await n8n.api('GET', `/executions/${fresh.id}?includeData=true`);
      return full.body;
    }
    await sleep(200);
  }
  throw new Error(`no finished execution for workflow ${workflowId}`);
}

/**
 * One request as a case records it: status, content type, body (parsed when JSON) and, for a
 * redirect, its Location. Redirects are not followed: the answer is the redirect itself, so a
 * case can redirect to a site that need not be reachable.
 */
async function request(url, { method = 'GET', headers = {}, body } = {}, responseAs) {
  const res = await fetch(url, { method, headers, body, redirect: 'manual' });
  // `responseAs: 'base64'`: a file answer recorded as base64, so its bytes compare exactly.
  const text = responseAs === 'base64' ? Buffer.from(await res.arrayBuffer()).toString('base64') : await res.text();
  const contentType = res.headers.get('content-type') ?? '';
  let parsed = text;
  if (contentType.includes('json')) {
    try {
      parsed = JSON.parse(text);
    } catch {
      /* keep the text */
    }
  }
  const location = res.headers.get('location');
  return { status: res.status, contentType, body: parsed, ...(location !== null ? { location } : {}) };
}

/**
 * Waits until the execution is parked as `waiting` (a resume call before that finds nothing to
 * resume). Read by id: n8n's execution list leaves out unfinished executions.
 */
async function waitingExecution(n8n, executionId) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const r = await n8n.api('GET', `/executions/${executionId}`);
    if (r.status === 200 && !['new', 'running'].includes(r.body.status)) return; // waiting, or ended without waiting
    await sleep(100);
  }
  throw new Error(`execution ${executionId} did not come to wait`);
}

/**
 * The second call of a case whose run waits for its resume webhook: to the `resumeUrl` the first
 * answer gave (with the case's extra query), once the execution (the URL's last segment) waits.
 * Undefined when the first answer gave none (the run ended before it could wait).
 */
async function resumeCall(resume, firstAnswer, whenWaiting) {
  const url = firstAnswer.body && typeof firstAnswer.body === 'object' ? firstAnswer.body.resumeUrl : undefined;
  if (typeof url !== 'string') return undefined;
  const target = new URL(url);
  await whenWaiting(target.pathname.split('/').at(-1));
  for (const [k, v] of Object.entries(resume.query ?? {})) target.searchParams.set(k, v);
  return request(target, {
    method: resume.method,
    headers: resume.headers,
    body: resume.body === undefined ? undefined : JSON.stringify(resume.body),
  });
}

/** `recordedId`: the workflow whose execution the case records (the error workflow's, when there is one). */
async function runOnce(n8n, wf, id, spec, recordedId = id) {
  const seen = await executionIds(n8n, recordedId);
  let response;
  if (spec.trigger.kind === 'webhook') {
    const t = spec.trigger;
    // `rawBase64`: a body of any bytes (a multipart upload of a binary file).
    const body =
      t.rawBase64 !== undefined
        ? Buffer.from(t.rawBase64, 'base64')
        : (t.raw ?? (t.body === undefined ? undefined : JSON.stringify(t.body)));
    response = await request(
      `${n8n.base}/webhook/${t.path}`,
      { method: t.method ?? 'GET', headers: t.headers ?? {}, body },
      t.responseAs,
    );
    if (t.resume) {
      const resumed = await resumeCall(t.resume, response, (executionId) => waitingExecution(n8n, executionId));
      if (resumed) response.resume = resumed;
    }
  } else {
    const full = await n8n.api('GET', `/workflows/${id}`);
    const workflowData = wf.pinData ? { ...full.body, pinData: wf.pinData } : full.body;
    const r = await n8n.rest('POST', `/workflows/${id}/run`, {
      workflowData,
      triggerToStartFrom: { name: spec.trigger.trigger },
    });
    // A refused manual run (a node type n8n does not know) is the case's recorded answer.
    if (r.status !== 200)
      return {
        name: spec.name,
        trigger: spec.trigger,
        refused: { status: r.status, message: r.body?.message ?? String(r.body) },
      };
  }
  const exec = await newExecution(
    n8n,
    recordedId,
    seen,
    spec.trigger.resume ? ['new', 'running', 'waiting'] : undefined,
  );
  return captureCase(spec, exec, response, n8n.base);
}

/**
 * Creates the case file's credentials and points the workflow's references (by name) at the ids
 * n8n gave them. Resolves to the ids, for deleting them afterwards.
 */
async function createCredentials(n8n, credentials, wf) {
  const ids = {};
  for (const c of credentials) {
    const r = await n8n.api('POST', '/credentials', { name: c.name, type: c.type, data: c.data });
    if (r.status !== 200) throw new Error(`credential ${c.name}: ${r.status} ${JSON.stringify(r.body)}`);
    ids[`${c.type}/${c.name}`] = r.body.id;
  }
  for (const node of wf.nodes) {
    for (const [type, ref] of Object.entries(node.credentials ?? {})) {
      const found = ids[`${type}/${ref.name}`];
      if (found) node.credentials[type] = { ...ref, id: found };
    }
  }
  return Object.values(ids);
}

/** Records one case file (its expected file is written); `n8n.versionCli` names the version. Also used by the fuzzer. */
export async function recordFile(n8n, file) {
  const caseFile = JSON.parse(readFileSync(join(FIXTURES, 'cases', file), 'utf8'));
  const wf = JSON.parse(readFileSync(join(FIXTURES, 'workflows', caseFile.workflow), 'utf8'));
  const more = {
    ...(caseFile.credentials ? { credentials: caseFile.credentials } : {}),
    ...(caseFile.errorWorkflow ? { errorWorkflow: caseFile.errorWorkflow } : {}),
    ...(caseFile.subWorkflows ? { subWorkflows: caseFile.subWorkflows } : {}),
    ...(caseFile.dataTables ? { dataTables: caseFile.dataTables } : {}),
  };
  const out = { workflow: caseFile.workflow, producedBy: `n8n ${n8n.versionCli}`, ...more, cases: [] };
  const credentialIds = await createCredentials(n8n, caseFile.credentials ?? [], wf);
  const api = (method, path, body) => n8n.api(method, path, body);
  const tableIds = await createDataTables(api, caseFile.dataTables);
  pointAtDataTables(wf, tableIds);
  const beforeRun = () => resetDataTables(api, caseFile.dataTables, tableIds);
  // Sub-workflows called by id: created under the id their file gives. n8n's public API refuses an
  // `id` (read-only); its editor's endpoint keeps it, as importing a workflow file does.
  const subWorkflowIds = [];
  for (const subFile of caseFile.subWorkflows ?? []) {
    const sub = JSON.parse(readFileSync(join(FIXTURES, 'workflows', subFile), 'utf8'));
    const created = await n8n.rest('POST', '/workflows', { ...forUpload(sub), id: sub.id });
    if (created.status !== 200 || created.body.data?.id !== sub.id)
      throw new Error(`sub-workflow ${subFile}: ${created.status} ${JSON.stringify(created.body).slice(0, 300)}`);
    subWorkflowIds.push(sub.id);
    // Published as its file says (n8n 2.x publishes a workflow only when the sub-workflows it calls are).
    if (sub.active) {
      const act = await n8n.api('POST', `/workflows/${sub.id}/activate`);
      if (act.status !== 200)
        throw new Error(`sub-workflow ${subFile} activation: ${act.status} ${JSON.stringify(act.body)}`);
    }
  }
  // An error workflow: created first, named in the workflow's settings; the cases record its run.
  let errorWorkflowId;
  if (caseFile.errorWorkflow) {
    const errorWf = JSON.parse(readFileSync(join(FIXTURES, 'workflows', caseFile.errorWorkflow), 'utf8'));
    const created = await n8n.api('POST', '/workflows', forUpload(errorWf));
    if (created.status !== 200) throw new Error(`error workflow: ${created.status} ${JSON.stringify(created.body)}`);
    errorWorkflowId = created.body.id;
    // n8n 2.x runs only a published (active) error workflow.
    const act = await n8n.api('POST', `/workflows/${errorWorkflowId}/activate`);
    if (act.status !== 200) throw new Error(`error workflow activation: ${act.status} ${JSON.stringify(act.body)}`);
    wf.settings = { ...wf.settings, errorWorkflow: errorWorkflowId };
  }
  try {
    return await recordWorkflow(n8n, file, caseFile, wf, out, errorWorkflowId, beforeRun);
  } finally {
    await deleteDataTables(api, tableIds);
    for (const id of credentialIds) await n8n.api('DELETE', `/credentials/${id}`);
    if (errorWorkflowId) await n8n.api('DELETE', `/workflows/${errorWorkflowId}`);
    for (const id of subWorkflowIds) {
      await n8n.api('POST', `/workflows/${id}/deactivate`);
      await n8n.api('DELETE', `/workflows/${id}`);
    }
  }
}

async function recordWorkflow(n8n, file, caseFile, wf, out, errorWorkflowId, beforeRun = async () => {}) {
  const created = await n8n.api('POST', '/workflows', forUpload(wf));
  if (created.status !== 200) {
    // A refused import is a recorded outcome too (the engine must refuse it the same way).
    out.import = { status: created.status, body: created.body };
    writeFileSync(join(FIXTURES, 'expected', file), JSON.stringify(out, null, 2) + '\n');
    return out;
  }
  const id = created.body.id;
  try {
    const act = await n8n.api('POST', `/workflows/${id}/activate`);
    if (act.status !== 200) out.activation = { status: act.status, body: act.body };
    const specs = caseFile.cases.filter((spec) => !(out.activation && spec.trigger.kind === 'webhook'));
    // Two passes at least a second apart, so clock readings and random values show as volatile.
    const started = Date.now();
    const firsts = [];
    for (const spec of specs) {
      await beforeRun();
      firsts.push(await runOnce(n8n, wf, id, spec, errorWorkflowId));
    }
    await sleep(Math.max(0, 1100 - (Date.now() - started)));
    for (const [i, spec] of specs.entries()) {
      await beforeRun();
      const second = await runOnce(n8n, wf, id, spec, errorWorkflowId);
      if (firsts[i].refused) {
        out.cases.push(firsts[i]);
        continue;
      }
      const paths = volatilePaths(firsts[i], second, caseFile.volatileKeys, caseFile.unorderedPaths);
      // Random values: what the suite checks instead of the value is the form both runs shared.
      const shapes = caseFile.volatileShapes
        ? Object.fromEntries(
            paths.map((p) => [p, shapeOf(valueAt(firsts[i], p), valueAt(second, p))]).filter(([, shape]) => shape),
          )
        : {};
      const c = orderUnordered(dropPaths(firsts[i], paths), caseFile.unorderedPaths);
      if (paths.length) c.droppedVolatilePaths = paths;
      if (Object.keys(shapes).length) c.volatileShapes = shapes;
      if (caseFile.unorderedPaths) c.unorderedPaths = caseFile.unorderedPaths;
      out.cases.push(c);
    }
  } finally {
    await n8n.api('POST', `/workflows/${id}/deactivate`);
    await n8n.api('DELETE', `/workflows/${id}`);
  }
  writeFileSync(join(FIXTURES, 'expected', file), JSON.stringify(out, null, 2) + '\n');
  return out;
}

async function main() {
  const filters = process.argv.slice(2);
  const dir = await ensureInstalled();
  const files = readdirSync(join(FIXTURES, 'cases'))
    .filter((f) => f.endsWith('.json'))
    .filter((f) => filters.length === 0 || filters.some((w) => f.includes(w)))
    .sort();
  if (!existsSync(join(FIXTURES, 'expected'))) mkdirSync(join(FIXTURES, 'expected'));
  console.log(`[oracle] starting n8n ${N8N_VERSION} on 127.0.0.1:${PORT}…`);
  // The HTTP Request cases call it; the test starts the same server at the same address.
  const stopEcho = await startEchoServer();
  console.log(`[oracle] echo server on ${ECHO_BASE}`);
  const n8n = await startN8n(dir, PORT);
  n8n.versionCli = await n8n.version();
  let cases = 0;
  const failures = [];
  try {
    for (const file of files) {
      try {
        const out = await recordFile(n8n, file);
        cases += out.cases.length;
        console.log(
          `[oracle] ${file}: ${out.cases.length} cases${out.activation ? ` (activation ${out.activation.status})` : ''}`,
        );
      } catch (e) {
        failures.push(`${file}: ${e.message}`);
        console.log(`[oracle] ${file}: FAILED ${e.message}`);
      }
    }
  } finally {
    n8n.stop();
    await stopEcho();
  }
  console.log(
    `[oracle] recorded ${cases} cases from ${files.length - failures.length}/${files.length} files with n8n ${n8n.versionCli}`,
  );
  if (failures.length) process.exitCode = 1;
}

// Imported by the fuzzer (scripts/fuzz) for recordFile: main runs only as a script.
if (import.meta.url === `file://${process.argv[1]}`) await main();
