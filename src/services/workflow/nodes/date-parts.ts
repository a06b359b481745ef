// Dates given as parts, as n8n 2.8.4 reads them in the Date & Time node (both versions; observed
// with the oracle, they follow moment.js's array and object forms): an array [year, month from 0,
// day, hour, minute, second, ms] or an object naming the parts ({y: 2}, {hour: 5}).
import { DateTime } from 'luxon';

// Date parts by name, as the object form of a date names them (moment.js's unit names and aliases).
const PART_NAMES: Record<string, number> = {
  year: 0,
  years: 0,
  y: 0,
  month: 1,
  months: 1,
  M: 1,
  date: 2,
  dates: 2,
  D: 2,
  day: 2,
  days: 2,
  d: 2,
  hour: 3,
  hours: 3,
  h: 3,
  minute: 4,
  minutes: 4,
  m: 4,
  second: 5,
  seconds: 5,
  s: 5,
  millisecond: 6,
  milliseconds: 6,
  ms: 6,
};

/**
 * Date parts [year, month from 0, day, hour, minute, second, ms] as n8n 2.8.4 completes them
 * (observed: the array and object forms of moment.js): missing leading parts are today's, the
 * rest start at their lowest; a part out of range or not a number makes the date invalid.
 */
function fromParts(parts: Array<number | undefined>, zone: string, now: DateTime): DateTime {
  const a = [...parts];
  const today = [now.year, now.month - 1, now.day];
  let i = 0;
  for (; i < 3 && a[i] === undefined; i++) a[i] = today[i];
  for (; i < 7; i++) a[i] ??= i === 2 ? 1 : 0;
  const [year, month, day, hour, minute, second, millisecond] = a as number[];
  if (a.some((n) => !Number.isFinite(n)) || month < 0 || month > 11) return DateTime.invalid('not date parts');
  const d = DateTime.fromObject({ year, month: month + 1, day, hour, minute, second, millisecond }, { zone });
  return d.isValid ? d : DateTime.invalid('parts out of range');
}

/** A date given as an array of parts, each read as an integer ("2024-03-10" is 2024). */
export function fromArray(v: unknown[], zone: string, now: DateTime): DateTime {
  return fromParts(
    v.map((p) => parseInt(String(p), 10)),
    zone,
    now,
  );
}

/** A date given as an object of named parts ({y: 2}, {hour: 5}); other keys are ignored; {} is now. */
export function fromNamedParts(v: Record<string, unknown>, zone: string, now: DateTime): DateTime {
  if (!Object.keys(v).length) return now;
  const parts: Array<number | undefined> = [];
  for (const [k, x] of Object.entries(v)) {
    const at = PART_NAMES[k] ?? PART_NAMES[k.toLowerCase()];
    if (at === undefined || x === null || x === undefined) continue;
    // A falsy part (0, '', false) counts as 0; any other is read as an integer.
    parts[at] = x ? parseInt(String(x), 10) : 0;
  }
  return fromParts(parts, zone, now);
}
