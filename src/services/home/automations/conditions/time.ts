// time condition: the home's local time is after/before given times (a range may wrap past
// midnight) and the weekday is one of the given days.
import { ConfigProblem } from '../config-values.js';
import type { ConditionType } from './types.js';

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const TIME_RE = /^([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

function seconds(v: unknown, key: string): number | undefined {
  if (v === undefined) return undefined;
  const m = typeof v === 'string' ? TIME_RE.exec(v) : null;
  if (!m) throw new ConfigProblem(`Invalid time specified: ${JSON.stringify(v)} for dictionary value @ data['${key}']`);
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0);
}

/** Seconds since local midnight and the weekday in a time zone. */
function localNow(ms: number, timeZone: string): { secs: number; day: string } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '0';
  return {
    secs: Number(get('hour')) * 3600 + Number(get('minute')) * 60 + Number(get('second')),
    day: get('weekday').toLowerCase().slice(0, 3),
  };
}

export const timeCondition: ConditionType = {
  compile(c) {
    const after = seconds(c.after, 'after');
    const before = seconds(c.before, 'before');
    const rawDays = c.weekday === undefined ? undefined : Array.isArray(c.weekday) ? c.weekday : [c.weekday];
    if (rawDays?.some((d) => !DAYS.includes(String(d))))
      throw new ConfigProblem(`weekday must be one of ${DAYS.join(', ')} @ data['weekday']`);
    if (after === undefined && before === undefined && !rawDays)
      throw new ConfigProblem('must contain at least one of after, before, weekday.');
    return (home) => {
      const { secs, day } = localNow(home.clock.ms(), home.location.time_zone);
      if (rawDays && !rawDays.includes(day)) return false;
      const a = after ?? 0;
      const b = before ?? 86_400;
      return a <= b ? secs >= a && secs < b : secs >= a || secs < b;
    };
  },
};
