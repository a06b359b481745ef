// Data nodes the corpus does not cover: Sort, Remove Duplicates, Summarize, Date & Time,
// Merge by fields, Switch fallback, Aggregate by fields. Each runs through /execute.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { startWorkflowServer, type WorkflowTestServer } from './helpers.js';

let s: WorkflowTestServer;
beforeAll(async () => {
  s = await startWorkflowServer({ clock: new ManualClock('2026-05-04T10:20:30.000Z') });
}, 60_000);
afterAll(() => s?.stop());

const rows = [
  { name: 'b', team: 'x', score: 3, tag: 'one' },
  { name: 'a', team: 'y', score: 5, tag: 'two' },
  { name: 'c', team: 'x', score: 1, tag: 'one' },
  { name: 'a', team: 'y', score: 5, tag: 'two' },
];
const source = {
  name: 'Rows',
  type: 'n8n-nodes-base.code',
  typeVersion: 2,
  position: [200, 0],
  parameters: { jsCode: `return ${JSON.stringify(rows)}.map(json => ({ json }));` },
};

async function through(node: Record<string, unknown>, settings: Record<string, unknown> = {}) {
  const c = await s.api('POST', '/workflows', {
    name: 'node',
    nodes: [
      { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
      source,
      { name: 'Node', position: [400, 0], typeVersion: 1, ...node },
    ],
    connections: {
      Start: { main: [[{ node: 'Rows', type: 'main', index: 0 }]] },
      Rows: { main: [[{ node: 'Node', type: 'main', index: 0 }]] },
    },
    settings: { executionOrder: 'v1', ...settings },
  });
  const run = async () => {
    const e = await s.api('POST', `/workflows/${c.body.id}/execute`, {});
    expect(e.body.status, JSON.stringify(e.body.data?.resultData?.error)).toBe('success');
    return (e.body.data.resultData.runData.Node[0].data.main as any[][]).map((o) => o.map((i) => i.json));
  };
  return { run };
}

test('Sort by fields, descending then ascending', async () => {
  const { run } = await through({
    type: 'n8n-nodes-base.sort',
    parameters: { sortFieldsUi: { sortField: [{ fieldName: 'score', order: 'descending' }, { fieldName: 'name' }] } },
  });
  expect((await run())[0].map((r: any) => `${r.name}${r.score}`)).toEqual(['a5', 'a5', 'b3', 'c1']);
});

test('Remove Duplicates: all fields, selected fields, and seen in previous executions (manual runs)', async () => {
  const all = await through({
    type: 'n8n-nodes-base.removeDuplicates',
    typeVersion: 2,
    parameters: { operation: 'removeDuplicateInputItems' },
  });
  expect((await all.run())[0].length).toBe(3);
  const byTeam = await through({
    type: 'n8n-nodes-base.removeDuplicates',
    typeVersion: 2,
    parameters: { compare: 'selectedFields', fieldsToCompare: 'team' },
  });
  expect((await byTeam.run())[0].map((r: any) => r.name)).toEqual(['b', 'a']);
  const seen = await through({
    type: 'n8n-nodes-base.removeDuplicates',
    typeVersion: 2,
    parameters: { operation: 'removeItemsSeenInPreviousExecutions', dedupeValue: '={{ $json.name }}' },
  });
  // A manual run keeps every item and remembers none (n8n 2.8.4, observed by the fuzzer); the
  // second output holds the items removed.
  const first = await seen.run();
  expect(first[0].map((r: any) => r.name)).toEqual(['b', 'a', 'c', 'a']);
  expect(first[1]).toEqual([]);
  expect((await seen.run())[0].map((r: any) => r.name)).toEqual(['b', 'a', 'c', 'a']);
});

test('Summarize with split by', async () => {
  const { run } = await through({
    type: 'n8n-nodes-base.summarize',
    parameters: {
      fieldsToSummarize: {
        values: [
          { aggregation: 'sum', field: 'score' },
          { aggregation: 'count', field: 'name' },
          { aggregation: 'concatenate', field: 'name' },
        ],
      },
      fieldsToSplitBy: 'team',
    },
  });
  expect((await run())[0]).toEqual([
    { team: 'x', sum_score: 4, count_name: 2, concatenated_name: 'b,c' },
    { team: 'y', sum_score: 10, count_name: 2, concatenated_name: 'a,a' },
  ]);
});

test('Date & Time: current date from the clock, add, format', async () => {
  const now = await through(
    {
      type: 'n8n-nodes-base.dateTime',
      typeVersion: 2,
      parameters: { operation: 'getCurrentDate', options: { includeInputFields: false } },
    },
    { timezone: 'Europe/Rome' },
  );
  expect((await now.run())[0][0]).toEqual({ currentDate: '2026-05-04T12:20:30.000+02:00' });
  const add = await through({
    type: 'n8n-nodes-base.dateTime',
    typeVersion: 2,
    parameters: {
      operation: 'addToDate',
      magnitude: '2026-01-31T00:00:00Z',
      duration: 1,
      timeUnit: 'months',
      options: { includeInputFields: false },
    },
  });
  expect((await add.run())[0][0]).toEqual({ newDate: '2026-02-28T00:00:00.000Z' });
  const fmt = await through({
    type: 'n8n-nodes-base.dateTime',
    typeVersion: 2,
    parameters: {
      operation: 'formatDate',
      date: '2026-07-09T08:00:00Z',
      format: 'custom',
      customFormat: 'dd LLL yyyy',
      options: { includeInputFields: false },
    },
  });
  expect((await fmt.run())[0][0]).toEqual({ formattedDate: '09 Jul 2026' });
});

test('Switch v3: fallback to an extra output; all matching outputs', async () => {
  const rule = (op: string, v: string) => ({
    conditions: {
      options: { version: 2 },
      combinator: 'and',
      conditions: [{ leftValue: '={{ $json.tag }}', rightValue: v, operator: { type: 'string', operation: op } }],
    },
  });
  const { run } = await through({
    type: 'n8n-nodes-base.switch',
    typeVersion: 3.2,
    parameters: {
      rules: { values: [rule('equals', 'one'), rule('startsWith', 'o')] },
      options: { fallbackOutput: 'extra', allMatchingOutputs: true },
    },
  });
  const [first, second, fallback] = await run();
  expect(first.map((r: any) => r.name)).toEqual(['b', 'c']);
  expect(second.map((r: any) => r.name)).toEqual(['b', 'c']);
  expect(fallback.map((r: any) => r.name)).toEqual(['a', 'a']);
});

test('Aggregate individual fields; Limit keeps the last items', async () => {
  const agg = await through({
    type: 'n8n-nodes-base.aggregate',
    parameters: {
      fieldsToAggregate: {
        fieldToAggregate: [
          { fieldToAggregate: 'name' },
          { fieldToAggregate: 'score', renameField: true, outputFieldName: 'scores' },
        ],
      },
    },
  });
  expect((await agg.run())[0]).toEqual([{ name: ['b', 'a', 'c', 'a'], scores: [3, 5, 1, 5] }]);
  const lim = await through({ type: 'n8n-nodes-base.limit', parameters: { maxItems: 2, keep: 'lastItems' } });
  expect((await lim.run())[0].map((r: any) => r.name)).toEqual(['c', 'a']);
});
