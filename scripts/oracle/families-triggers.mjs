// Trigger nodes that start without a request: what can be recorded offline is the item they
// start a manual run with (the editor's "test workflow" from that trigger). When they fire on
// their own (schedules, a failing workflow) is checked by test/workflow/triggers.test.ts.
const T = (t) => `n8n-nodes-base.${t}`;

// The schedule item's clock fields change from run to run; their keys are still checked.
const CLOCK_FIELDS = ['timestamp', 'Readable date', 'Readable time', 'Day of week', 'Year', 'Month', 'Day of month', 'Hour', 'Minute', 'Second'];

const families = [];
function manual(name, trigger, extra = {}) {
  families.push({
    name, bodies: {}, manual: trigger.name,
    graph: { from: [], nodes: [{ position: [0, 0], ...trigger }], connections: {} },
    ...extra,
  });
}

const schedule = (rule) => ({ name: 'Schedule', type: T('scheduleTrigger'), typeVersion: 1.2, parameters: { rule: { interval: [rule] } } });
manual('schedule-1.2-hours', schedule({ field: 'hours', hoursInterval: 2 }), { volatileKeys: CLOCK_FIELDS });
manual('schedule-1.2-cron-expression', schedule({ field: 'cronExpression', expression: '0 5 * * 1' }), { volatileKeys: CLOCK_FIELDS });
// A zone without summer time, so the recorded offset holds all year.
manual('schedule-1.2-timezone', schedule({ field: 'days', triggerAtHour: 6 }), { volatileKeys: CLOCK_FIELDS, settings: { executionOrder: 'v1', timezone: 'Asia/Kolkata' } });
manual('schedule-1-weeks', { ...schedule({ field: 'weeks', triggerAtDay: [1, 3], triggerAtHour: 9 }), typeVersion: 1 }, { volatileKeys: CLOCK_FIELDS });
manual('cron-1-every-hour', { name: 'Cron', type: T('cron'), typeVersion: 1, parameters: { triggerTimes: { item: [{ mode: 'everyHour', minute: 5 }] } } }, { volatileKeys: CLOCK_FIELDS });
manual('cron-1-custom', { name: 'Cron', type: T('cron'), typeVersion: 1, parameters: { triggerTimes: { item: [{ mode: 'custom', cronExpression: '*/10 * * * *' }] } } }, { volatileKeys: CLOCK_FIELDS });
// Run by hand, the Error Trigger starts with n8n's example error.
manual('error-trigger-manual', { name: 'On Error', type: T('errorTrigger'), typeVersion: 1, parameters: {} });
manual('manual-trigger', { name: 'Start', type: T('manualTrigger'), typeVersion: 1, parameters: {} });

export const TRIGGER_FAMILIES = families;
