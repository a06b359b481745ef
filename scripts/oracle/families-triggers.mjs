// Trigger nodes that start without a request: what can be recorded offline is the item they
// start a manual run with (the editor's "test workflow" from that trigger). When they fire on
// their own (schedules, a failing workflow) is checked by test/workflow/triggers.test.ts.
const T = (t) => `n8n-nodes-base.${t}`;

// The schedule item's clock fields change from run to run; their keys are still checked.
const CLOCK_FIELDS = [
  'timestamp',
  'Readable date',
  'Readable time',
  'Day of week',
  'Year',
  'Month',
  'Day of month',
  'Hour',
  'Minute',
  'Second',
];

const families = [];
function manual(name, trigger, extra = {}) {
  families.push({
    name,
    bodies: {},
    manual: trigger.name,
    graph: { from: [], nodes: [{ position: [0, 0], ...trigger }], connections: {} },
    ...extra,
  });
}

const schedule = (rule) => ({
  name: 'Schedule',
  type: T('scheduleTrigger'),
  typeVersion: 1.2,
  parameters: { rule: { interval: [rule] } },
});
manual('schedule-1.2-hours', schedule({ field: 'hours', hoursInterval: 2 }), { volatileKeys: CLOCK_FIELDS });
manual('schedule-1.2-cron-expression', schedule({ field: 'cronExpression', expression: '0 5 * * 1' }), {
  volatileKeys: CLOCK_FIELDS,
});
// A zone without summer time, so the recorded offset holds all year.
manual('schedule-1.2-timezone', schedule({ field: 'days', triggerAtHour: 6 }), {
  volatileKeys: CLOCK_FIELDS,
  settings: { executionOrder: 'v1', timezone: 'Asia/Kolkata' },
});
manual(
  'schedule-1-weeks',
  { ...schedule({ field: 'weeks', triggerAtDay: [1, 3], triggerAtHour: 9 }), typeVersion: 1 },
  { volatileKeys: CLOCK_FIELDS },
);
manual(
  'cron-1-every-hour',
  {
    name: 'Cron',
    type: T('cron'),
    typeVersion: 1,
    parameters: { triggerTimes: { item: [{ mode: 'everyHour', minute: 5 }] } },
  },
  { volatileKeys: CLOCK_FIELDS },
);
manual(
  'cron-1-custom',
  {
    name: 'Cron',
    type: T('cron'),
    typeVersion: 1,
    parameters: { triggerTimes: { item: [{ mode: 'custom', cronExpression: '*/10 * * * *' }] } },
  },
  { volatileKeys: CLOCK_FIELDS },
);
// Run by hand, the Error Trigger starts with n8n's example error.
manual('error-trigger-manual', { name: 'On Error', type: T('errorTrigger'), typeVersion: 1, parameters: {} });
manual('manual-trigger', { name: 'Start', type: T('manualTrigger'), typeVersion: 1, parameters: {} });

// A workflow that fails runs its error workflow (settings.errorWorkflow): the case records the
// error workflow's run. The Error Trigger's item holds ids, URLs and a stack of the failed run
// (kept out by key); the Set after it shows the fields that do not change.
const report = (name, value) => ({ id: name, name, type: 'string', value });
families.push({
  name: 'error-workflow-stop-and-error',
  inputs: ['ordinary'],
  volatileKeys: ['execution', 'workflow'],
  nodes: [
    { name: 'Test', type: T('stopAndError'), typeVersion: 1, parameters: { errorMessage: '=boom {{ $json.name }}' } },
  ],
  errorWorkflow: {
    nodes: [
      { name: 'On Error', type: T('errorTrigger'), typeVersion: 1, position: [0, 0], parameters: {} },
      {
        name: 'Report',
        type: T('set'),
        typeVersion: 3.4,
        position: [220, 0],
        parameters: {
          assignments: {
            assignments: [
              report('message', '={{ $json.execution.error.message }}'),
              report('failedNode', '={{ $json.execution.lastNodeExecuted }}'),
              report('mode', '={{ $json.execution.mode }}'),
              report('workflowName', '={{ $json.workflow.name }}'),
              report('hasIds', '={{ !!$json.execution.id && !!$json.workflow.id }}'),
              report('retryOf', '={{ JSON.stringify($json.execution.retryOf) }}'),
              report(
                'context',
                '={{ JSON.stringify({ ...$json.execution.executionContext, establishedAt: typeof $json.execution.executionContext?.establishedAt }) }}',
              ),
              report(
                'url',
                '={{ $json.execution.url.replace(/[0-9A-Za-z]+\\/executions\\/[0-9]+$/, "ID/executions/N") }}',
              ),
            ],
          },
          options: {},
        },
      },
    ],
    connections: { 'On Error': { main: [[{ node: 'Report', type: 'main', index: 0 }]] } },
  },
});

export const TRIGGER_FAMILIES = families;
