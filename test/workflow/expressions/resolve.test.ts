import { afterAll, describe, expect, it } from 'vitest';
import { createExpressions } from '../../../src/services/workflow/expressions/index.js';
import { ExpressionError } from '../../../src/services/workflow/expressions/api.js';
import { items, makeData } from './helpers.js';

const ex = createExpressions({ timeoutMs: 2000, memoryBytes: 64 * 1024 * 1024 });
afterAll(() => ex.close());

/** Resolves and reports whether the sandbox was entered. */
async function resolveCounting(value: unknown, data = makeData()) {
  const before = ex.stats();
  const result = await ex.resolve(value, data);
  const after = ex.stats();
  return { result, fast: after.fastPath - before.fastPath, sandbox: after.sandbox - before.sandbox };
}

describe('templates', () => {
  const data = makeData({ input: items({ a: { b: 7 }, name: 'Ann', list: [1, 2, 3], ok: true, obj: { x: 1 } }) });

  it('recognises expressions by the leading =', async () => {
    expect(ex.isExpression('={{ 1 }}')).toBe(true);
    expect(ex.isExpression('{{ 1 }}')).toBe(false);
    expect(ex.isExpression(5)).toBe(false);
    expect(await ex.resolve('{{ $json.a }}', data)).toBe('{{ $json.a }}');
  });

  it('keeps the type of a value that is one segment', async () => {
    expect(await ex.resolve('={{ $json.a.b }}', data)).toBe(7);
    expect(await ex.resolve('={{ $json.ok }}', data)).toBe(true);
    expect(await ex.resolve('={{ $json.list }}', data)).toEqual([1, 2, 3]);
    expect(await ex.resolve('={{ $json.a }}', data)).toEqual({ b: 7 });
    expect(await ex.resolve('={{ 1 + 2 }}', data)).toBe(3);
    expect(await ex.resolve('={{ { n: $json.a.b * 2 } }}', data)).toEqual({ n: 14 });
  });

  it('renders mixed text as a string, several segments included', async () => {
    expect(await ex.resolve('=Hello {{ $json.name }}, you have {{ $json.a.b }} ({{ $json.ok }})', data)).toBe(
      'Hello Ann, you have 7 (true)',
    );
    // Observed in the corpus (url-to-markdown-loop): an array in text joins with commas.
    expect(await ex.resolve('={{ $json.list }} ', data)).toBe('1,2,3 ');
    expect(await ex.resolve('=x{{ $json.missing }}y{{ null }}z', data)).toBe('xyz');
    // An object in text is String()ed, as in n8n (issue #15828: "[object Object]").
    expect(await ex.resolve('=obj: {{ $json.obj }}', data)).toBe('obj: [object Object]');
    expect(await ex.resolve('=obj: {{ JSON.stringify($json.obj) }}', data)).toBe('obj: {"x":1}');
    expect(await ex.resolve('={{ [{ a: 1 }] }} ', data)).toBe('[object Object] ');
    expect(await ex.resolve('=n8n', data)).toBe('n8n');
  });

  it('resolves objects and arrays deeply and leaves other values alone', async () => {
    const value = { a: '={{ $json.name }}', list: ['={{ $json.a.b + 1 }}', 'plain', 3], nested: { b: false } };
    expect(await ex.resolve(value, data)).toEqual({ a: 'Ann', list: [8, 'plain', 3], nested: { b: false } });
  });

  it('treats an empty {{ }} as no value and an unclosed {{ as text', async () => {
    expect(await ex.resolve('={{ }}', data)).toBeUndefined();
    expect(await ex.resolve('=a{{}}b', data)).toBe('ab');
    expect(await ex.resolve('=a {{ $json.name', data)).toBe('a {{ $json.name');
  });

  it('splits on the first }} as n8n does', async () => {
    expect(await ex.resolve('={{ { data: JSON.stringify({ r: $json.name }) } }}', data)).toEqual({
      data: '{"r":"Ann"}',
    });
  });

  it('gives undefined for a path through a missing value, as n8n interpolation does', async () => {
    expect(await ex.resolve('={{ $json.nope.deeper }}', data)).toBeUndefined();
    expect(await ex.resolve('=[{{ $json.nope.deeper }}]', data)).toBe('[]');
  });

  it('reports a syntax error as an ExpressionError carrying the expression', async () => {
    try {
      await ex.resolve('={{ $json.( }}', data);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ExpressionError);
      expect((error as ExpressionError).message).toBe('invalid syntax');
      expect((error as ExpressionError).expression).toBe('={{ $json.( }}');
    }
  });

  it('asks to call a function that was not called', async () => {
    await expect(ex.resolve('={{ $json.name.toUpperCase }}', data)).rejects.toThrow(
      'this is a function, please add ()',
    );
  });
});

describe('variables', () => {
  const webhook = items({ body: { msg: 'hello', n: 2 }, headers: { 'content-type': 'application/json' } });
  const parse = items({ route: 'sales', priority: 'high' }, { route: 'support', priority: 'low' });
  const data = makeData({
    input: items({ i: 0, text: 'first' }, { i: 1, text: 'second' }),
    itemIndex: 1,
    runIndex: 2,
    outputs: { Webhook: webhook, 'Parse Classification': parse },
    parameters: { Webhook: { path: 'hook', httpMethod: 'POST' }, Current: { mode: 'x' } },
    paired: { Webhook: () => 0 },
  });

  it('$json, $input and $binary address the current item', async () => {
    expect(await ex.resolve('={{ $json.text }}', data)).toBe('second');
    expect(await ex.resolve('={{ $input.item.json.text }}', data)).toBe('second');
    expect(await ex.resolve('={{ $input.first().json.text }}', data)).toBe('first');
    expect(await ex.resolve('={{ $input.last().json.i }}', data)).toBe(1);
    expect(await ex.resolve('={{ $input.all().map(i => i.json.i) }}', data)).toEqual([0, 1]);
    expect(await ex.resolve('={{ $input.all().length }}', data)).toBe(2);
    expect(await ex.resolve('={{ $binary }}', data)).toBeUndefined();
  });

  it("$('Node') gives .item (paired), .first(), .last(), .all(), .isExecuted and .params", async () => {
    expect(await ex.resolve("={{ $('Webhook').item.json.body.msg }}", data)).toBe('hello');
    expect(await ex.resolve("={{ $('Parse Classification').first().json.route }}", data)).toBe('sales');
    expect(await ex.resolve("={{ $('Parse Classification').last().json.route }}", data)).toBe('support');
    expect(await ex.resolve("={{ $('Parse Classification').all().map(i => i.json.priority).join('|') }}", data)).toBe(
      'high|low',
    );
    expect(await ex.resolve("={{ $('Webhook').isExecuted }}", data)).toBe(true);
    expect(await ex.resolve("={{ $('Webhook').params.path }}", data)).toBe('hook');
    expect(await ex.resolve("={{ $('Parse Classification').itemMatching(1).json.route }}", data)).toBe('support');
  });

  it('$node["X"] is the legacy form: the item at the same index, and the parameters', async () => {
    expect(await ex.resolve('={{$node["Parse Classification"].json["route"]}}', data)).toBe('support');
    expect(await ex.resolve('={{ $node["Webhook"].parameter["httpMethod"] }}', data)).toBe('POST');
    expect(await ex.resolve('={{ $node.Webhook.parameter.path }}', data)).toBe('hook');
    await expect(ex.resolve('={{ $node["Webhook"].json.body }}', data)).rejects.toThrow(
      'No data found for item-index: "1"',
    );
  });

  it("a node's context: Split In Batches v1 loops end on $node['Loop'].context['noItemsLeft']", async () => {
    const d = makeData({
      outputs: { Loop: items({ a: 1 }) },
      contexts: { Loop: { noItemsLeft: true, currentRunIndex: 2 } },
    });
    expect(await ex.resolve('={{$node["Loop"].context["noItemsLeft"]}}', d)).toBe(true);
    expect(await ex.resolve("={{ $('Loop').context.currentRunIndex }}", d)).toBe(2);
    expect(await ex.resolve('={{ $input.context }}', d)).toEqual({});
    expect(await ex.resolve('={{ $node["Webhook"].context }}', data)).toEqual({});
  });

  it('legacy $item(i), $items() and $data', async () => {
    expect(await ex.resolve('={{ $item(0).$node["Parse Classification"].json.route }}', data)).toBe('sales');
    expect(await ex.resolve('={{ $item(0).$json.text }}', data)).toBe('first');
    expect(await ex.resolve('={{ $items("Parse Classification").length }}', data)).toBe(2);
    expect(await ex.resolve('={{ $items().map(i => i.json.i) }}', data)).toEqual([0, 1]);
    expect(await ex.resolve('={{ $data.text }}', data)).toBe('second');
  });

  it('$itemIndex, $runIndex, $workflow, $execution, $prevNode, $parameter', async () => {
    expect(await ex.resolve('={{ $itemIndex }}', data)).toBe(1);
    expect(await ex.resolve('={{ $runIndex }}', data)).toBe(2);
    expect(await ex.resolve('={{ $workflow.id + "/" + $workflow.name + "/" + $workflow.active }}', data)).toBe(
      'wf1/My workflow/true',
    );
    expect(await ex.resolve('={{ $execution.id }}', data)).toBe('42');
    expect(await ex.resolve('={{ $execution.mode }}', data)).toBe('manual');
    expect(await ex.resolve('={{ $execution.resumeUrl }}', data)).toBe('http://localhost:5678/webhook-waiting/42');
    expect(await ex.resolve('={{ $execution.customData }}', data)).toEqual({});
    expect(await ex.resolve('={{ $prevNode.name }}', data)).toBe('Previous');
    expect(await ex.resolve('={{ $parameter.mode }}', data)).toBe('x');
  });

  it('names a missing node and an unexecuted one', async () => {
    await expect(ex.resolve("={{ $('Nope').item.json.x }}", data)).rejects.toThrow("Referenced node doesn't exist");
    const notRun = makeData({ parameters: { Later: {} } });
    expect(await ex.resolve("={{ $('Later').isExecuted }}", notRun)).toBe(false);
    await expect(ex.resolve("={{ $('Later').first().json }}", notRun)).rejects.toThrow(
      "Node 'Later' hasn't been executed",
    );
  });

  it('$now and $today are Luxon DateTimes from the injected clock, in the workflow zone', async () => {
    expect(await ex.resolve('={{ $now }}', data)).toBe('2026-11-25T21:46:23.460Z');
    expect(await ex.resolve('={{ $now.toISO() }}', data)).toBe('2026-11-25T21:46:23.460Z');
    expect(await ex.resolve('={{ $today.toISO() }}', data)).toBe('2026-11-25T00:00:00.000Z');
    expect(await ex.resolve("={{ $now.toFormat('yyyy-MM-dd') }}", data)).toBe('2026-11-25');
    const berlin = makeData({ timezone: 'Europe/Berlin' });
    expect(await ex.resolve('={{ $now.toISO() }}', berlin)).toBe('2026-11-25T22:46:23.460+01:00');
    expect(await ex.resolve('={{ $now.zoneName }}', berlin)).toBe('Europe/Berlin');
    expect(await ex.resolve('=at {{ $now }}', berlin)).toBe('at 2026-11-25T22:46:23.460+01:00');
  });

  it('$env is blocked unless the operator allowed variables, and then shows only those', async () => {
    await expect(ex.resolve('={{ $env.HOME }}', data)).rejects.toThrow('access to env vars denied');
    const allowed = makeData({ env: { GREETING: 'hi' } });
    expect(await ex.resolve('={{ $env.GREETING }}', allowed)).toBe('hi');
    expect(await ex.resolve('={{ $env.PATH }}', allowed)).toBeUndefined();
  });

  it('$evaluateExpression evaluates a template, for another item if asked', async () => {
    // A template can't be written inside {{ }} (the first }} closes it, as in n8n): it comes from data or Code.
    const d = makeData({
      input: items({ t: '{{ $json.n * 2 }}', n: 4 }, { t: '=n is {{ $json.n }}', n: 5 }),
      itemIndex: 1,
    });
    expect(await ex.resolve('={{ $evaluateExpression($json.t) }}', d)).toBe('n is 5');
    expect(await ex.resolve('={{ $evaluateExpression($input.first().json.t, 0) }}', d)).toBe(8);
    expect(await ex.resolve('={{ $evaluateExpression($input.first().json.t) }}', d)).toBe(10);
    const run = (code: string) => ex.runCode({ code, mode: 'runOnceForAllItems', data: d });
    expect(
      (
        await run(
          "return [{ json: { v: $evaluateExpression('{{ $input.all().length + 1 }}'), u: $evaluateExpression('{{ $json.nope }}') ?? null } }];",
        )
      )[0].json,
    ).toEqual({ v: 3, u: null });
    await expect(
      run("const t = '{{ $evaluateExpression($json.t) }}';\nreturn [{ json: { v: $evaluateExpression(t) } }];"),
    ).rejects.toThrow('nested too deeply');
    const recursive = makeData({ input: items({ t: '{{ $evaluateExpression($json.t) }}' }) });
    await expect(ex.resolve('={{ $evaluateExpression($json.t) }}', recursive)).rejects.toThrow('nested too deeply');
  });

  it('helpers: $ifEmpty, $if, $min, $max', async () => {
    expect(await ex.resolve("={{ $ifEmpty($json.nope, 'dflt') }}", data)).toBe('dflt');
    expect(await ex.resolve("={{ $ifEmpty('', 'dflt') }}", data)).toBe('dflt');
    expect(await ex.resolve("={{ $ifEmpty([], 'dflt') }}", data)).toBe('dflt');
    expect(await ex.resolve("={{ $ifEmpty(0, 'dflt') }}", data)).toBe(0);
    expect(await ex.resolve("={{ $if($json.i > 0, 'yes', 'no') }}", data)).toBe('yes');
    expect(await ex.resolve('={{ $min(3, 1, 2) + $max(3, 1, 2) }}', data)).toBe(4);
  });
});

describe('fast path', () => {
  const data = makeData({
    input: items({ a: { b: [10, { c: 'deep' }] }, 'x y': 1 }),
    outputs: { Webhook: items({ body: { id: 5 } }) },
  });

  it('answers plain property paths without entering the sandbox', async () => {
    for (const [expr, expected] of [
      ['={{ $json.a.b[1].c }}', 'deep'],
      ['={{ $json["x y"] }}', 1],
      ["={{ $json['a']['b'][0] }}", 10],
      ["={{ $('Webhook').item.json.body.id }}", 5],
      ["={{ $('Webhook').first().json.body.id }}", 5],
      ['={{$node["Webhook"].json["body"]["id"]}}', 5],
      ['={{ $input.item.json.a.b.length }}', 2],
      ['={{ $json.a.b[1].c.length }}', 4],
      ['=id {{ $json.a.b[0] }} / {{ $json["x y"] }}', 'id 10 / 1'],
    ] as const) {
      const r = await resolveCounting(expr, data);
      expect(r.result, expr).toEqual(expected);
      expect(r.fast, expr).toBe(1);
      expect(r.sandbox, expr).toBe(0);
    }
  });

  it('sends anything else to the sandbox, with the same answer', async () => {
    for (const [expr, expected] of [
      ['={{ $json.a.missing }}', undefined],
      ['={{ $json.a.b.first() }}', 10],
      ['={{ $json.a.constructor.name }}', 'Object'],
      ['={{ $json.a.b[1].c.toUpperCase() }}', 'DEEP'],
    ] as const) {
      const r = await resolveCounting(expr, data);
      expect(r.result, expr).toEqual(expected);
      expect(r.sandbox, expr).toBe(1);
    }
  });

  it('hands out copies, never references into items', async () => {
    const value = (await ex.resolve('={{ $json.a }}', data)) as { b: unknown[] };
    value.b.push('changed');
    expect(await ex.resolve('={{ $json.a.b.length }}', data)).toBe(2);
  });
});
