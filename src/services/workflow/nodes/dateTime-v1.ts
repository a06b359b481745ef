// Date & Time v1 (legacy): `format` and `calculate` actions with moment.js-style format tokens,
// reproduced on Luxon. Behaviour observed with the oracle (n8n 2.8.4): a missing value drops
// the item when formatting and fails when calculating; formatting reads numbers and numeric
// text as seconds or milliseconds by their length, calculating reads numbers as milliseconds.
import { DateTime, type DurationLikeObject } from 'luxon';
import { NodeOperationError, type NodeContext } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { clone, writePath } from './util.js';

const TOKEN = /\[[^\]]*\]|Do|YYYY|YY|MMMM|MMM|MM|M|DD|D|dddd|ddd|HH|H|hh|h|mm|m|ss|s|SSS|A|a|ZZ|Z|X|x|./g;
const LUXON: Record<string, string> = {
  YYYY: 'yyyy',
  YY: 'yy',
  MMMM: 'MMMM',
  MMM: 'MMM',
  MM: 'MM',
  M: 'M',
  DD: 'dd',
  D: 'd',
  dddd: 'cccc',
  ddd: 'ccc',
  HH: 'HH',
  H: 'H',
  hh: 'hh',
  h: 'h',
  mm: 'mm',
  m: 'm',
  ss: 'ss',
  s: 's',
  SSS: 'SSS',
  A: 'a',
  Z: 'ZZ',
  ZZ: 'ZZZ',
};

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/** Formats with moment.js tokens. */
function formatMoment(d: DateTime, format: string): string {
  return (format.match(TOKEN) ?? [])
    .map((t) => {
      if (t.startsWith('[')) return t.slice(1, -1);
      if (t === 'Do') return ordinal(d.day);
      if (t === 'a') return d.toFormat('a').toLowerCase();
      if (t === 'X') return String(Math.floor(d.toSeconds()));
      if (t === 'x') return String(d.toMillis());
      const luxon = LUXON[t];
      return luxon ? d.toFormat(luxon) : t;
    })
    .join('');
}

/** A moment.js parse format as a Luxon one (the common tokens). */
function luxonFormat(format: string): string {
  return (format.match(TOKEN) ?? [])
    .map((t) => (t.startsWith('[') ? `'${t.slice(1, -1)}'` : t === 'Do' ? 'd' : (LUXON[t] ?? t)))
    .join('');
}

/** A number, or text that reads as one ("1682918315", " 42 ", "1e3"): the format action's timestamps. */
function asTimestamp(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * The value as a date. Numbers (and null, booleans) are epoch milliseconds; text is read with
 * `fromFormat`, else as ISO, else as JavaScript's Date reads it ("0" is the year 2000).
 */
function parse(value: unknown, fromFormat: string | undefined, zone: string, unrecognized: string): DateTime {
  let d: DateTime;
  if (value === null || typeof value === 'number' || typeof value === 'boolean')
    d = DateTime.fromMillis(Number(value), { zone });
  else if (fromFormat) d = DateTime.fromFormat(String(value), luxonFormat(fromFormat), { zone });
  else {
    const s = String(value);
    d = DateTime.fromISO(s, { zone });
    if (!d.isValid) d = DateTime.fromJSDate(new Date(s), { zone });
  }
  if (!d.isValid) throw new NodeOperationError(unrecognized);
  return d;
}

/**
 * The format action's reading: a timestamp (a number or numeric text, whatever `fromFormat`
 * says) counts in seconds when its whole part has fewer than 12 characters, else in
 * milliseconds (observed: 99999999999 is the year 5138, 100000000000 is 1973); anything else
 * as `parse` reads it.
 */
function parseForFormat(value: unknown, fromFormat: string | undefined, zone: string, unrecognized: string): DateTime {
  const n = asTimestamp(value === null || typeof value === 'boolean' ? Number(value) : value);
  if (n === undefined) return parse(value, fromFormat, zone, unrecognized);
  const d =
    String(Math.trunc(n)).length < 12 ? DateTime.fromMillis(n * 1000, { zone }) : DateTime.fromMillis(n, { zone });
  if (!d.isValid) throw new NodeOperationError(unrecognized);
  return d;
}

export async function executeV1(ctx: NodeContext): Promise<Item[][]> {
  const action = ctx.raw<string>('action', 'format');
  const workflowZone = String(ctx.workflow.settings?.timezone || 'UTC');
  const out: Item[] = [];
  for (let i = 0; i < ctx.items.length; i++) {
    try {
      const done = await formatOrCalculate(ctx, action, workflowZone, i);
      if (done) out.push(done);
    } catch (err) {
      // Under continueOnFail an item that fails becomes just its error (observed).
      if (!ctx.continueOnFail) throw err;
      out.push({ json: {}, error: err, pairedItem: { item: i } });
    }
  }
  return [out];
}

/** One item's result; undefined when n8n drops the item (nothing to format). */
async function formatOrCalculate(
  ctx: NodeContext,
  action: string,
  workflowZone: string,
  i: number,
): Promise<Item | undefined> {
  const item = ctx.items[i];
  const value = await ctx.param('value', i, undefined);
  const property = await ctx.param<string>('dataPropertyName', i, 'data');
  const options = (await ctx.param<Record<string, string>>('options', i, {})) ?? {};
  let result: string;
  if (action === 'calculate') {
    const unrecognized = 'Unrecognized date input. Please specify a format in the "From Format" field.';
    if (value === undefined) throw new NodeOperationError(unrecognized, undefined, i);
    const d = parse(value, options.fromFormat, workflowZone, unrecognized);
    const amount =
      Number(await ctx.param('duration', i, 0)) * ((await ctx.param('operation', i, 'add')) === 'subtract' ? -1 : 1);
    const unit = String(await ctx.param('timeUnit', i, 'days')).replace(/s$/, '') as keyof DurationLikeObject;
    result = d
      .plus({ [unit]: amount })
      .toUTC()
      .toISO()!;
  } else {
    if (value === undefined) return undefined; // n8n drops the item
    const fromZone = options.fromTimezone || workflowZone;
    const d = parseForFormat(
      value,
      options.fromFormat,
      fromZone,
      'The date input format could not be recognized. Please set the "From Format" field',
    );
    const target =
      options.toTimezone || options.fromTimezone
        ? d.setZone(options.toTimezone || workflowZone)
        : d.setZone(workflowZone);
    result = formatMoment(target, await ctx.param<string>('toFormat', i, 'MM/DD/YYYY'));
  }
  const json = clone(item.json);
  writePath(json, property, result);
  return { ...item, json, pairedItem: { item: i } };
}
