// Legacy Cron (v1): triggerTimes.item[] entries → cron patterns with seconds.
import type { NodeType } from '../engine/node-type.js';
import { scheduleItem } from './schedule-item.js';

type Entry = {
  mode?: string;
  hour?: number;
  minute?: number;
  weekday?: number | string;
  dayOfMonth?: number;
  value?: number;
  unit?: string;
  cronExpression?: string;
};

function entryToCron(e: Entry): string | undefined {
  const m = e.minute ?? 0;
  const h = e.hour ?? 14;
  switch (e.mode ?? 'everyDay') {
    case 'everyMinute':
      return '0 * * * * *';
    case 'everyHour':
      return `0 ${m} * * * *`;
    case 'everyDay':
      return `0 ${m} ${h} * * *`;
    case 'everyWeek':
      return `0 ${m} ${h} * * ${e.weekday ?? 1}`;
    case 'everyMonth':
      return `0 ${m} ${h} ${e.dayOfMonth ?? 1} * *`;
    case 'everyX':
      return e.unit === 'hours' ? `0 0 */${e.value ?? 2} * * *` : `0 */${e.value ?? 2} * * * *`;
    case 'custom': {
      const c = String(e.cronExpression ?? '').trim();
      return c ? (c.split(/\s+/).length === 5 ? `0 ${c}` : c) : undefined;
    }
  }
  return undefined;
}

export default {
  types: ['n8n-nodes-base.cron'],
  trigger: 'schedule',
  schedules(node) {
    const items = (node.parameters as { triggerTimes?: { item?: Entry[] } } | undefined)?.triggerTimes?.item ?? [];
    return items.map(entryToCron).filter((c): c is string => !!c);
  },
  // Run by hand, n8n's Cron starts with one empty item (oracle: cron-1-*); a fire gives the schedule item.
  manualItems: () => [{ json: {} }],
  execute: (ctx) => [
    ctx.items.length ? ctx.items : [scheduleItem(ctx.now(), String(ctx.workflow.settings?.timezone ?? 'UTC'))],
  ],
} satisfies NodeType;
