// Runs a folder of recorded n8n cases (corpus format: workflows/, expected/) against the engine,
// with the corpus README's comparison rule (corpus-compare.ts). Used by the shared corpus and by
// the oracle's own cases. A case listed in `knownDifferences` is expected to differ: it passes
// while it differs and fails once it matches, so the list only ever shrinks honestly.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compareCase, type CaseExpectation, type RecordedAnswer, type ResumeCall } from './corpus-compare.js';
import { startWorkflowServer, type WorkflowTestServer } from './helpers.js';
import { waitFor } from '../helpers/wait.js';
import {
  createDataTables,
  deleteDataTables,
  pointAtDataTables,
  resetDataTables,
  type DeclaredDataTable,
} from '../fixtures/n8n-oracle/data-tables.mjs';

interface ExpectedFile {
  workflow: string;
  producedBy?: string;
  /** n8n refused the import: its status (the engine must refuse too). */
  import?: { status: number; body: unknown };
  /** n8n refused activation: its status and body. */
  activation?: { status: number; body: { message?: string } };
  /** Credentials the workflow's nodes reference by type and name; created before the import. */
  credentials?: Array<{ type: string; name: string; data: Record<string, unknown> }>;
  /** A workflow file named as the workflow's settings.errorWorkflow; the cases record its run. */
  errorWorkflow?: string;
  /** Workflow files with a fixed `id`, imported under that id first (Execute Workflow calls them by it). */
  subWorkflows?: string[];
  /** Data tables created before the import and reset to their seed rows before every run. */
  dataTables?: DeclaredDataTable[];
  cases: CaseExpectation[];
}

export function defineCorpusSuite(opts: {
  title: string;
  dir: string;
  knownDifferences?: Record<string, string>;
  /** The expected files record import and activation outcomes (the oracle's do; the corpus's do not). */
  checkImport?: boolean;
}): void {
  const known = opts.knownDifferences ?? {};
  const files = readdirSync(path.join(opts.dir, 'expected'))
    .filter((f) => f.endsWith('.json'))
    .sort();
  const results: Array<{ name: string; ok: boolean; known: boolean; problems: string[]; warnings: string[] }> = [];
  let s: WorkflowTestServer;

  beforeAll(async () => {
    s = await startWorkflowServer({ env: { HAMLET_ALLOW_INTERNAL_REQUESTS: '1' } });
  }, 60_000);

  afterAll(async () => {
    await s?.stop();
    const passed = results.filter((r) => r.ok).length;
    console.log(
      `\n${opts.title}: ${passed}/${results.length} cases match n8n (${results.filter((r) => r.known && !r.ok).length} known differences)`,
    );
    for (const r of results)
      if (!r.ok && !r.known) console.log(`  FAIL ${r.name}\n    ${r.problems.slice(0, 8).join('\n    ')}`);
    if (process.env.CORPUS_VERBOSE)
      for (const r of results) for (const w of r.warnings) console.log(`  warning ${r.name}: ${w}`);
  });

  /**
   * The case's execution: the oldest one not in `after` (an inline sub-workflow records a later
   * one under the same workflow), once its status is none of `unfinished`.
   */
  async function finishedExecution(
    workflowId: string,
    after: Set<string>,
    unfinished = ['new', 'running'],
  ): Promise<any> {
    const list = await s.api('GET', `/executions?workflowId=${workflowId}&includeData=true&limit=5`);
    const own = (list.body.data as any[]).filter((e) => !after.has(e.id)).at(-1);
    return own && !unfinished.includes(own.status) ? own : undefined;
  }

  /** A request as the recorder makes it: redirects are answers, not followed. */
  async function request(
    url: string,
    init: { method?: string; body?: string | Uint8Array<ArrayBuffer>; headers?: Record<string, string> },
    responseAs?: 'base64',
  ): Promise<RecordedAnswer> {
    const res = await fetch(url, { ...init, redirect: 'manual' });
    // A file answer is recorded as base64 when the case asks, so bytes compare exactly.
    const text = responseAs === 'base64' ? Buffer.from(await res.arrayBuffer()).toString('base64') : await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : text;
    } catch {
      /* not JSON */
    }
    const location = res.headers.get('location');
    return {
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      body,
      ...(location !== null ? { location } : {}),
    };
  }

  /** As the recorder: once the run (the URL's last segment) waits, the second call goes to the resume URL the first answer gave. */
  async function resumeCall(resume: ResumeCall, first: RecordedAnswer): Promise<RecordedAnswer | undefined> {
    const url =
      first.body && typeof first.body === 'object' ? (first.body as { resumeUrl?: unknown }).resumeUrl : undefined;
    if (typeof url !== 'string') return undefined;
    const target = new URL(url);
    const executionId = target.pathname.split('/').at(-1);
    await waitFor(
      async () => {
        const r = await s.api('GET', `/executions/${executionId}`);
        return r.status === 200 && !['new', 'running'].includes(r.body.status);
      },
      { timeoutMs: 20_000, message: `execution ${executionId} to wait` },
    );
    for (const [k, v] of Object.entries(resume.query ?? {})) target.searchParams.set(k, v);
    return request(target.href, {
      method: resume.method,
      headers: resume.headers,
      body: resume.body === undefined ? undefined : JSON.stringify(resume.body),
    });
  }

  /** Creates the file's credentials and points the workflow's references (by type and name) at their ids here. */
  async function withCredentials(
    wf: Record<string, unknown>,
    credentials: ExpectedFile['credentials'] = [],
  ): Promise<string[]> {
    const ids = new Map<string, string>();
    for (const c of credentials) {
      const r = await s.api('POST', '/credentials', c);
      if (r.status !== 200) throw new Error(`credential ${c.name}: ${r.status} ${JSON.stringify(r.body)}`);
      ids.set(`${c.type}/${c.name}`, r.body.id);
    }
    for (const node of (wf.nodes as Array<{ credentials?: Record<string, { id?: string; name: string }> }>) ?? []) {
      for (const [type, ref] of Object.entries(node.credentials ?? {})) {
        const id = ids.get(`${type}/${ref.name}`);
        if (id) ref.id = id;
      }
    }
    return [...ids.values()];
  }

  function settle(name: string, outcome: { problems: string[]; warnings: string[] }): void {
    const isKnown = name in known;
    results.push({ name, ok: outcome.problems.length === 0, known: isKnown, ...outcome });
    if (isKnown)
      expect(outcome.problems.length, `${name} now matches n8n: remove it from the known differences`).toBeGreaterThan(
        0,
      );
    else expect(outcome.problems, name).toEqual([]);
  }

  describe(opts.title, () => {
    for (const file of files) {
      const expected = JSON.parse(readFileSync(path.join(opts.dir, 'expected', file), 'utf8')) as ExpectedFile;
      const workflowPath = path.join(opts.dir, 'workflows', expected.workflow);
      const workflowJson = existsSync(workflowPath) ? readFileSync(workflowPath, 'utf8') : '{}';
      const base = file.replace(/\.json$/, '');
      describe(base, () => {
        let id: string | undefined;
        let created: { status: number; body: any };
        let activated: { status: number; body: any } | undefined;
        let credentialIds: string[] = [];
        let errorWorkflowId: string | undefined;
        const subWorkflowIds: string[] = [];
        let tableIds: Record<string, string> = {};
        /** The workflow as imported, before its Data Table references were pointed at the tables. */
        let imported: Record<string, unknown> = {};
        const api = (method: string, path: string, body?: unknown) => s.api(method, path, body);
        beforeAll(async () => {
          // Called by id: created under the id they were recorded with, as `?keepId=true` allows.
          for (const file of expected.subWorkflows ?? []) {
            const text = readFileSync(path.join(opts.dir, 'workflows', file), 'utf8');
            const sub = await s.api('POST', '/workflows?keepId=true', text);
            if (sub.status !== 200) throw new Error(`sub-workflow ${file}: ${sub.status} ${JSON.stringify(sub.body)}`);
            subWorkflowIds.push(sub.body.id);
            // Published as recorded (its file's `active`, as in an n8n export).
            if ((JSON.parse(text) as { active?: boolean }).active)
              await s.api('POST', `/workflows/${sub.body.id}/activate`);
          }
          // As the files were uploaded to n8n: its public API requires `settings`, so a file
          // without them went up with empty settings (and ran as v0).
          const wf = JSON.parse(workflowJson) as Record<string, unknown>;
          credentialIds = await withCredentials(wf, expected.credentials);
          tableIds = await createDataTables(api, expected.dataTables);
          imported = structuredClone(wf);
          pointAtDataTables(wf, tableIds);
          if (expected.errorWorkflow) {
            const errorWf = await s.api(
              'POST',
              '/workflows',
              readFileSync(path.join(opts.dir, 'workflows', expected.errorWorkflow), 'utf8'),
            );
            errorWorkflowId = errorWf.body.id;
            // As recorded: n8n 2.x runs only a published (active) error workflow.
            await s.api('POST', `/workflows/${errorWorkflowId}/activate`);
            wf.settings = { ...(wf.settings as object | undefined), errorWorkflow: errorWorkflowId };
          }
          created = await s.api('POST', '/workflows', JSON.stringify({ ...wf, settings: wf.settings ?? {} }));
          if (created.status === 200) id = created.body.id;
          if (id && (opts.checkImport || expected.cases.some((c) => c.trigger.kind === 'webhook')))
            activated = await s.api('POST', `/workflows/${id}/activate`);
        });
        afterAll(async () => {
          if (id) await s.api('POST', `/workflows/${id}/deactivate`);
          if (errorWorkflowId) {
            await s.api('POST', `/workflows/${errorWorkflowId}/deactivate`);
            await s.api('DELETE', `/workflows/${errorWorkflowId}`);
          }
          for (const credentialId of credentialIds) await s.api('DELETE', `/credentials/${credentialId}`);
          await deleteDataTables(api, tableIds);
          for (const subId of subWorkflowIds) {
            await s.api('POST', `/workflows/${subId}/deactivate`);
            await s.api('DELETE', `/workflows/${subId}`);
          }
        });
        if (opts.checkImport)
          test('import and activation', () => {
            const problems: string[] = [];
            const wantImport = expected.import?.status ?? 200;
            if (created.status !== wantImport)
              problems.push(
                `import: expected ${wantImport}, got ${created.status} ${JSON.stringify(created.body).slice(0, 200)}`,
              );
            const act = activated;
            if (act) {
              const wantAct = expected.activation?.status ?? 200;
              if (act.status !== wantAct)
                problems.push(
                  `activation: expected ${wantAct}, got ${act.status} ${JSON.stringify(act.body).slice(0, 200)}`,
                );
              else if (expected.activation?.body.message && act.body.message !== expected.activation.body.message)
                problems.push(
                  `activation message: expected "${expected.activation.body.message}", got "${act.body.message}"`,
                );
            }
            settle(`${base}/(import)`, { problems, warnings: [] });
          });
        for (const c of expected.cases) {
          test(
            c.name,
            async () => {
              expect(id, 'the workflow imported').toBeDefined();
              if (expected.dataTables?.length) {
                // Fresh tables for each run, so row ids count from 1 as in the recording (n8n on
                // SQLite reuses the ids of rows deleted from the end; Hamlet never reuses one).
                tableIds = await createDataTables(api, expected.dataTables);
                await resetDataTables(api, expected.dataTables, tableIds);
                const wf = structuredClone(imported);
                pointAtDataTables(wf, tableIds);
                const keys = ['name', 'nodes', 'connections', 'settings'] as const;
                const put = await s.api(
                  'PUT',
                  `/workflows/${id}`,
                  Object.fromEntries(keys.map((k) => [k, wf[k] ?? {}])),
                );
                expect(put.status, JSON.stringify(put.body)).toBe(200);
              }
              const recordedId = errorWorkflowId ?? id!;
              const seen = new Set<string>(
                ((await s.api('GET', `/executions?workflowId=${recordedId}`)).body.data as any[]).map((e) => e.id),
              );
              let response: (RecordedAnswer & { resume?: RecordedAnswer }) | undefined;
              let exec: any;
              if (c.trigger.kind === 'webhook') {
                const body =
                  c.trigger.rawBase64 !== undefined
                    ? new Uint8Array(Buffer.from(c.trigger.rawBase64, 'base64'))
                    : (c.trigger.raw ?? (c.trigger.body === undefined ? undefined : JSON.stringify(c.trigger.body)));
                response = await request(
                  `${s.url}/webhook/${c.trigger.path}`,
                  { method: c.trigger.method ?? 'GET', body, headers: c.trigger.headers ?? {} },
                  c.trigger.responseAs,
                );
                const resumed = c.trigger.resume && (await resumeCall(c.trigger.resume, response));
                if (resumed) response.resume = resumed;
                const unfinished = c.trigger.resume ? ['new', 'running', 'waiting'] : undefined;
                exec = await waitFor(() => finishedExecution(recordedId, seen, unfinished), {
                  timeoutMs: 20_000,
                  message: `a finished execution of workflow ${recordedId}`,
                });
              } else {
                const res = await s.api('POST', `/workflows/${id}/execute`, {});
                if (c.refused) {
                  const problems: string[] = [];
                  if (res.status < 400 || res.status >= 500)
                    problems.push(`manual run: expected a refusal (n8n: ${c.refused.status}), got ${res.status}`);
                  if (res.body?.message !== c.refused.message)
                    problems.push(`manual run message: expected "${c.refused.message}", got "${res.body?.message}"`);
                  return settle(`${base}/${c.name}`, { problems, warnings: [] });
                }
                expect(res.status, JSON.stringify(res.body)).toBe(200);
                exec = res.body;
              }
              settle(`${base}/${c.name}`, compareCase(c, exec, response, s.url));
            },
            30_000,
          );
        }
      });
    }
  });
}
