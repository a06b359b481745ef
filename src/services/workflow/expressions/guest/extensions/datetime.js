// DateTime (Luxon) extension methods, added when Luxon loads, before it is frozen: Luxon's
// loader (../../sandbox/libraries.ts) calls them as a function of (luxon, H), after helpers.js.

const DT = luxon.DateTime;
const P = DT.prototype;
const nativePlus = P.plus;
const nativeMinus = P.minus;
const UNITS = {
  year: 'years',
  years: 'years',
  y: 'years',
  quarter: 'quarters',
  quarters: 'quarters',
  q: 'quarters',
  month: 'months',
  months: 'months',
  M: 'months',
  week: 'weeks',
  weeks: 'weeks',
  w: 'weeks',
  day: 'days',
  days: 'days',
  d: 'days',
  hour: 'hours',
  hours: 'hours',
  h: 'hours',
  minute: 'minutes',
  minutes: 'minutes',
  m: 'minutes',
  second: 'seconds',
  seconds: 'seconds',
  s: 'seconds',
  millisecond: 'milliseconds',
  milliseconds: 'milliseconds',
  ms: 'milliseconds',
};
function unitOf(method, unit, fallback) {
  const u = UNITS[unit === undefined ? fallback : unit];
  if (!u) fail(method, 'unknown unit ' + String(unit));
  return u;
}
function toDT(value, method) {
  if (DT.isDateTime(value)) return value;
  if (value instanceof Date) return DT.fromJSDate(value);
  if (typeof value === 'string') return value.toDateTime();
  if (typeof value === 'number') return DT.fromMillis(value);
  fail(method, 'expected a date');
}
// n8n accepts plus(5, 'days') besides Luxon's plus({days: 5}).
function shift(native, method) {
  return function (amount, unit) {
    if (typeof amount === 'number') return native.call(this, { [unitOf(method, unit, 'milliseconds')]: amount });
    if (typeof amount === 'string' && unit !== undefined && !isNaN(Number(amount)))
      return native.call(this, { [unitOf(method, unit, 'milliseconds')]: Number(amount) });
    return native.call(this, amount);
  };
}
define(P, 'plus', shift(nativePlus, 'plus'), true);
define(P, 'minus', shift(nativeMinus, 'minus'), true);
define(P, 'format', function format(fmt) {
  return this.toFormat(String(fmt));
});
define(P, 'beginningOf', function beginningOf(unit) {
  return this.startOf(unitOf('beginningOf', unit, 'week').replace(/s$/, ''));
});
define(P, 'endOfMonth', function endOfMonth() {
  return this.endOf('month');
});
define(P, 'isDst', function isDst() {
  return this.isInDST;
});
// Luxon 3.4+ has an isWeekend getter; n8n's is a method (Saturday and Sunday).
define(
  P,
  'isWeekend',
  function isWeekend() {
    return this.weekday >= 6;
  },
  true,
);
define(P, 'isBetween', function isBetween(a, b) {
  const start = toDT(a, 'isBetween'),
    end = toDT(b, 'isBetween');
  const [lo, hi] = start <= end ? [start, end] : [end, start];
  return this > lo && this < hi;
});
define(P, 'isInLast', function isInLast(amount, unit) {
  const now = DT.now();
  const since = nativeMinus.call(now, {
    [unitOf('isInLast', unit, 'minutes')]: amount === undefined ? 0 : Number(amount),
  });
  return this >= since && this <= now;
});
define(P, 'extract', function extract(part) {
  const p = part === undefined ? 'week' : String(part);
  switch (p) {
    case 'week':
    case 'weekNumber':
      return this.weekNumber;
    case 'yearDayNumber':
    case 'dayOfYear':
      return this.ordinal;
    case 'weekday':
    case 'dayOfWeek':
      return this.weekday;
    default: {
      const u = unitOf('extract', p).replace(/s$/, '');
      return this.get(u === 'millisecond' ? 'millisecond' : u);
    }
  }
});
define(P, 'diffTo', function diffTo(other, unit) {
  const units = Array.isArray(unit) ? unit.map((u) => unitOf('diffTo', u)) : [unitOf('diffTo', unit, 'days')];
  const d = this.diff(toDT(other, 'diffTo'), units);
  return units.length === 1 ? d.as(units[0]) : d.toObject();
});
define(P, 'diffToNow', function diffToNow(unit) {
  const units = Array.isArray(unit) ? unit.map((u) => unitOf('diffToNow', u)) : [unitOf('diffToNow', unit, 'days')];
  const d = DT.now().diff(this, units);
  return units.length === 1 ? d.as(units[0]) : d.toObject();
});
define(P, 'toDateTime', function toDateTime() {
  return this;
});
define(
  P,
  'isEmpty',
  function isEmpty() {
    return false;
  },
  true,
);
define(
  P,
  'isNotEmpty',
  function isNotEmpty() {
    return true;
  },
  true,
);
