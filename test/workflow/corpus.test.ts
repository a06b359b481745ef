// The n8n conformance corpus: every case in test/fixtures/n8n-corpus (copied from the project's shared corpus, with its attribution README), imported unchanged, run,
// and compared with what n8n 2.8.4 produced (the corpus README's rule, in corpus-compare.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compareCase, type CaseExpectation } from './corpus-compare.js';
import { startWorkflowServer, type WorkflowTestServer } from './helpers.js';
import { waitFor } from '../helpers/wait.js';

const CORPUS = process.env.N8N_CORPUS_DIR ?? path.resolve(import.meta.dirname, '../fixtures/n8n-corpus');

const files = readdirSync(path.join(CORPUS, 'expected')).filter((f) => f.endsWith('.json')).sort();
const results: Array<{ name: string; ok: boolean; problems: string[]; warnings: string[] }> = [];
let s: WorkflowTestServer;

beforeAll(async () => {
  s = await startWorkflowServer({ env: { HAMLET_ALLOW_INTERNAL_REQUESTS: '1' } });
}, 60_000);

afterAll(async () => {
  await s?.stop();
  const passed = results.filter((r) => r.ok).length;
  console.log(`\nn8n corpus: ${passed}/${results.length} cases pass`);
  for (const r of results) if (!r.ok) console.log(`  FAIL ${r.name}\n    ${r.problems.slice(0, 8).join('\n    ')}`);
  for (const r of results) for (const w of r.warnings) console.log(`  warning ${r.name}: ${w}`);
});

/** The first finished execution of the workflow that is not in `after`. */
async function finishedExecution(workflowId: string, after: Set<string>): Promise<any> {
  const list = await s.api('GET', `/executions?workflowId=${workflowId}&includeData=true&limit=5`);
  return (list.body.data as any[]).find((e) => !after.has(e.id) && !['new', 'running'].includes(e.status));
}

describe('n8n corpus', () => {
  for (const file of files) {
    const expected = JSON.parse(readFileSync(path.join(CORPUS, 'expected', file), 'utf8')) as { workflow: string; cases: CaseExpectation[] };
    const workflowJson = readFileSync(path.join(CORPUS, 'workflows', expected.workflow), 'utf8');
    describe(file.replace(/\.json$/, ''), () => {
      let id: string;
      beforeAll(async () => {
        // As the corpus was uploaded to n8n: n8n's public API requires `settings`, so a file
        // without them went up with empty settings (and ran as v0).
        const file = JSON.parse(workflowJson) as Record<string, unknown>;
        const created = await s.api('POST', '/workflows', JSON.stringify({ ...file, settings: file.settings ?? {} }));
        expect(created.status).toBe(200);
        id = created.body.id;
        if (expected.cases.some((c) => c.trigger.kind === 'webhook')) {
          const act = await s.api('POST', `/workflows/${id}/activate`);
          expect(act.status, JSON.stringify(act.body)).toBe(200);
        }
      });
      afterAll(async () => {
        if (id) await s.api('POST', `/workflows/${id}/deactivate`);
      });
      for (const c of expected.cases) {
        test(c.name, async () => {
          const seen = new Set<string>(((await s.api('GET', `/executions?workflowId=${id}`)).body.data as any[]).map((e) => e.id));
          let response: { status: number; contentType: string; body: unknown } | undefined;
          let exec: any;
          if (c.trigger.kind === 'webhook') {
            const body = c.trigger.raw ?? (c.trigger.body === undefined ? undefined : JSON.stringify(c.trigger.body));
            const res = await s.call(c.trigger.method ?? 'GET', `/webhook/${c.trigger.path}`, { body, headers: c.trigger.headers ?? {} });
            response = { status: res.status, contentType: res.headers.get('content-type') ?? '', body: res.body };
            exec = await waitFor(() => finishedExecution(id, seen), { timeoutMs: 20_000, message: `a finished execution of workflow ${id}` });
          } else {
            const res = await s.api('POST', `/workflows/${id}/execute`, {});
            expect(res.status, JSON.stringify(res.body)).toBe(200);
            exec = res.body;
          }
          const outcome = compareCase(c, exec, response, s.url);
          const name = `${file.replace(/\.json$/, '')}/${c.name}`;
          results.push({ name, ok: outcome.problems.length === 0, ...outcome });
          expect(outcome.problems, name).toEqual([]);
        }, 30_000);
      }
    });
  }
});
