// Schedule Trigger (v1–1.2): rule.interval[] entries → cron patterns with seconds.
// An entry {} means every day at midnight; times use the workflow's time zone.
import type { NodeType } from '../engine/node-type.js';
import { scheduleItem } from './schedule-item.js';

type Rule = Record<string, unknown> & { field?: string };

const num = (v: unknown, d: number) => (v === undefined || v === '' || Number.isNaN(Number(v)) ? d : Number(v));

function ruleToCron(r: Rule): string | undefined {
  const m = num(r.triggerAtMinute, 0);
  const h = num(r.triggerAtHour, 0);
  switch (r.field ?? 'days') {
    case 'seconds':
      return `*/${num(r.secondsInterval, 30)} * * * * *`;
    case 'minutes':
      return `0 */${num(r.minutesInterval, 5)} * * * *`;
    case 'hours':
      return `0 ${m} */${num(r.hoursInterval, 1)} * * *`;
    case 'days':
      return `0 ${m} ${h} */${num(r.daysInterval, 1)} * *`;
    case 'weeks': {
      const days = Array.isArray(r.triggerAtDay) && r.triggerAtDay.length ? r.triggerAtDay.join(',') : '0';
      return `0 ${m} ${h} * * ${days}`;
    }
    case 'months':
      return `0 ${m} ${h} ${num(r.triggerAtDayOfMonth, 1)} */${num(r.monthsInterval, 1)} *`;
    case 'cronExpression': {
      const e = String(r.expression ?? '').trim();
      if (!e) return undefined;
      return e.split(/\s+/).length === 5 ? `0 ${e}` : e;
    }
  }
  return undefined;
}

export default {
  types: ['n8n-nodes-base.scheduleTrigger'],
  trigger: 'schedule',
  schedules(node) {
    const rules = (node.parameters as { rule?: { interval?: Rule[] } } | undefined)?.rule?.interval ?? [{}];
    return rules.map(ruleToCron).filter((c): c is string => !!c);
  },
  manualItems: ({ now, timezone }) => [scheduleItem(now, timezone)],
  execute: (ctx) => [
    ctx.items.length ? ctx.items : [scheduleItem(ctx.now(), String(ctx.workflow.settings?.timezone ?? 'UTC'))],
  ],
} satisfies NodeType;
