// Engine semantics: execution order v0/v1, node options, pinData, HTTP Request through the
// SSRF guard, sub-workflows and error workflows. Each case runs through the public API.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWorkflowServer, type WorkflowTestServer } from './helpers.js';

let s: WorkflowTestServer;
let upstream: http.Server;
let upstreamUrl: string;
let calls = 0;

beforeAll(async () => {
  s = await startWorkflowServer({ env: { HAMLET_ALLOW_INTERNAL_REQUESTS: '1' } });
  upstream = http.createServer((req, res) => {
    calls++;
    if (req.url?.startsWith('/flaky') && calls % 3 !== 0) {
      res.writeHead(503).end('busy');
      return;
    }
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          header: req.headers['x-test'] ?? null,
          body: body ? JSON.parse(body) : null,
        }),
      );
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await s?.stop();
  upstream?.close();
});

type N = {
  name: string;
  type: string;
  typeVersion?: number;
  position?: [number, number];
  parameters?: any;
  [k: string]: unknown;
};
const node = (
  name: string,
  type: string,
  parameters: any = {},
  position: [number, number] = [0, 0],
  extra: Record<string, unknown> = {},
): N => ({
  name,
  type: type.includes('.') ? type : `n8n-nodes-base.${type}`,
  typeVersion: type === 'set' ? 3.4 : type === 'if' ? 2 : type === 'httpRequest' ? 4.2 : 1,
  position,
  parameters,
  ...extra,
});
const setField = (
  name: string,
  field: string,
  value: unknown,
  position: [number, number] = [0, 0],
  extra: Record<string, unknown> = {},
) =>
  node(
    name,
    'set',
    {
      assignments: {
        assignments: [{ id: '1', name: field, type: typeof value === 'number' ? 'number' : 'string', value }],
      },
      includeOtherFields: true,
    },
    position,
    extra,
  );
const link = (...pairs: Array<[string, string, number?, number?]>) => {
  const c: Record<string, { main: any[][] }> = {};
  for (const [from, to, out = 0, input = 0] of pairs) {
    const main = (c[from] ??= { main: [] }).main;
    while (main.length <= out) main.push([]);
    main[out].push({ node: to, type: 'main', index: input });
  }
  return c;
};

async function run(
  nodes: N[],
  connections: unknown,
  settings: Record<string, unknown> = { executionOrder: 'v1' },
  data: unknown = {},
  extra: Record<string, unknown> = {},
) {
  const c = await s.api('POST', '/workflows', { name: 'engine', nodes, connections, settings, ...extra });
  expect(c.status, JSON.stringify(c.body)).toBe(200);
  const e = await s.api('POST', `/workflows/${c.body.id}/execute`, { data });
  expect(e.status).toBe(200);
  return { id: c.body.id as string, exec: e.body, runData: e.body.data.resultData.runData as Record<string, any[]> };
}
const order = (runData: Record<string, any[]>) =>
  Object.entries(runData)
    .flatMap(([n, runs]) => runs.map((r) => [n, r.executionIndex] as const))
    .sort((a, b) => a[1] - b[1])
    .map(([n]) => n);
const out = (runData: Record<string, any[]>, name: string, run = 0, output = 0) =>
  runData[name]?.[run]?.data?.main[output]?.map((i: any) => i.json);

describe('execution order', () => {
  // Start fans out to A (top) and B (bottom); A has a child A2.
  const nodes = [
    node('Start', 'manualTrigger'),
    setField('B', 'b', 1, [200, 200]),
    setField('A', 'a', 1, [200, 0]),
    setField('A2', 'a2', 1, [400, 0]),
  ];
  const conns = link(['Start', 'B'], ['Start', 'A'], ['A', 'A2']);

  test('v1 runs depth first, children in canvas order', async () => {
    const { runData } = await run(nodes, conns, { executionOrder: 'v1' });
    expect(order(runData)).toEqual(['Start', 'A', 'A2', 'B']);
  });

  test('v0 (and a workflow without the setting) runs breadth first in connection order', async () => {
    expect(order((await run(nodes, conns, { executionOrder: 'v0' })).runData)).toEqual(['Start', 'B', 'A', 'A2']);
    expect(order((await run(nodes, conns, {})).runData)).toEqual(['Start', 'B', 'A', 'A2']);
  });

  test('Merge waits for both inputs; v1 runs it with what it has when a branch stays empty', async () => {
    const n = [
      node('Start', 'manualTrigger'),
      node(
        'If',
        'if',
        {
          conditions: {
            options: { version: 2 },
            combinator: 'and',
            conditions: [
              { leftValue: '={{ $json.go }}', rightValue: true, operator: { type: 'boolean', operation: 'equals' } },
            ],
          },
        },
        [200, 0],
      ),
      setField('Yes', 'branch', 'yes', [400, 0]),
      setField('Other', 'other', 'x', [400, 200]),
      node('Merge', 'merge', { mode: 'append' }, [600, 0], { typeVersion: 3 }),
    ];
    const c = link(
      ['Start', 'If'],
      ['If', 'Yes', 0],
      ['Start', 'Other'],
      ['Yes', 'Merge', 0, 0],
      ['Other', 'Merge', 0, 1],
    );
    const both = await run(n, c, { executionOrder: 'v1' }, { go: true });
    expect(out(both.runData, 'Merge')).toEqual([
      { go: true, branch: 'yes' },
      { go: true, other: 'x' },
    ]);
    const one = await run(n, c, { executionOrder: 'v1' }, { go: false });
    expect(out(one.runData, 'If', 0, 1)).toEqual([{ go: false }]);
    expect(out(one.runData, 'Merge')).toEqual([{ go: false, other: 'x' }]);
  });
});

describe('node options', () => {
  test('disabled nodes pass their input through', async () => {
    const { runData } = await run(
      [node('Start', 'manualTrigger'), setField('Off', 'x', 1, [200, 0], { disabled: true })],
      link(['Start', 'Off']),
      undefined,
      { a: 1 },
    );
    expect(out(runData, 'Off')).toEqual([{ a: 1 }]);
  });

  test('executeOnce runs with the first item only', async () => {
    const code = node('Three', 'code', { jsCode: 'return [{json:{i:1}},{json:{i:2}},{json:{i:3}}]' }, [200, 0], {
      typeVersion: 2,
    });
    const { runData } = await run(
      [node('Start', 'manualTrigger'), code, setField('Once', 'seen', 1, [400, 0], { executeOnce: true })],
      link(['Start', 'Three'], ['Three', 'Once']),
    );
    expect(out(runData, 'Once')).toEqual([{ i: 1, seen: 1 }]);
  });

  test('alwaysOutputData emits one empty item when a node outputs nothing', async () => {
    // n8n fills in the empty item only when every output is empty (a Filter v2 dropping items has data on output 1).
    const filter = (extra: Record<string, unknown>) =>
      node('Filter', 'code', { jsCode: 'return $input.all().filter(i => i.json.keep)' }, [200, 0], {
        typeVersion: 2,
        ...extra,
      });
    const without = await run(
      [node('Start', 'manualTrigger'), filter({}), setField('After', 'x', 1, [400, 0])],
      link(['Start', 'Filter'], ['Filter', 'After']),
      undefined,
      { keep: false },
    );
    expect(without.runData.After).toBeUndefined();
    const withIt = await run(
      [node('Start', 'manualTrigger'), filter({ alwaysOutputData: true }), setField('After', 'x', 1, [400, 0])],
      link(['Start', 'Filter'], ['Filter', 'After']),
      undefined,
      { keep: false },
    );
    expect(out(withIt.runData, 'After')).toEqual([{ x: 1 }]);
  });

  const failing = (extra: Record<string, unknown>) =>
    node('Fail', 'stopAndError', { errorMessage: 'boom' }, [200, 0], extra);

  test('onError stopWorkflow (default) fails the execution at that node', async () => {
    const { exec, runData } = await run(
      [node('Start', 'manualTrigger'), failing({}), setField('After', 'x', 1, [400, 0])],
      link(['Start', 'Fail'], ['Fail', 'After']),
    );
    expect(exec.status).toBe('error');
    expect(exec.data.resultData.error).toMatchObject({ message: 'boom', node: { name: 'Fail' } });
    expect(runData.Fail[0]).toMatchObject({ executionStatus: 'error', error: { message: 'boom' } });
    expect(runData.After).toBeUndefined();
  });

  // An error the node does not handle itself (Stop and Error's): n8n 2.8.4 records it and passes
  // the node's input on, on the regular output whatever onError says (oracle: nt-uncaught-errors-*).
  test('onError continue…: an error the node does not handle passes its input on, on the regular output', async () => {
    const regular = await run(
      [
        node('Start', 'manualTrigger'),
        failing({ onError: 'continueRegularOutput' }),
        setField('After', 'x', 1, [400, 0]),
      ],
      link(['Start', 'Fail'], ['Fail', 'After']),
    );
    expect(regular.exec.status).toBe('success');
    expect(regular.runData.Fail[0]).toMatchObject({ executionStatus: 'error', error: { message: 'boom' } });
    expect(out(regular.runData, 'After')).toEqual([{ x: 1 }]);
    const errOut = await run(
      [
        node('Start', 'manualTrigger'),
        failing({ onError: 'continueErrorOutput' }),
        setField('Ok', 'ok', 1, [400, 0]),
        setField('Handled', 'handled', 1, [400, 200]),
      ],
      link(['Start', 'Fail'], ['Fail', 'Ok', 0], ['Fail', 'Handled', 1]),
      undefined,
      { a: 1 },
    );
    expect(errOut.exec.status).toBe('success');
    expect(errOut.runData.Handled).toBeUndefined();
    expect(out(errOut.runData, 'Ok')).toEqual([{ a: 1, ok: 1 }]);
  });

  test('retryOnFail retries up to maxTries', async () => {
    calls = 0;
    const http1 = node('Call', 'httpRequest', { url: `${upstreamUrl}/flaky` }, [200, 0], {
      retryOnFail: true,
      maxTries: 3,
      waitBetweenTries: 0,
    });
    const { exec, runData } = await run([node('Start', 'manualTrigger'), http1], link(['Start', 'Call']));
    expect(exec.status).toBe('success');
    expect(calls).toBe(3);
    expect(out(runData, 'Call')[0]).toMatchObject({ method: 'GET', url: '/flaky' });
    calls = 1; // the next two calls fail, and there is no retry
    const once = await run([node('Start', 'manualTrigger'), { ...http1, retryOnFail: false }], link(['Start', 'Call']));
    expect(once.exec.status).toBe('error');
    // n8n's wording for a 503 (recorded by the oracle: http-4.2-error-503)
    expect(once.exec.data.resultData.error.message).toBe(
      'Service unavailable - try again later or consider setting this node to retry automatically (in the node settings)',
    );
  });

  test('settings.executionTimeout cancels a run that takes too long', async () => {
    const { exec, runData } = await run(
      [
        node('Start', 'manualTrigger'),
        node('Slow', 'wait', { amount: 20, unit: 'seconds' }, [200, 0], { typeVersion: 1.1 }),
        setField('After', 'x', 1, [400, 0]),
      ],
      link(['Start', 'Slow'], ['Slow', 'After']),
      { executionOrder: 'v1', executionTimeout: 1 },
    );
    expect(exec.status).toBe('canceled');
    expect(runData.After).toBeUndefined();
    // Cancelled while the 20 s wait was still on, by the execution's own record (not this
    // test's stopwatch, which a loaded machine stretches).
    expect(Date.parse(exec.stoppedAt) - Date.parse(exec.startedAt)).toBeLessThan(20_000);
  }, 30_000);

  test('pinData replaces a node output in manual runs', async () => {
    const { runData } = await run(
      [node('Start', 'manualTrigger'), setField('Fetch', 'x', 1, [200, 0])],
      link(['Start', 'Fetch']),
      undefined,
      {},
      { pinData: { Fetch: [{ json: { pinned: true } }] } },
    );
    expect(out(runData, 'Fetch')).toEqual([{ pinned: true }]);
  });
});

describe('nodes', () => {
  test('HTTP Request v4 sends query, headers and a JSON body; v1 format too', async () => {
    const v4 = node(
      'Call',
      'httpRequest',
      {
        method: 'POST',
        url: `${upstreamUrl}/echo`,
        sendQuery: true,
        queryParameters: { parameters: [{ name: 'q', value: '={{ $json.q }}' }] },
        sendHeaders: true,
        headerParameters: { parameters: [{ name: 'X-Test', value: 'yes' }] },
        sendBody: true,
        specifyBody: 'json',
        jsonBody: '={"n": {{ $json.n }}}',
      },
      [200, 0],
    );
    const r = await run([node('Start', 'manualTrigger'), v4], link(['Start', 'Call']), undefined, { q: 'hello', n: 5 });
    expect(out(r.runData, 'Call')).toEqual([{ method: 'POST', url: '/echo?q=hello', header: 'yes', body: { n: 5 } }]);
    const v1 = {
      ...node(
        'Old',
        'httpRequest',
        { requestMethod: 'PUT', url: `${upstreamUrl}/old`, jsonParameters: true, bodyParametersJson: '{"a":1}' },
        [200, 0],
      ),
      typeVersion: 1,
    };
    const r1 = await run([node('Start', 'manualTrigger'), v1], link(['Start', 'Old']));
    expect(out(r1.runData, 'Old')).toEqual([{ method: 'PUT', url: '/old', header: null, body: { a: 1 } }]);
  });

  test('Execute Workflow runs a sub-workflow and returns its last node output', async () => {
    const sub = await s.api('POST', '/workflows', {
      name: 'sub',
      nodes: [
        node('In', 'executeWorkflowTrigger', { inputSource: 'passthrough' }),
        setField('Double', 'double', '={{ $json.n * 2 }}', [200, 0]),
      ],
      connections: link(['In', 'Double']),
      settings: { executionOrder: 'v1' },
    });
    const { runData } = await run(
      [
        node('Start', 'manualTrigger'),
        node('Call sub', 'executeWorkflow', { workflowId: { __rl: true, mode: 'id', value: sub.body.id } }, [200, 0], {
          typeVersion: 1.2,
        }),
      ],
      link(['Start', 'Call sub']),
      undefined,
      { n: 21 },
    );
    expect(out(runData, 'Call sub')).toEqual([{ n: 21, double: '42' }]);
  });

  test('a workflow calling itself stops at the nesting limit with an error, not a crash', async () => {
    const c = await s.api('POST', '/workflows', {
      name: 'self',
      nodes: [node('In', 'executeWorkflowTrigger')],
      connections: {},
      settings: { executionOrder: 'v1' },
    });
    await s.api('PATCH', `/workflows/${c.body.id}`, {
      nodes: [
        node('In', 'executeWorkflowTrigger'),
        node('Again', 'executeWorkflow', { workflowId: { __rl: true, mode: 'id', value: c.body.id } }, [200, 0]),
      ],
      connections: link(['In', 'Again']),
    });
    const e = await s.api('POST', `/workflows/${c.body.id}/execute`, { data: {} });
    expect(e.body.status).toBe('error');
    expect(e.body.data.resultData.error.message).toMatch(/nest deeper than 20 levels/);
  }, 30_000);

  test('an error workflow runs with the Error Trigger when a workflow fails', async () => {
    const handler = await s.api('POST', '/workflows', {
      name: 'on error',
      nodes: [
        node('Error Trigger', 'errorTrigger'),
        setField('Note', 'failedNode', '={{ $json.execution.lastNodeExecuted }}', [200, 0]),
      ],
      connections: link(['Error Trigger', 'Note']),
      settings: { executionOrder: 'v1' },
    });
    const { exec } = await run(
      [node('Start', 'manualTrigger'), node('Fail', 'stopAndError', { errorMessage: 'bad' }, [200, 0])],
      link(['Start', 'Fail']),
      { executionOrder: 'v1', errorWorkflow: handler.body.id },
    );
    expect(exec.status).toBe('error');
    await s.t.hamlet.platform.jobs.idle();
    const e = (await s.api('GET', `/executions?workflowId=${handler.body.id}&includeData=true`)).body.data[0];
    expect(e).toMatchObject({ mode: 'error', status: 'success' });
    expect(out(e.data.resultData.runData, 'Note')[0]).toMatchObject({
      failedNode: 'Fail',
      workflow: { id: exec.workflowId },
      execution: { id: exec.id, error: { message: 'bad' } },
    });
  });
});

describe('outbound guard', () => {
  test('HTTP Request to an internal address is refused unless the operator allows it', async () => {
    const guarded = await startWorkflowServer();
    try {
      const c = await guarded.api('POST', '/workflows', {
        name: 'ssrf',
        nodes: [node('Start', 'manualTrigger'), node('Call', 'httpRequest', { url: `${upstreamUrl}/x` }, [200, 0])],
        connections: link(['Start', 'Call']),
        settings: { executionOrder: 'v1' },
      });
      const before = calls;
      const e = await guarded.api('POST', `/workflows/${c.body.id}/execute`, {});
      expect(e.body.status).toBe('error');
      expect(e.body.data.resultData.error.message).toMatch(/internal addresses are blocked/);
      expect(calls).toBe(before);
    } finally {
      await guarded.stop();
    }
  });
});
