// Date & Time v1 (legacy): `format` and `calculate` actions with moment.js-style format tokens,
// reproduced on Luxon. Behaviour observed with the oracle (n8n 2.8.4): a missing value drops
// the item when formatting and fails when calculating; formatting reads numbers and numeric
// text as seconds or milliseconds by their length, calculating reads numbers as milliseconds.
import { DateTime, type DurationLikeObject } from 'luxon';
import { NodeOperationError, type NodeContext } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { clone } from './util.js';
import { fromArray, fromNamedParts } from './date-parts.js';
import { momentLenientParse } from './moment-parse.js';

// moment.js's formatting tokens (its own list, longest first), localized formats expanded first.
const TOKEN =
  /\[[^[]*\]|\\.|[Hh]mm(?:ss)?|Mo|MM?M?M?|Do|DDDo|DD?D?D?|ddd?d?|do?|w[ow]?|W[oW]?|Qo?|N{1,5}|YYYYYY|YYYYY|YYYY|YY|y{2,4}|yo?|gg(?:ggg?)?|GG(?:GGG?)?|e|E|a|A|hh?|HH?|kk?|mm?|ss?|S{1,9}|x|X|zz?|ZZ?|./g;
const LOCALIZED: Record<string, string> = {
  LTS: 'h:mm:ss A',
  LT: 'h:mm A',
  L: 'MM/DD/YYYY',
  LL: 'MMMM D, YYYY',
  LLL: 'MMMM D, YYYY h:mm A',
  LLLL: 'dddd, MMMM D, YYYY h:mm A',
  l: 'M/D/YYYY',
  ll: 'MMM D, YYYY',
  lll: 'MMM D, YYYY h:mm A',
  llll: 'ddd, MMM D, YYYY h:mm A',
};
const LOCALIZED_TOKEN = /\[[^[]*\]|\\.|LTS|LT|LL?L?L?|l{1,4}/g;
// Luxon equivalents of the tokens that map one to one.
const LUXON: Record<string, string> = {
  YYYY: 'yyyy',
  MMMM: 'LLLL',
  MMM: 'LLL',
  MM: 'LL',
  M: 'L',
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
  Z: 'ZZ',
  ZZ: 'ZZZ',
  DDDD: 'ooo',
  DDD: 'o',
  WW: 'WW',
  W: 'W',
  GGGG: 'kkkk',
};

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

const pad = (n: number, width: number) => (n < 0 ? '-' : '') + String(Math.abs(n)).padStart(width, '0');

/** moment's English week (weeks start on Sunday; the week holding 1 January is the first): [week, week's year]. */
function localeWeek(d: DateTime): [number, number] {
  const sunday = d.startOf('day').minus({ days: d.weekday % 7 });
  const saturday = sunday.plus({ days: 6 });
  // The week belongs to the year its Saturday is in (the week holding 1 January is that year's first).
  const year = saturday.year;
  const jan1 = DateTime.fromObject({ year, month: 1, day: 1 }, { zone: d.zone });
  const firstSunday = jan1.minus({ days: jan1.weekday % 7 });
  return [Math.round(sunday.diff(firstSunday, 'days').days / 7) + 1, year];
}

/** Formats with moment.js tokens (English locale); an empty format is moment's default. */
function formatMoment(d: DateTime, format: string): string {
  const expanded = (format || 'YYYY-MM-DDTHH:mm:ssZ').replace(LOCALIZED_TOKEN, (t) => LOCALIZED[t] ?? t);
  return (expanded.match(TOKEN) ?? [])
    .map((t) => {
      if (t.startsWith('[')) return t.slice(1, -1);
      if (t.startsWith('\\')) return t.slice(1);
      const luxon = LUXON[t];
      if (luxon) return d.toFormat(luxon);
      const weekday0 = d.weekday % 7;
      switch (t) {
        case 'Mo':
          return ordinal(d.month);
        case 'Do':
          return ordinal(d.day);
        case 'DDDo':
          return ordinal(d.ordinal);
        case 'd':
        case 'e':
          return String(weekday0);
        case 'do':
          return ordinal(weekday0);
        case 'dd':
          return d.toFormat('ccc').slice(0, 2);
        case 'E':
          return String(d.weekday);
        case 'w':
          return String(localeWeek(d)[0]);
        case 'wo':
          return ordinal(localeWeek(d)[0]);
        case 'ww':
          return pad(localeWeek(d)[0], 2);
        case 'Wo':
          return ordinal(d.weekNumber);
        case 'Q':
          return String(d.quarter);
        case 'Qo':
          return ordinal(d.quarter);
        case 'YYYYYY':
          return (d.year < 0 ? '-' : '+') + String(Math.abs(d.year)).padStart(6, '0');
        case 'YYYYY':
          return pad(d.year, 5);
        case 'YY':
          return pad(((d.year % 100) + 100) % 100, 2);
        case 'y':
        case 'yy':
        case 'yyy':
        case 'yyyy':
          return pad(d.year, t.length);
        case 'yo':
          return ordinal(d.year);
        case 'N':
        case 'NN':
        case 'NNN':
        case 'NNNNN':
          return d.year > 0 ? 'AD' : 'BC';
        case 'NNNN':
          return d.year > 0 ? 'Anno Domini' : 'Before Christ';
        case 'gg':
          return pad(localeWeek(d)[1] % 100, 2);
        case 'gggg':
          return pad(localeWeek(d)[1], 4);
        case 'ggggg':
          return pad(localeWeek(d)[1], 5);
        case 'GG':
          return pad(d.weekYear % 100, 2);
        case 'GGGGG':
          return pad(d.weekYear, 5);
        case 'A':
          return d.hour < 12 ? 'AM' : 'PM';
        case 'a':
          return d.hour < 12 ? 'am' : 'pm';
        case 'k':
          return String(d.hour || 24);
        case 'kk':
          return pad(d.hour || 24, 2);
        case 'hmm':
          return d.toFormat('hmm');
        case 'hmmss':
          return d.toFormat('hmmss');
        case 'Hmm':
          return d.toFormat('Hmm');
        case 'Hmmss':
          return d.toFormat('Hmmss');
        case 'X':
          return String(Math.floor(d.toMillis() / 1000));
        case 'x':
          return String(d.toMillis());
        case 'z':
        case 'zz':
          return d.offset === 0 ? 'UTC' : d.toFormat('ZZZZ');
      }
      // Fractions of a second: as many digits as S's.
      if (/^S+$/.test(t)) return pad(d.millisecond, 3).padEnd(9, '0').slice(0, t.length);
      return t;
    })
    .join('');
}

/** A moment.js parse format as a Luxon one (the common tokens). */
function luxonFormat(format: string): string {
  return (format.match(TOKEN) ?? [])
    .map((t) => (t.startsWith('[') ? `'${t.slice(1, -1)}'` : t === 'Do' ? 'd' : (LUXON[t] ?? t)))
    .join('');
}

/**
 * The calculate action's reading: numbers (and null, booleans) are epoch milliseconds; text is
 * read with `fromFormat`, else as JavaScript's Date reads it (so no ISO weeks: observed).
 */
function parse(value: unknown, fromFormat: string | undefined, zone: string, unrecognized: string): DateTime {
  let d: DateTime;
  if (value === null || typeof value === 'number' || typeof value === 'boolean')
    d = DateTime.fromMillis(Number(value), { zone });
  else if (fromFormat) d = DateTime.fromFormat(String(value), luxonFormat(fromFormat), { zone });
  else d = DateTime.fromJSDate(new Date(String(value)), { zone });
  if (!d.isValid) throw new NodeOperationError(unrecognized);
  return d;
}

/** Text read with a From Format as moment reads it, not strictly (Luxon's strict reading for tokens that reader lacks). */
function readWithFormat(text: string, fromFormat: string, zone: string, now: DateTime): DateTime {
  const expanded = fromFormat.replace(LOCALIZED_TOKEN, (t) => LOCALIZED[t] ?? t);
  return momentLenientParse(text, expanded, zone, now) ?? DateTime.fromFormat(text, luxonFormat(fromFormat), { zone });
}

/**
 * The format action's reading (observed with the oracle): whatever Number() reads as a number
 * ('' and [] too) is a timestamp, in seconds when its whole part has fewer than 12 characters,
 * else in milliseconds (99999999999 is the year 5138, 100000000000 is 1973). With `fromFormat`
 * anything else is read with that format and may come out invalid (the node then writes
 * "Invalid date"); without, objects and arrays are date parts and text is ISO or anything Date
 * reads, and what is none of these fails.
 */
function parseForFormat(
  value: unknown,
  fromFormat: string | undefined,
  zone: string,
  now: DateTime,
  unrecognized: string,
): DateTime {
  let n = value !== null && typeof value === 'object' && !Array.isArray(value) ? NaN : Number(value);
  let d: DateTime;
  if (Number.isFinite(n)) {
    // A fraction is taken for seconds (times 1000); a whole number is seconds when shorter than
    // 12 characters, else milliseconds; a fraction still is milliseconds, cut as Date cuts them
    // (-0.0001 is 0, not -1: observed).
    if (!Number.isInteger(n)) n *= 1000;
    // With a From Format that fraction is read as text with it (-0.1 with yyyy-MM-dd is the year 0).
    if (!Number.isInteger(n) && fromFormat) d = readWithFormat(String(n), fromFormat, zone, now);
    else if (!Number.isInteger(n)) d = DateTime.fromMillis(Math.trunc(n) || 0, { zone });
    else d = String(n).length < 12 ? DateTime.fromMillis(n * 1000, { zone }) : DateTime.fromMillis(n, { zone });
    if (!d.isValid && fromFormat === undefined) throw new NodeOperationError(unrecognized);
    return d;
  }
  // An empty From Format reads as none, but what it cannot read becomes "Invalid date" (observed).
  if (fromFormat === '') {
    d = typeof value === 'string' ? DateTime.fromISO(value, { zone }) : DateTime.invalid('not text');
    if (!d.isValid && typeof value === 'string') d = DateTime.fromJSDate(new Date(value), { zone });
    return d;
  }
  if (fromFormat !== undefined) {
    return typeof value === 'string' ? readWithFormat(value, fromFormat, zone, now) : DateTime.invalid('not text');
  }
  if (Array.isArray(value)) d = fromArray(value, zone, now);
  else if (value !== null && typeof value === 'object') d = fromNamedParts(value as Record<string, unknown>, zone, now);
  else {
    const text = String(value);
    d = DateTime.fromISO(text, { zone });
    if (!d.isValid) d = DateTime.fromJSDate(new Date(text), { zone });
  }
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
    // As moment adds: years, quarters, months and days in whole units (weeks as days) (rounded half away
    // from zero: 1.5 months are 2), smaller units exactly (observed).
    const round = (n: number) => Math.sign(n) * Math.round(Math.abs(n));
    const step =
      unit === 'week'
        ? { day: round(amount * 7) }
        : ['year', 'quarter', 'month', 'day'].includes(unit)
          ? { [unit]: round(amount) }
          : { [unit]: amount };
    result = d.plus(step).toUTC().toISO()!;
  } else {
    if (value === undefined) return undefined; // n8n drops the item
    const fromZone = options.fromTimezone || workflowZone;
    const d = parseForFormat(
      value,
      options.fromFormat,
      fromZone,
      DateTime.fromJSDate(ctx.now()).setZone(fromZone),
      'The date input format could not be recognized. Please set the "From Format" field',
    );
    const target =
      options.toTimezone || options.fromTimezone
        ? d.setZone(options.toTimezone || workflowZone)
        : d.setZone(workflowZone);
    // The custom format's default is '' (moment's default format), the listed formats' MM/DD/YYYY.
    const toFormat = await ctx.param<string>('toFormat', i, (await ctx.param('custom', i, false)) ? '' : 'MM/DD/YYYY');
    result = d.isValid ? formatMoment(target, toFormat) : 'Invalid date';
  }
  const json = clone(item.json);
  // The property is a key as named, dots and all (observed).
  json[property] = result;
  return { ...item, json, pairedItem: { item: i } };
}
