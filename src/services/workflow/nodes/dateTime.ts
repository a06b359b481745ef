// Date & Time (v2): current date, add/subtract, format, round, difference and extract, on
// Luxon in the workflow's time zone. The result goes to `outputFieldName`.
import { DateTime, type DurationLikeObject } from 'luxon';
import { NodeOperationError, type NodeContext, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { clone, writePath } from './util.js';

const PRESETS: Record<string, string> = {
  'MM/dd/yyyy': 'MM/dd/yyyy', 'yyyy/MM/dd': 'yyyy/MM/dd', 'MMMM dd yyyy': 'MMMM dd yyyy', 'MM-dd-yyyy': 'MM-dd-yyyy', 'yyyy-MM-dd': 'yyyy-MM-dd',
};

function toDate(v: unknown, zone: string): DateTime {
  let d: DateTime;
  if (DateTime.isDateTime(v)) d = v;
  else if (v instanceof Date) d = DateTime.fromJSDate(v);
  else if (typeof v === 'number') d = DateTime.fromMillis(v > 1e11 ? v : v * 1000);
  else {
    const s = String(v ?? '');
    d = DateTime.fromISO(s, { setZone: true });
    if (!d.isValid) d = DateTime.fromJSDate(new Date(s));
  }
  if (!d.isValid) throw new NodeOperationError(`The value "${String(v)}" is not a valid date`);
  return d.setZone(zone);
}

async function run(ctx: NodeContext, i: number, zone: string): Promise<{ field: string; value: unknown }> {
  const op = ctx.raw<string>('operation', 'getCurrentDate');
  const unit = (u: string) => u.replace(/s$/, '') as keyof DurationLikeObject;
  switch (op) {
    case 'getCurrentDate': {
      const now = DateTime.fromJSDate(ctx.now()).setZone(zone);
      return { field: await ctx.param('outputFieldName', i, 'currentDate'), value: (await ctx.param('includeTime', i, true) ? now : now.startOf('day')).toISO() };
    }
    case 'addToDate':
    case 'subtractFromDate': {
      const d = toDate(await ctx.param(op === 'addToDate' ? 'magnitude' : 'magnitude', i, ''), zone);
      const amount = Number(await ctx.param('duration', i, 0)) * (op === 'addToDate' ? 1 : -1);
      const u = unit(await ctx.param<string>('timeUnit', i, 'days'));
      return { field: await ctx.param('outputFieldName', i, 'newDate'), value: d.plus({ [u]: amount }).toISO() };
    }
    case 'formatDate': {
      const d = toDate(await ctx.param('date', i, ''), zone);
      const format = await ctx.param<string>('format', i, 'MM/dd/yyyy');
      const pattern = format === 'custom' ? await ctx.param<string>('customFormat', i, 'yyyy-MM-dd') : PRESETS[format] ?? format;
      return { field: await ctx.param('outputFieldName', i, 'formattedDate'), value: d.toFormat(pattern) };
    }
    case 'roundDate': {
      const d = toDate(await ctx.param('date', i, ''), zone);
      const to = unit(await ctx.param<string>('toNearest', i, 'day')) as 'day';
      const rounded = await ctx.param('mode', i, 'roundDown') === 'roundUp' ? d.endOf(to).plus({ milliseconds: 1 }) : d.startOf(to);
      return { field: await ctx.param('outputFieldName', i, 'roundedDate'), value: rounded.toISO() };
    }
    case 'getTimeBetweenDates': {
      const a = toDate(await ctx.param('startDate', i, ''), zone);
      const b = toDate(await ctx.param('endDate', i, ''), zone);
      const units = (await ctx.param<string[]>('units', i, ['day'])).map(unit) as Array<keyof DurationLikeObject>;
      return { field: await ctx.param('outputFieldName', i, 'timeDifference'), value: b.diff(a, units as any).toObject() };
    }
    case 'extractDate': {
      const d = toDate(await ctx.param('date', i, ''), zone);
      const part = await ctx.param<string>('part', i, 'month');
      const parts: Record<string, number> = { year: d.year, month: d.month, week: d.weekNumber, day: d.day, hour: d.hour, minute: d.minute, second: d.second };
      if (!(part in parts)) throw new NodeOperationError(`Part "${part}" is not supported`);
      return { field: await ctx.param('outputFieldName', i, 'datePart'), value: parts[part] };
    }
  }
  throw new NodeOperationError(`Operation "${op}" is not supported`);
}

export default {
  types: ['n8n-nodes-base.dateTime'],
  async execute(ctx) {
    if (ctx.typeVersion < 2) throw new NodeOperationError('Date & Time v1 is not supported; use v2');
    const zone = String((await ctx.param('options.timezone', 0, '')) || ctx.workflow.settings?.timezone || 'UTC');
    const out: Item[] = [];
    for (let i = 0; i < ctx.items.length; i++) {
      const { field, value } = await run(ctx, i, zone);
      const json = (await ctx.param('options.includeInputFields', i, true)) ? clone(ctx.items[i]!.json) : {};
      writePath(json, field, value);
      out.push({ json, pairedItem: { item: i } });
    }
    return [out];
  },
} satisfies NodeType;
