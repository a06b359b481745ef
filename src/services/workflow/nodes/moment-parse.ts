// Date & Time v1's reading of a value with a `fromFormat`, as moment.js reads it when not strict
// (n8n's format action calls moment(value, fromFormat)): each token of the format looks for its
// pattern anywhere in what is left of the text, skipping what comes before it, and a token that
// finds nothing is passed over. So "2024-03-10 12:30" read with `x` is 2024 milliseconds after
// 1970, "03/10/2024" with `MMMM Do YYYY` is 3 January 2010, "March 10, 2024" with `MMMM Do YYYY`
// is 10 March 2024. Parts not read default as moment's do (the leading ones from today, the rest
// to their lowest value); a part out of range, or nothing read at all, is an invalid date.
// Formats with tokens this file does not read (week numbers, eras) give undefined: the caller
// reads those another way.
import { DateTime } from 'luxon';

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

// moment's token patterns when not strict (its match1to2, match1to4, …).
const ONE_TO_TWO = /\d\d?/;
const NUMBER_PATTERNS: Record<string, RegExp> = {
  M: ONE_TO_TWO,
  MM: ONE_TO_TWO,
  D: ONE_TO_TWO,
  DD: ONE_TO_TWO,
  Do: /\d{1,2}(th|st|nd|rd)|\d{1,2}/,
  DDD: /\d{1,3}/,
  DDDD: /\d{3}/,
  Q: /\d/,
  YYYY: /\d{1,4}/,
  YY: ONE_TO_TWO,
  Y: /[+-]?\d+/,
  YYYYY: /[+-]?\d{1,6}/,
  YYYYYY: /[+-]?\d{1,6}/,
  y: /\d+/,
  yy: /\d+/,
  yyy: /\d+/,
  yyyy: /\d+/,
  H: ONE_TO_TWO,
  HH: ONE_TO_TWO,
  h: ONE_TO_TWO,
  hh: ONE_TO_TWO,
  k: ONE_TO_TWO,
  kk: ONE_TO_TWO,
  m: ONE_TO_TWO,
  mm: ONE_TO_TWO,
  s: ONE_TO_TWO,
  ss: ONE_TO_TWO,
  hmm: /\d\d\d\d?/,
  Hmm: /\d\d\d\d?/,
  hmmss: /\d\d\d\d\d\d?/,
  Hmmss: /\d\d\d\d\d\d?/,
  x: /[+-]?\d+/,
  X: /[+-]?\d+(\.\d{1,3})?/,
  Z: /Z|[+-]\d\d(?::?\d\d)?/i,
  ZZ: /Z|[+-]\d\d(?::?\d\d)?/i,
  a: /[ap]\.?m?\.?/i,
  A: /[ap]\.?m?\.?/i,
};
// Month and weekday names are found as moment finds them in English: any word (digits then
// letters, so "10th" too), then read by its start (a full or short name; a weekday's two
// letters too); a word that is no such name makes the date invalid.
const WORD =
  /[0-9]{0,256}['a-z\u00A0-\u05FF\u0700-\uD7FF\uF900-\uFDCF\uFDF0-\uFF07\uFF10-\uFFEF]{1,256}|[\u0600-\u06FF/]{1,256}(\s*?[\u0600-\u06FF]{1,256}){1,2}/i;
const nameIndex = (word: string, names: string[], shortest: number) =>
  names.findIndex((n) => {
    const w = word.toLowerCase();
    return w.startsWith(n) || w.startsWith(n.slice(0, 3)) || (shortest === 2 && w.startsWith(n.slice(0, 2)));
  });

// The tokens moment splits a format into (the same list as the formatter's).
const TOKEN =
  /\[[^[]*\]|\\.|[Hh]mm(?:ss)?|Mo|MM?M?M?|Do|DDDo|DD?D?D?|ddd?d?|do?|w[ow]?|W[oW]?|Qo?|N{1,5}|YYYYYY|YYYYY|YYYY|YY|y{2,4}|yo?|gg(?:ggg?)?|GG(?:GGG?)?|e|E|a|A|hh?|HH?|kk?|mm?|ss?|S{1,9}|x|X|zz?|ZZ?|./g;
// Tokens moment reads that this file does not (week dates, eras, ordinals other than Do).
const UNREAD = /^(Mo|DDDo|do|d|e|E|w|wo|ww|W|Wo|WW|Qo|N{1,5}|yo|gg|gggg|ggggg|GG|GGGG|GGGGG)$/;

interface Parts {
  year?: number;
  month?: number; // 0-11
  day?: number;
  dayOfYear?: number;
  hour?: number;
  minute?: number;
  second?: number;
  millisecond?: number;
  pm?: boolean;
  offset?: number; // minutes east of UTC
  weekday?: number;
  epochMs?: number;
  invalid?: boolean;
}

const escape = (s: string) => s.replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&');
// moment's toInt: towards zero.
const toInt = (s: string) => Math.trunc(Number(s)) || 0;
const twoDigitYear = (s: string) => toInt(s) + (toInt(s) > 68 ? 1900 : 2000);

function readToken(token: string, input: string, p: Parts): void {
  switch (token) {
    case 'M':
    case 'MM':
      p.month = toInt(input) - 1;
      return;
    case 'MMM':
    case 'MMMM': {
      const i = nameIndex(input, MONTHS, 3);
      if (i < 0) p.invalid = true;
      else p.month = i;
      return;
    }
    case 'D':
    case 'DD':
      p.day = toInt(input);
      return;
    case 'Do':
      p.day = toInt(ONE_TO_TWO.exec(input)![0]);
      return;
    case 'DDD':
    case 'DDDD':
      p.dayOfYear = toInt(input);
      return;
    case 'Q':
      p.month = (toInt(input) - 1) * 3;
      return;
    case 'YYYY':
      p.year = input.length === 2 ? twoDigitYear(input) : toInt(input);
      return;
    case 'YY':
      p.year = twoDigitYear(input);
      return;
    case 'Y':
    case 'YYYYY':
    case 'YYYYYY':
    case 'y':
    case 'yy':
    case 'yyy':
    case 'yyyy':
      p.year = toInt(input);
      return;
    case 'H':
    case 'HH':
    case 'h':
    case 'hh':
    case 'k':
    case 'kk':
      p.hour = toInt(input);
      return;
    case 'm':
    case 'mm':
      p.minute = toInt(input);
      return;
    case 's':
    case 'ss':
      p.second = toInt(input);
      return;
    case 'hmm':
    case 'Hmm':
    case 'hmmss':
    case 'Hmmss': {
      const seconds = token.endsWith('ss');
      const end = input.length - (seconds ? 4 : 2);
      p.hour = toInt(input.slice(0, end));
      p.minute = toInt(input.slice(end, end + 2));
      if (seconds) p.second = toInt(input.slice(end + 2));
      return;
    }
    case 'x':
      p.epochMs = toInt(input);
      return;
    case 'X':
      p.epochMs = Math.trunc(parseFloat(input) * 1000);
      return;
    case 'Z':
    case 'ZZ': {
      const m = /([+-])(\d\d):?(\d\d)?/.exec(input);
      p.offset = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) : 0;
      return;
    }
    case 'a':
    case 'A':
      p.pm = input[0].toLowerCase() === 'p';
      return;
    case 'dd':
    case 'ddd':
    case 'dddd': {
      p.weekday = nameIndex(input, WEEKDAYS, 2);
      if (p.weekday < 0) p.invalid = true;
      return;
    }
  }
  if (/^S+$/.test(token)) p.millisecond = Math.trunc(Number(`0.${input}`) * 1000);
}

function patternOf(token: string): RegExp | undefined {
  if (token in NUMBER_PATTERNS) return NUMBER_PATTERNS[token];
  if (['MMM', 'MMMM', 'dd', 'ddd', 'dddd'].includes(token)) return WORD;
  if (/^S{1,3}$/.test(token)) return /\d{1,3}/;
  if (/^S+$/.test(token)) return /\d+/;
  return undefined;
}

/** `text` read with the moment.js format `format` in `zone`; undefined when the format has tokens not read here. */
export function momentLenientParse(text: string, format: string, zone: string, now: DateTime): DateTime | undefined {
  const tokens = format.match(TOKEN) ?? [];
  if (tokens.some((t) => UNREAD.test(t))) return undefined;
  const p: Parts = {};
  let rest = text;
  let readAny = false;
  for (const token of tokens) {
    const pattern = patternOf(token);
    const literal = token.startsWith('[') ? token.slice(1, -1) : token.startsWith('\\') ? token.slice(1) : token;
    const found = (pattern ?? new RegExp(escape(literal))).exec(rest);
    if (found && found[0]) rest = rest.slice(found.index + found[0].length);
    if (!pattern || !found || !found[0]) continue;
    // A meridiem alone reads no part of the date (moment then calls it invalid).
    if (token !== 'a' && token !== 'A') readAny = true;
    readToken(token, found[0], p);
  }
  const invalid = DateTime.invalid('moment could not read it');
  if (!readAny || p.invalid) return invalid;
  if (p.epochMs !== undefined) return DateTime.fromMillis(p.epochMs, { zone });
  // A weekday with neither day nor month names a day of the current week: not read here.
  if (p.weekday !== undefined && p.day === undefined && p.month === undefined && p.dayOfYear === undefined)
    return undefined;
  const utc = p.offset !== undefined;
  const today = utc ? now.toUTC() : now.setZone(zone);
  // The leading parts not read are today's; once one is read, the rest default to their lowest.
  const date = [p.year, p.month, p.day];
  const defaults = [today.year, today.month - 1, today.day];
  for (let i = 0; i < 3 && date[i] === undefined; i++) date[i] = defaults[i];
  const year = date[0]!;
  let [month, day] = [date[1] ?? 0, date[2] ?? 1];
  if (p.dayOfYear !== undefined) {
    const start = DateTime.fromObject({ year }, { zone: 'UTC' });
    if (p.dayOfYear < 1 || p.dayOfYear > start.daysInYear) return invalid;
    const d = start.plus({ days: p.dayOfYear - 1 });
    [month, day] = [d.month - 1, d.day];
  }
  let hour = p.hour ?? 0;
  if (p.pm !== undefined) hour = p.pm && hour < 12 ? hour + 12 : !p.pm && hour === 12 ? 0 : hour;
  const [minute, second, millisecond] = [p.minute ?? 0, p.second ?? 0, p.millisecond ?? 0];
  // moment's overflow check: any part out of its range makes the date invalid (24:00:00.000 is the next day).
  if (month < 0 || month > 11) return invalid;
  const daysInMonth = DateTime.fromObject({ year, month: month + 1 }, { zone: 'UTC' }).daysInMonth ?? 31;
  const midnight = hour === 24 && minute === 0 && second === 0 && millisecond === 0;
  if (day < 1 || day > daysInMonth) return invalid;
  if ((hour > 23 && !midnight) || hour < 0 || minute > 59 || second > 59 || millisecond > 999) return invalid;
  const parts = { year, month: month + 1, day, hour: midnight ? 0 : hour, minute, second, millisecond };
  let d = utc
    ? DateTime.fromObject(parts, { zone: 'UTC' }).minus({ minutes: p.offset })
    : DateTime.fromObject(parts, { zone });
  if (midnight) d = d.plus({ days: 1 });
  // A weekday that disagrees with a date read in full (year, month and day) is invalid; with a
  // part of the date taken from today it is not checked (observed with moment 2.31).
  const full = p.year !== undefined && p.month !== undefined && p.day !== undefined;
  if (full && p.weekday !== undefined && (midnight ? d.minus({ days: 1 }) : d).weekday % 7 !== p.weekday)
    return invalid;
  return utc ? d.setZone(zone) : d;
}
