// Date & Time (v2; v1 in dateTime-v1.ts): current date, add/subtract, format, round, difference and extract, on
// Luxon in the workflow's time zone. The result goes to `outputFieldName`.
import { DateTime, type DurationLikeObject } from 'luxon';
import { NodeOperationError, type NodeContext, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { clone, writePath } from './util.js';
import { executeV1 } from './dateTime-v1.js';

const PRESETS: Record<string, string> = {
  'MM/dd/yyyy': 'MM/dd/yyyy',
  'yyyy/MM/dd': 'yyyy/MM/dd',
  'MMMM dd yyyy': 'MMMM dd yyyy',
  'MM-dd-yyyy': 'MM-dd-yyyy',
  'yyyy-MM-dd': 'yyyy-MM-dd',
};

/**
 * A date parameter as n8n 2.8.4 reads it (observed with the oracle): null is the epoch, booleans,
 * numbers and numeric strings are epoch seconds (milliseconds when large: "20240310" is a time
 * in 1970), other strings are ISO dates (keeping their own offset; none means `zone`) or
 * anything Date parses; a time alone ("12:30") is refused.
 */
function toDate(v: unknown, zone: string): DateTime {
  let d: DateTime;
  const numeric = typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v);
  if (DateTime.isDateTime(v)) d = v;
  else if (v instanceof Date) d = DateTime.fromJSDate(v, { zone });
  else if (v === null || typeof v === 'number' || typeof v === 'boolean' || numeric) {
    const n = Number(v);
    d = DateTime.fromMillis(Math.abs(n) > 1e11 ? n : n * 1000, { zone });
  } else {
    const s = String(v);
    d = /^\s*T?\d{1,2}:\d{2}/.test(s)
      ? DateTime.invalid('a time without a date')
      : DateTime.fromISO(s, { setZone: true, zone });
    if (!d.isValid) d = DateTime.fromJSDate(new Date(s), { zone });
  }
  if (!d.isValid) throw new NodeOperationError('Invalid date format');
  return d;
}

/** An absent date: n8n gives no value (format), null (add, subtract, round) or now (extract, difference). */
async function dateParam(
  ctx: NodeContext,
  name: string,
  i: number,
  zone: string,
  absent: 'none' | 'now',
): Promise<DateTime | undefined> {
  const v = await ctx.param(name, i, undefined);
  if (v === undefined) return absent === 'now' ? DateTime.fromJSDate(ctx.now()).setZone(zone) : undefined;
  return toDate(v, zone);
}

async function run(ctx: NodeContext, i: number, zone: string): Promise<{ field: string; value: unknown }> {
  const op = ctx.raw<string>('operation', 'getCurrentDate');
  const unit = (u: string) => u.replace(/s$/, '') as keyof DurationLikeObject;
  switch (op) {
    case 'getCurrentDate': {
      const now = DateTime.fromJSDate(ctx.now()).setZone(zone);
      return {
        field: await ctx.param('outputFieldName', i, 'currentDate'),
        value: ((await ctx.param('includeTime', i, true)) ? now : now.startOf('day')).toISO(),
      };
    }
    case 'addToDate':
    case 'subtractFromDate': {
      const field = await ctx.param<string>('outputFieldName', i, 'newDate');
      const d = await dateParam(ctx, 'magnitude', i, zone, 'none');
      if (!d) return { field, value: null };
      const amount = Number(await ctx.param('duration', i, 0)) * (op === 'addToDate' ? 1 : -1);
      const u = unit(await ctx.param<string>('timeUnit', i, 'days'));
      return {
        field,
        value: d
          .setZone(zone)
          .plus({ [u]: amount })
          .toISO(),
      };
    }
    case 'formatDate': {
      const field = await ctx.param<string>('outputFieldName', i, 'formattedDate');
      // Formatting keeps the date's own offset (epochs are UTC); the timezone option does not
      // convert, and null formats as null (observed with the oracle).
      const raw = await ctx.param('date', i, undefined);
      if (raw === null) return { field, value: null };
      const d = await dateParam(ctx, 'date', i, String(ctx.workflow.settings?.timezone || 'UTC'), 'none');
      if (!d) return { field, value: undefined };
      const format = await ctx.param<string>('format', i, 'MM/dd/yyyy');
      const pattern =
        format === 'custom' ? await ctx.param<string>('customFormat', i, 'yyyy-MM-dd') : (PRESETS[format] ?? format);
      return { field, value: d.toFormat(pattern) };
    }
    case 'roundDate': {
      const field = await ctx.param<string>('outputFieldName', i, 'roundedDate');
      const found = await dateParam(ctx, 'date', i, zone, 'none');
      if (!found) return { field, value: null };
      const d = found.setZone(zone);
      const to = unit(await ctx.param<string>('toNearest', i, 'day')) as 'day';
      const rounded =
        (await ctx.param('mode', i, 'roundDown')) === 'roundUp' ? d.endOf(to).plus({ milliseconds: 1 }) : d.startOf(to);
      return { field, value: rounded.toISO() };
    }
    case 'getTimeBetweenDates': {
      const a = (await dateParam(ctx, 'startDate', i, zone, 'now'))!;
      const b = (await dateParam(ctx, 'endDate', i, zone, 'now'))!;
      const units = (await ctx.param<string[]>('units', i, ['day'])).map<keyof DurationLikeObject>(unit);
      const difference = b.diff(a, units);
      // `isoString`: the duration as ISO 8601 text (observed: "P420DT4.512638888888889H").
      const value = (await ctx.param('options.isoString', i, false)) ? difference.toISO() : difference.toObject();
      return { field: await ctx.param('outputFieldName', i, 'timeDifference'), value };
    }
    case 'extractDate': {
      const d = (await dateParam(ctx, 'date', i, zone, 'now'))!.setZone(zone);
      const part = await ctx.param<string>('part', i, 'month');
      const parts: Record<string, number> = {
        year: d.year,
        month: d.month,
        week: d.weekNumber,
        day: d.day,
        hour: d.hour,
        minute: d.minute,
        second: d.second,
      };
      if (!(part in parts)) throw new NodeOperationError(`Part "${part}" is not supported`);
      return { field: await ctx.param('outputFieldName', i, 'datePart'), value: parts[part] };
    }
  }
  throw new NodeOperationError(`Operation "${op}" is not supported`);
}

export default {
  types: ['n8n-nodes-base.dateTime'],
  async execute(ctx) {
    if (ctx.typeVersion < 2) return executeV1(ctx);
    const tzOption = String((await ctx.param('options.timezone', 0, '')) || '');
    const zone = tzOption || String(ctx.workflow.settings?.timezone || 'UTC');
    const out: Item[] = [];
    for (let i = 0; i < ctx.items.length; i++) {
      try {
        const { field, value } = await run(ctx, i, zone);
        const json = (await ctx.param('options.includeInputFields', i, false)) ? clone(ctx.items[i].json) : {};
        if (value !== undefined) writePath(json, field, value);
        out.push({ json, pairedItem: { item: i } });
      } catch (err) {
        // v2 catches per item under continueOnFail: the item becomes just the error (observed).
        if (!ctx.continueOnFail) throw err;
        out.push({ json: {}, error: err, pairedItem: { item: i } });
      }
    }
    return [out];
  },
} satisfies NodeType;
