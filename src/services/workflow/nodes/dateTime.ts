// Date & Time (v2; v1 in dateTime-v1.ts): current date, add/subtract, format, round, difference and extract, on
// Luxon in the workflow's time zone. The result goes to `outputFieldName`.
import { DateTime, type DurationLikeObject } from 'luxon';
import { NodeOperationError, type NodeContext, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { clone, isPlainObject } from './util.js';
import { executeV1 } from './dateTime-v1.js';
import { fromArray, fromNamedParts } from './date-parts.js';

const PRESETS: Record<string, string> = {
  'MM/dd/yyyy': 'MM/dd/yyyy',
  'yyyy/MM/dd': 'yyyy/MM/dd',
  'MMMM dd yyyy': 'MMMM dd yyyy',
  'MM-dd-yyyy': 'MM-dd-yyyy',
  'yyyy-MM-dd': 'yyyy-MM-dd',
};

/**
 * An epoch number as n8n 2.8.4 reads it (observed): a fraction means seconds with milliseconds
 * (the number is taken times 1000 first: 1.5 is 1500), then a whole part of fewer than 12
 * characters ("-" included) counts seconds, a longer one milliseconds. Too large is invalid
 * (written as "Invalid DateTime", not an error).
 */
function fromEpoch(n: number, zone: string): DateTime {
  const value = Number.isInteger(n) ? n : n * 1000;
  return String(Math.trunc(value)).length < 12
    ? DateTime.fromMillis(value * 1000, { zone })
    : DateTime.fromMillis(value, { zone });
}

/**
 * A date parameter as n8n 2.8.4 reads it (observed with the oracle): whatever Number() reads
 * as a number (null, booleans, '', ' ', [], [31], "1e3") is an epoch (`fromEpoch`); other arrays
 * and objects are date parts (`fromArray`, `fromNamedParts`); text is read with `fromFormat` when given (Luxon, strictly), else as ISO
 * (keeping its own offset; none means `zone`) or anything Date parses; a time alone ("12:30")
 * and unreadable text are refused.
 */
function toDate(v: unknown, zone: string, now: DateTime, fromFormat?: string): DateTime {
  if (DateTime.isDateTime(v)) return v;
  if (v instanceof Date) return DateTime.fromJSDate(v, { zone });
  if (typeof v === 'string' && fromFormat) {
    const d = DateTime.fromFormat(v, fromFormat, { zone });
    if (!d.isValid) throw new NodeOperationError('Invalid date format');
    return d;
  }
  if (Array.isArray(v) && fromFormat) throw new NodeOperationError('input.match is not a function');
  const n = Number(v);
  if (!Number.isNaN(n)) return fromEpoch(n, zone);
  if (Array.isArray(v) || isPlainObject(v)) {
    const d = Array.isArray(v) ? fromArray(v, zone, now) : fromNamedParts(v, zone, now);
    if (!d.isValid) throw new NodeOperationError('Invalid date format');
    return d;
  }
  const s = String(v);
  let d = /^\s*T?\d{1,2}:\d{2}/.test(s)
    ? DateTime.invalid('a time without a date')
    : DateTime.fromISO(s, { setZone: true, zone });
  if (!d.isValid) d = DateTime.fromJSDate(new Date(s), { zone });
  if (!d.isValid) throw new NodeOperationError('Invalid date format');
  return d;
}

/** A date as n8n writes it into an item: ISO text, or "Invalid DateTime". */
const isoOrInvalid = (d: DateTime) => (d.isValid ? d.toISO() : 'Invalid DateTime');

/** A date parameter: an expression that gives nothing (undefined) means now; an absent parameter is '' (the epoch). */
async function dateParam(ctx: NodeContext, name: string, i: number, zone: string, now: DateTime): Promise<DateTime> {
  const v = await ctx.param(name, i, '');
  if (v === undefined) return now.setZone(zone);
  return toDate(v, zone, now.setZone(zone));
}

async function run(ctx: NodeContext, i: number, zone: string): Promise<{ field: string; value: unknown }> {
  const op = ctx.raw<string>('operation', 'getCurrentDate');
  const unit = (u: string) => u.replace(/s$/, '') as keyof DurationLikeObject;
  // One clock reading per item: two "now"s in one item are the same instant (n8n's difference is 0).
  const now = DateTime.fromJSDate(ctx.now()).setZone(zone);
  switch (op) {
    case 'getCurrentDate': {
      return {
        field: await ctx.param('outputFieldName', i, 'currentDate'),
        value: ((await ctx.param('includeTime', i, true)) ? now : now.startOf('day')).toISO(),
      };
    }
    case 'addToDate':
    case 'subtractFromDate': {
      const field = await ctx.param<string>('outputFieldName', i, 'newDate');
      const d = await dateParam(ctx, 'magnitude', i, zone, now);
      const amount = Number(await ctx.param('duration', i, 0)) * (op === 'addToDate' ? 1 : -1);
      const u = unit(await ctx.param<string>('timeUnit', i, 'days'));
      return { field, value: isoOrInvalid(d.setZone(zone).plus({ [u]: amount })) };
    }
    case 'formatDate': {
      const field = await ctx.param<string>('outputFieldName', i, 'formattedDate');
      // Formatting keeps the date's own offset (epochs are UTC); the timezone option does not
      // convert; null formats as null, an expression that gives nothing writes nothing, an
      // object fails (observed with the oracle).
      const raw = await ctx.param('date', i, '');
      if (raw === null) return { field, value: null };
      if (raw === undefined) return { field, value: undefined };
      if (isPlainObject(raw)) throw new NodeOperationError('date.includes is not a function', undefined, i);
      const fromFormat = String((await ctx.param('options.fromFormat', i, '')) || '');
      const wfZone = String(ctx.workflow.settings?.timezone || 'UTC');
      const d = toDate(raw, wfZone, now.setZone(wfZone), fromFormat || undefined);
      const format = await ctx.param<string>('format', i, 'MM/dd/yyyy');
      const pattern =
        format === 'custom' ? await ctx.param<string>('customFormat', i, 'yyyy-MM-dd') : (PRESETS[format] ?? format);
      return { field, value: d.toFormat(pattern) };
    }
    case 'roundDate': {
      const field = await ctx.param<string>('outputFieldName', i, 'roundedDate');
      const d = (await dateParam(ctx, 'date', i, zone, now)).setZone(zone);
      // Rounding down reads `toNearest`, rounding up `to` (only "month"); both default to month.
      const up = (await ctx.param('mode', i, 'roundDown')) === 'roundUp';
      const to = unit(await ctx.param<string>(up ? 'to' : 'toNearest', i, 'month')) as 'month';
      const rounded = up ? d.endOf(to).plus({ milliseconds: 1 }) : d.startOf(to);
      return { field, value: isoOrInvalid(rounded) };
    }
    case 'getTimeBetweenDates': {
      const a = await dateParam(ctx, 'startDate', i, zone, now);
      const b = await dateParam(ctx, 'endDate', i, zone, now);
      const units = (await ctx.param<string[]>('units', i, ['day'])).map<keyof DurationLikeObject>(unit);
      const difference = b.diff(a, units);
      // `isoString`: the duration as ISO 8601 text (observed: "P420DT4.512638888888889H"); an
      // invalid end gives {} (observed).
      if (!difference.isValid) return { field: await ctx.param('outputFieldName', i, 'timeDifference'), value: {} };
      const value = (await ctx.param('options.isoString', i, false)) ? difference.toISO() : difference.toObject();
      return { field: await ctx.param('outputFieldName', i, 'timeDifference'), value };
    }
    case 'extractDate': {
      const d = (await dateParam(ctx, 'date', i, zone, now)).setZone(zone);
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
      // An invalid date's parts are NaN, written as null.
      const value = Number.isNaN(parts[part]) ? null : parts[part];
      return { field: await ctx.param('outputFieldName', i, 'datePart'), value };
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
        // The output field is a key as named, dots and all (observed: "a.b" is not a path); a
        // value of undefined removes an input field of that name.
        if (value === undefined) delete json[field];
        else json[field] = value;
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
