// Multi-input nodes (Merge), sub-workflows, loops and engine semantics: custom graphs whose
// input items come from the webhook body (`a`, `b` or `items`).
import { INPUTS } from './inputs.mjs';

const T = (t) => `n8n-nodes-base.${t}`;
const code = (name, field, y = 0, x = 220) => ({
  name,
  type: T('code'),
  typeVersion: 2,
  position: [x, y],
  parameters: { jsCode: `return ($json.body.${field} ?? []).map((j) => ({ json: j }));` },
});
const link = (to, index = 0) => ({ node: to, type: 'main', index });
const families = [];

// ---- Merge: two inputs A (body.a) and B (body.b) --------------------------------------------
const PAIRS = {
  ordinary: {
    a: [
      { id: 1, name: 'Ann', x: 'a1' },
      { id: 2, name: 'Bob', x: 'a2' },
      { id: 3, name: 'Cy' },
    ],
    b: [
      { id: 2, city: 'Berlin', x: 'b2' },
      { id: 1, city: 'Paris', x: 'b1' },
      { id: 4, city: 'Rome' },
    ],
  },
  aEmpty: { a: [], b: [{ id: 1, city: 'Paris' }] },
  bEmpty: { a: [{ id: 1, name: 'Ann' }], b: [] },
  clash: {
    a: [{ id: 1, v: { deep: 1, keep: 'a' }, arr: [1] }],
    b: [{ id: 1, v: { deep: 2 }, arr: [2, 3], extra: null }],
  },
  mixedKeys: { a: [{ id: '1', name: 'str-id' }, { name: 'no id' }], b: [{ id: 1, city: 'num-id' }, { id: null }] },
  unicode: {
    a: [{ id: 'ü', name: 'Zoë' }],
    b: [
      { id: 'ü', city: '北京' },
      { id: 'u', city: 'x' },
    ],
  },
};
function merge(name, typeVersion, parameters, bodies = PAIRS) {
  families.push({
    name,
    bodies,
    graph: {
      from: ['A', 'B'],
      nodes: [
        code('A', 'a', -100),
        code('B', 'b', 100),
        { name: 'Merge', type: T('merge'), typeVersion, position: [440, 0], parameters },
      ],
      connections: { A: { main: [[link('Merge', 0)]] }, B: { main: [[link('Merge', 1)]] } },
    },
  });
}
merge('merge-3-append', 3, {});
merge('merge-3-fields', 3, { mode: 'combine', fieldsToMatchString: 'id', options: {} });
merge('merge-3-fields-enrich1', 3, {
  mode: 'combine',
  fieldsToMatchString: 'id',
  joinMode: 'enrichInput1',
  options: {},
});
merge('merge-3-fields-everything', 3, {
  mode: 'combine',
  fieldsToMatchString: 'id',
  joinMode: 'keepEverything',
  options: {},
});
merge('merge-3-fields-nonmatches', 3, {
  mode: 'combine',
  fieldsToMatchString: 'id',
  joinMode: 'keepNonMatches',
  outputDataFrom: 'both',
  options: {},
});
merge('merge-3-fields-clash', 3, {
  mode: 'combine',
  fieldsToMatchString: 'id',
  options: { clashHandling: { values: { resolveClash: 'preferInput1', mergeMode: 'shallowMerge' } } },
});
merge('merge-3-fields-suffix', 3, {
  mode: 'combine',
  fieldsToMatchString: 'id',
  options: { clashHandling: { values: { resolveClash: 'addSuffix' } } },
});
merge('merge-3-advanced', 3, {
  mode: 'combine',
  advanced: true,
  mergeByFields: { values: [{ field1: 'id', field2: 'id' }] },
  options: { fuzzyCompare: true, multipleMatches: 'first' },
});
merge('merge-3-position', 3, { mode: 'combine', combineBy: 'combineByPosition', options: {} });
merge('merge-3-position-unpaired', 3, {
  mode: 'combine',
  combineBy: 'combineByPosition',
  options: { includeUnpaired: true },
});
merge('merge-3-all', 3, { mode: 'combine', combineBy: 'combineAll', options: {} });
merge('merge-3-choose', 3, { mode: 'chooseBranch', useDataOfInput: 2 });
merge('merge-3-choose-empty', 3, { mode: 'chooseBranch', chooseBranchMode: 'waitForAll', output: 'empty' });
merge('merge-3.1-fields', 3.1, { mode: 'combine', fieldsToMatchString: 'id', joinMode: 'enrichInput2', options: {} });
merge('merge-2.1-fields', 2.1, {
  mode: 'combine',
  mergeByFields: { values: [{ field1: 'id', field2: 'id' }] },
  options: {},
});
merge('merge-2.1-position', 2.1, { mode: 'combine', combinationMode: 'mergeByPosition', options: {} });
merge('merge-2.1-multiplex', 2.1, { mode: 'combine', combinationMode: 'multiplex', options: {} });
merge('merge-2.1-choose', 2.1, { mode: 'chooseBranch', output: 'input2' });
merge('merge-2-keep-nonmatches', 2, {
  mode: 'combine',
  mergeByFields: { values: [{ field1: 'id', field2: 'id' }] },
  joinMode: 'keepNonMatches',
  outputDataFrom: 'input1',
  options: {},
});
merge('merge-1-append', 1, {});
merge('merge-1-index', 1, { mode: 'mergeByIndex' });
merge('merge-1-index-outer', 1, { mode: 'mergeByIndex', join: 'outer' });
merge('merge-1-key', 1, { mode: 'mergeByKey', propertyName1: 'id', propertyName2: 'id' });
merge('merge-1-key-overwrite', 1, { mode: 'mergeByKey', propertyName1: 'id', propertyName2: 'id', overwrite: 'blank' });
merge('merge-1-keep-matches', 1, { mode: 'keepKeyMatches', propertyName1: 'id', propertyName2: 'id' });
merge('merge-1-remove-matches', 1, { mode: 'removeKeyMatches', propertyName1: 'id', propertyName2: 'id' });
merge('merge-1-multiplex', 1, { mode: 'multiplex' });
merge('merge-1-pass-through', 1, { mode: 'passThrough', output: 'input2' });
merge('merge-1-wait', 1, { mode: 'wait' });
families.push({
  name: 'compare-datasets',
  bodies: PAIRS,
  graph: {
    from: ['A', 'B'],
    nodes: [
      code('A', 'a', -100),
      code('B', 'b', 100),
      {
        name: 'Compare',
        type: T('compareDatasets'),
        typeVersion: 2.3,
        position: [440, 0],
        parameters: { mergeByFields: { values: [{ field1: 'id', field2: 'id' }] }, options: {} },
      },
    ],
    connections: { A: { main: [[link('Compare', 0)]] }, B: { main: [[link('Compare', 1)]] } },
  },
});

// ---- Engine semantics ------------------------------------------------------------------------
const SOME = {
  ordinary: { items: INPUTS.ordinary },
  one: { items: [{ name: 'solo', age: 1 }] },
  none: { items: [] },
  mixed: { items: INPUTS.mixed },
};
function chain(name, nodes, extra = {}) {
  const all = [code('Input', 'items'), ...nodes.map((n, i) => ({ position: [440 + 220 * i, 0], ...n }))];
  const connections = {};
  for (let i = 0; i < all.length - 1; i++) connections[all[i].name] = { main: [[link(all[i + 1].name)]] };
  families.push({
    name,
    bodies: SOME,
    graph: { from: ['Input'], nodes: all, connections: { ...connections, ...(extra.connections ?? {}) } },
    ...extra,
    connections: undefined,
  });
}
const setNode = (name, value, extra = {}) => ({
  name,
  type: T('set'),
  typeVersion: 3.4,
  parameters: {
    assignments: { assignments: [{ id: 'x', name: 'v', type: 'string', value }] },
    includeOtherFields: true,
    options: {},
  },
  ...extra,
});
const failingSet = (name, extra = {}) => ({
  name,
  type: T('set'),
  typeVersion: 3.4,
  parameters: {
    assignments: { assignments: [{ id: 'x', name: 'n', type: 'number', value: '={{ $json.name }}' }] },
    options: {},
  },
  ...extra,
});

chain('engine-execute-once', [setNode('Once', '={{ $json.name }}-{{ $itemIndex }}', { executeOnce: true })]);
chain('engine-always-output', [
  {
    name: 'Nothing',
    type: T('filter'),
    typeVersion: 2.2,
    alwaysOutputData: true,
    parameters: {
      conditions: {
        options: { version: 2, caseSensitive: true, leftValue: '', typeValidation: 'strict' },
        combinator: 'and',
        conditions: [
          { id: 'f', leftValue: '={{ 1 }}', rightValue: 2, operator: { type: 'number', operation: 'equals' } },
        ],
      },
      options: {},
    },
  },
  setNode('After', 'ran'),
]);
chain('engine-no-output-webhook', [
  {
    name: 'Nothing',
    type: T('filter'),
    typeVersion: 2.2,
    parameters: {
      conditions: {
        options: { version: 2, caseSensitive: true, leftValue: '', typeValidation: 'strict' },
        combinator: 'and',
        conditions: [
          { id: 'f', leftValue: '={{ 1 }}', rightValue: 2, operator: { type: 'number', operation: 'equals' } },
        ],
      },
      options: {},
    },
  },
  setNode('Never', 'x'),
]);
chain('engine-on-error-continue', [
  failingSet('Convert', { onError: 'continueRegularOutput' }),
  setNode('After', 'ok'),
]);
families.push({
  name: 'engine-on-error-output',
  bodies: SOME,
  graph: {
    from: ['Input'],
    nodes: [
      code('Input', 'items'),
      failingSet('Convert', { onError: 'continueErrorOutput', position: [440, 0] }),
      setNode('Good', 'good', { position: [660, -100] }),
      setNode('Bad', 'bad', { position: [660, 100] }),
    ],
    connections: { Input: { main: [[link('Convert')]] }, Convert: { main: [[link('Good')], [link('Bad')]] } },
  },
});
chain('engine-stop-on-error', [failingSet('Convert'), setNode('After', 'never')]);
chain('engine-retry-on-fail', [
  {
    name: 'Flaky',
    type: T('code'),
    typeVersion: 2,
    retryOnFail: true,
    maxTries: 2,
    waitBetweenTries: 10,
    parameters: { jsCode: 'throw new Error("always fails");' },
  },
]);
chain('engine-disabled-node', [setNode('Off', 'x', { disabled: true }), setNode('On', 'y')]);
chain('engine-paired-item', [
  {
    name: 'Explode',
    type: T('splitOut'),
    typeVersion: 1,
    parameters: { fieldToSplitOut: 'tags', include: 'noOtherFields', options: {} },
  },
  setNode('Back', "={{ $('Input').item.json.name }}"),
]);
chain('engine-first-last-all', [
  setNode(
    'Refs',
    "={{ $('Input').first().json.name }}|{{ $('Input').last().json.name }}|{{ $('Input').all().length }}|{{ $input.all().length }}|{{ $itemIndex }}",
  ),
]);
chain('engine-expression-extensions', [
  {
    name: 'Ext',
    type: T('set'),
    typeVersion: 3.4,
    onError: 'continueRegularOutput',
    parameters: {
      assignments: {
        assignments: [
          { id: '1', name: 'sum', type: 'number', value: '={{ [1, 2, 3].sum() }}' },
          { id: '2', name: 'isEmpty', type: 'boolean', value: '={{ ($json.tags ?? []).isEmpty() }}' },
          { id: '3', name: 'upper', type: 'string', value: '={{ String($json.name).toUpperCase() }}' },
          { id: '4', name: 'num', type: 'number', value: '={{ String($json.age).toNumber() }}' },
          { id: '5', name: 'day', type: 'string', value: "={{ '2024-03-10T12:30:00+05:00'.toDateTime().toISO() }}" },
          { id: '6', name: 'domain', type: 'string', value: "={{ 'https://www.example.com/x'.extractDomain() }}" },
          { id: '7', name: 'round', type: 'number', value: '={{ (2.456).round(1) }}' },
        ],
      },
      options: { ignoreConversionErrors: true },
    },
  },
]);
chain('engine-sum-mixed', [setNode('Sum', "={{ ['1', 2, 'x'].sum() }}", { onError: 'continueRegularOutput' })]);
chain('engine-to-datetime-offset', [
  setNode(
    'Dt',
    "={{ '2024-03-10T12:30:00+05:00'.toDateTime().toString() }}|{{ DateTime.fromISO('2024-03-10T12:30:00+05:00').toISO() }}",
  ),
]);
chain('engine-name-too-long', [setNode('Name', '={{ $workflow.name.length }}')], { workflowName: 'x'.repeat(140) });

// v0 vs v1 with IF → two branches → Merge
for (const order of ['v0', 'v1']) {
  families.push({
    name: `engine-order-${order}`,
    bodies: SOME,
    settings: { executionOrder: order },
    graph: {
      from: ['Input'],
      nodes: [
        code('Input', 'items'),
        {
          name: 'Check',
          type: T('if'),
          typeVersion: 2.2,
          position: [440, 0],
          parameters: {
            conditions: {
              options: { version: 2, caseSensitive: true, leftValue: '', typeValidation: 'loose' },
              combinator: 'and',
              conditions: [
                {
                  id: 'i',
                  leftValue: '={{ $json.age }}',
                  rightValue: 30,
                  operator: { type: 'number', operation: 'gt' },
                },
              ],
            },
            looseTypeValidation: true,
            options: {},
          },
        },
        setNode('Old', 'old', { position: [660, -100] }),
        setNode('Young', 'young', { position: [660, 100] }),
        { name: 'Merge', type: T('merge'), typeVersion: 3, position: [880, 0], parameters: {} },
        setNode('End', 'end', { position: [1100, 0] }),
      ],
      connections: {
        Input: { main: [[link('Check')]] },
        Check: { main: [[link('Old')], [link('Young')]] },
        Old: { main: [[link('Merge', 0)]] },
        Young: { main: [[link('Merge', 1)]] },
        Merge: { main: [[link('End')]] },
      },
    },
  });
}

// Loop Over Items with a Wait inside, and $('Node').first() after the Wait
for (const v of [3, 2, 1]) {
  const loopOut = v === 3 ? [[link('Done')], [link('Wait')]] : [[link('Wait')], [link('Done')]];
  if (v === 1) continue;
  families.push({
    name: `engine-loop-wait-v${v}`,
    bodies: SOME,
    graph: {
      from: ['Input'],
      nodes: [
        code('Input', 'items'),
        {
          name: 'Loop',
          type: T('splitInBatches'),
          typeVersion: v,
          position: [440, 0],
          parameters: { batchSize: 2, options: {} },
        },
        {
          name: 'Wait',
          type: T('wait'),
          typeVersion: 1.1,
          position: [660, 100],
          webhookId: '00000000-0000-4000-8000-00000000aaaa',
          parameters: { amount: 0.1 },
        },
        setNode('Body', "={{ $('Loop').first().json.name }}-{{ $runIndex }}", { position: [880, 100] }),
        setNode('Done', '={{ $json.v }}', { position: [660, -100] }),
      ],
      connections: {
        Input: { main: [[link('Loop')]] },
        Loop: { main: loopOut },
        Wait: { main: [[link('Body')]] },
        Body: { main: [[link('Loop')]] },
      },
    },
  });
}

// Wait until a time already past: the run goes on at once.
chain('engine-wait-past-time', [
  {
    name: 'Wait',
    type: T('wait'),
    typeVersion: 1.1,
    webhookId: '00000000-0000-4000-8000-00000000bbbb',
    parameters: { resume: 'specificTime', dateTime: '2020-01-01T00:00:00.000Z' },
  },
  setNode('After', 'waited'),
]);

// Wait until its resume webhook is called: Respond to Webhook answers the first call with
// $execution.resumeUrl, the recorder (and the suite) then calls that URL while the execution
// waits, and the run goes on with the item of that second call.
families.push({
  name: 'engine-wait-webhook',
  bodies: SOME,
  resume: {
    method: 'POST',
    query: { from: 'oracle' },
    body: { answer: 'yes', n: 2 },
    headers: { 'content-type': 'application/json', 'x-resume': 'second call' },
  },
  graph: {
    from: ['Input'],
    nodes: [
      code('Input', 'items'),
      {
        name: 'Respond',
        type: T('respondToWebhook'),
        typeVersion: 1.1,
        position: [440, 0],
        parameters: {
          respondWith: 'json',
          responseBody:
            '={ "resumeUrl": {{ JSON.stringify($execution.resumeUrl) }}, "count": {{ $input.all().length }} }',
          options: {},
        },
      },
      {
        name: 'Wait',
        type: T('wait'),
        typeVersion: 1.1,
        position: [660, 0],
        webhookId: '00000000-0000-4000-8000-00000000cccc',
        parameters: { resume: 'webhook', httpMethod: 'POST', options: {} },
      },
      setNode('After', "={{ $json.body.answer }}|{{ $('Input').all().length }}", { position: [880, 0] }),
    ],
    connections: {
      Input: { main: [[link('Respond')]] },
      Respond: { main: [[link('Wait')]] },
      Wait: { main: [[link('After')]] },
    },
  },
  responseMode: 'responseNode',
});

// Loop Over Items v1: one output; the loop ends through an IF on the node's `noItemsLeft` context.
families.push({
  name: 'engine-loop-v1',
  bodies: SOME,
  graph: {
    from: ['Input'],
    nodes: [
      code('Input', 'items'),
      {
        name: 'Loop',
        type: T('splitInBatches'),
        typeVersion: 1,
        position: [440, 0],
        parameters: { batchSize: 2, options: {} },
      },
      setNode('Body', '={{ $json.name }}-{{ $runIndex }}', { position: [660, 0] }),
      {
        name: 'Check',
        type: T('if'),
        typeVersion: 1,
        position: [880, 0],
        parameters: {
          conditions: { boolean: [{ value1: '={{ $node["Loop"].context["noItemsLeft"] }}', value2: true }] },
        },
      },
      setNode('Done', '={{ $("Body").all().length }}', { position: [1100, -100] }),
    ],
    connections: {
      Input: { main: [[link('Loop')]] },
      Loop: { main: [[link('Body')]] },
      Body: { main: [[link('Check')]] },
      Check: { main: [[link('Done')], [link('Loop')]] },
    },
  },
});

// Execute Workflow with an inline sub-workflow (source: parameter)
const sub = {
  nodes: [
    {
      id: 's1',
      name: 'Start',
      type: T('executeWorkflowTrigger'),
      typeVersion: 1.1,
      position: [0, 0],
      parameters: { inputSource: 'passthrough' },
    },
    {
      id: 's2',
      name: 'Tag',
      type: T('set'),
      typeVersion: 3.4,
      position: [220, 0],
      parameters: {
        assignments: { assignments: [{ id: 't', name: 'sub', type: 'boolean', value: true }] },
        includeOtherFields: true,
        options: {},
      },
    },
  ],
  connections: { Start: { main: [[{ node: 'Tag', type: 'main', index: 0 }]] } },
};
for (const mode of ['once', 'each']) {
  chain(`engine-subworkflow-inline-${mode}`, [
    {
      name: 'Call',
      type: T('executeWorkflow'),
      typeVersion: 1.2,
      parameters: { source: 'parameter', workflowJson: JSON.stringify(sub, null, 2), mode, options: {} },
    },
  ]);
}
// Execute Workflow from the database: the sub-workflow is a file of its own with a fixed `id`,
// imported with that id into n8n (and into the suite's server), so the reference holds in both.
// v1.2 names it with a resource locator, v1 with a plain id.
for (const [mode, typeVersion, id] of [
  ['once', 1.2, 'OracleSubOnce001'],
  ['each', 1, 'OracleSubEach001'],
]) {
  const workflowId = typeVersion >= 1.2 ? { __rl: true, value: id, mode: 'id' } : id;
  chain(
    `engine-subworkflow-database-${mode}`,
    [
      {
        name: 'Call',
        type: T('executeWorkflow'),
        typeVersion,
        parameters: { source: 'database', workflowId, mode, options: {} },
      },
    ],
    {
      subWorkflows: [{ id, name: `oracle sub-workflow ${mode}`, nodes: sub.nodes, connections: sub.connections }],
    },
  );
}
// n8n 2.x publishes a workflow only when the sub-workflows it calls by id are published: one that
// is not (`active: false` in its file), and one that does not exist. Both are activation outcomes.
const callById = (id) => [
  {
    name: 'Call',
    type: T('executeWorkflow'),
    typeVersion: 1.2,
    parameters: { source: 'database', workflowId: { __rl: true, value: id, mode: 'id' }, mode: 'once', options: {} },
  },
];
chain('engine-subworkflow-database-unpublished', callById('OracleSubDraft01'), {
  subWorkflows: [
    {
      id: 'OracleSubDraft01',
      name: 'oracle sub-workflow draft',
      active: false,
      nodes: sub.nodes,
      connections: sub.connections,
    },
  ],
});
chain('engine-subworkflow-database-missing', callById('OracleSubNone001'));
// Only an Execute Workflow Trigger: activation is refused (recorded as `activation`), the manual run is recorded.
families.push({
  name: 'engine-activate-subworkflow-only',
  bodies: {},
  manual: 'Start',
  graph: { from: [], nodes: sub.nodes.map((n) => ({ ...n })), connections: sub.connections },
});
// Stop and Error, Respond to Webhook edge cases
chain('engine-stop-and-error', [
  { name: 'Stop', type: T('stopAndError'), typeVersion: 1, parameters: { errorMessage: '=bad {{ $json.name }}' } },
]);
chain(
  'engine-no-item-to-return',
  [{ name: 'Empty', type: T('code'), typeVersion: 2, parameters: { jsCode: 'return [];' } }],
  { responseData: 'firstEntryJson' },
);

export const ENGINE_FAMILIES = families;
