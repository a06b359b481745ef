// Python's datetime and timedelta as templates see them (now(), utcnow(), as_datetime(),
// timedelta(), a state's last_changed): attributes, methods, str(), arithmetic and comparison.
// A datetime is an epoch time in microseconds plus the time zone its fields are shown in.
import { parseIsoUs } from '../core/time.js';
import {
  bool,
  FunctionValue,
  type Kwargs,
  num,
  ObjectValue,
  type RV,
  str,
  TemplateTypeError,
  toNumber,
} from './runtime.js';

export class TemplateValueError extends Error {
  override name = 'ValueError';
}

/** A template-callable function value from (positional, keyword) arguments. */
function fnValue(f: (args: RV[], kwargs: Kwargs) => RV): RV {
  return new FunctionValue((raw: RV[]) => {
    const last = raw[raw.length - 1];
    if (last && last.type === 'KeywordArgumentsValue') return f(raw.slice(0, -1), last.value as Kwargs);
    return f(raw, new Map());
  });
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

export interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
  /** Minutes east of UTC. */
  offset: number;
}

/** The wall-clock fields of an epoch time in a time zone. */
export function fieldsOf(us: number, tz: string): Fields {
  const ms = Math.floor(us / 1000);
  const microsecond = us - Math.floor(us / 1_000_000) * 1_000_000;
  if (tz === 'UTC') {
    const d = new Date(ms);
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
      microsecond,
      offset: 0,
    };
  }
  const p: Record<string, number> = {};
  for (const part of formatter(tz).formatToParts(new Date(ms)))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  const offset = Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
  return {
    year: p.year,
    month: p.month,
    day: p.day,
    hour: p.hour,
    minute: p.minute,
    second: p.second,
    microsecond,
    offset,
  };
}

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');
const offsetText = (min: number, colon = true) =>
  `${min < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(min) / 60))}${colon ? ':' : ''}${pad(Math.abs(min) % 60)}`;
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
/** Monday = 0, as Python's weekday(). */
const weekday = (f: Fields) => (new Date(Date.UTC(f.year, f.month - 1, f.day)).getUTCDay() + 6) % 7;

/** Python's strftime for the directives HA templates use. */
export function strftime(f: Fields, format: string, tzName: string): string {
  return format.replace(/%([a-zA-Z%])/g, (all, c: string) => {
    switch (c) {
      case 'Y':
        return String(f.year);
      case 'y':
        return pad(f.year % 100);
      case 'm':
        return pad(f.month);
      case 'd':
        return pad(f.day);
      case 'H':
        return pad(f.hour);
      case 'I':
        return pad(f.hour % 12 === 0 ? 12 : f.hour % 12);
      case 'p':
        return f.hour < 12 ? 'AM' : 'PM';
      case 'M':
        return pad(f.minute);
      case 'S':
        return pad(f.second);
      case 'f':
        return pad(f.microsecond, 6);
      case 'z':
        return offsetText(f.offset, false);
      case 'Z':
        return tzName === 'UTC' ? 'UTC' : offsetText(f.offset, false);
      case 'a':
        return DAYS[weekday(f)].slice(0, 3);
      case 'A':
        return DAYS[weekday(f)];
      case 'w':
        return String((weekday(f) + 1) % 7);
      case 'b':
        return MONTHS[f.month - 1].slice(0, 3);
      case 'B':
        return MONTHS[f.month - 1];
      case 'j':
        return pad(Math.floor((Date.UTC(f.year, f.month - 1, f.day) - Date.UTC(f.year, 0, 1)) / 86_400_000) + 1, 3);
      case '%':
        return '%';
      default:
        return all;
    }
  });
}

export class DateTimeValue extends ObjectValue {
  readonly pyType = 'datetime';
  readonly fields: Fields;

  constructor(
    readonly us: number,
    readonly tz: string,
  ) {
    super(new Map());
    const f = (this.fields = fieldsOf(us, tz));
    const m = this.value as Map<string, RV>;
    for (const k of ['year', 'month', 'day', 'hour', 'minute', 'second', 'microsecond'] as const) m.set(k, num(f[k]));
    m.set(
      'isoformat',
      fnValue(() => str(this.iso('T'))),
    );
    m.set(
      'timestamp',
      fnValue(() => num(us / 1e6, true)),
    );
    m.set(
      'strftime',
      fnValue(([fmt]) => str(strftime(f, String(fmt?.value ?? ''), tz))),
    );
    m.set(
      'weekday',
      fnValue(() => num(weekday(f))),
    );
    m.set(
      'isoweekday',
      fnValue(() => num(weekday(f) + 1)),
    );
    m.set(
      'date',
      fnValue(() => str(`${f.year}-${pad(f.month)}-${pad(f.day)}`)),
    );
    m.set(
      'replace',
      fnValue((_a, kw) => this.replaced(kw)),
    );
    m.set(
      'astimezone',
      fnValue(() => this),
    );
  }

  iso(sep: string): string {
    const f = this.fields;
    const frac = f.microsecond ? `.${pad(f.microsecond, 6)}` : '';
    return `${f.year}-${pad(f.month)}-${pad(f.day)}${sep}${pad(f.hour)}:${pad(f.minute)}:${pad(f.second)}${frac}${offsetText(f.offset)}`;
  }

  pyStr(): string {
    return this.iso(' ');
  }

  toJs(): string {
    return this.iso('T');
  }

  /** datetime.replace(hour=0, minute=0, …): the same wall clock with some fields changed, in the same zone. */
  private replaced(kw: Kwargs): RV {
    const f = { ...this.fields };
    for (const k of ['year', 'month', 'day', 'hour', 'minute', 'second', 'microsecond'] as const) {
      const v = kw.get(k);
      if (v) f[k] = Number(v.value);
    }
    const wallMs = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second);
    // The offset of the new wall time can differ (DST): settle it in two steps.
    let us = (wallMs - f.offset * 60_000) * 1000 + f.microsecond;
    us = (wallMs - fieldsOf(us, this.tz).offset * 60_000) * 1000 + f.microsecond;
    return new DateTimeValue(us, this.tz);
  }
}

export class TimeDeltaValue extends ObjectValue {
  readonly pyType = 'timedelta';

  constructor(readonly us: number) {
    super(new Map());
    const m = this.value as Map<string, RV>;
    const days = Math.floor(us / 86_400_000_000);
    const rest = us - days * 86_400_000_000;
    m.set('days', num(days));
    m.set('seconds', num(Math.floor(rest / 1e6)));
    m.set('microseconds', num(rest % 1e6));
    m.set(
      'total_seconds',
      fnValue(() => num(us / 1e6, true)),
    );
  }

  /** Python's str(timedelta): "1 day, 2:03:04" or "0:05:00". */
  pyStr(): string {
    const days = Math.floor(this.us / 86_400_000_000);
    const rest = this.us - days * 86_400_000_000;
    const s = Math.floor(rest / 1e6);
    const micro = rest % 1e6;
    const clock = `${Math.floor(s / 3600)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}${micro ? `.${pad(micro, 6)}` : ''}`;
    return days ? `${days} day${Math.abs(days) === 1 ? '' : 's'}, ${clock}` : clock;
  }

  toJs(): number {
    return this.us / 1e6;
  }
}

const UNITS_US: Record<string, number> = {
  weeks: 604_800e6,
  days: 86_400e6,
  hours: 3_600e6,
  minutes: 60e6,
  seconds: 1e6,
  milliseconds: 1e3,
  microseconds: 1,
};

/** timedelta(days=0, seconds=0, microseconds=0, milliseconds=0, minutes=0, hours=0, weeks=0) */
export function timedelta(args: RV[], kw: Kwargs): RV {
  const order = ['days', 'seconds', 'microseconds', 'milliseconds', 'minutes', 'hours', 'weeks'];
  let us = 0;
  const add = (unit: string, v: RV) => {
    const n = toNumber(v);
    if (n === undefined || !Number.isFinite(n))
      throw new TemplateTypeError(`unsupported type for timedelta ${unit} component: ${String(v.value)}`);
    us += n * UNITS_US[unit];
  };
  args.forEach((v, i) => order[i] && add(order[i], v));
  for (const [k, v] of kw) {
    if (!(k in UNITS_US)) throw new TemplateTypeError(`'${k}' is an invalid keyword argument for __new__()`);
    add(k, v);
  }
  return new TimeDeltaValue(Math.round(us));
}

/** A datetime from an ISO text, a datetime, or epoch seconds; undefined when it is none of those. */
export function toDateTime(v: RV, tz: string): DateTimeValue | undefined {
  if (v instanceof DateTimeValue) return v;
  if (v.type === 'StringValue') {
    const text = (v.value as string).trim();
    const us = parseIsoUs(text);
    if (us !== undefined) return new DateTimeValue(us, /(Z|[+-]\d{2}:?\d{2})$/i.test(text) ? 'UTC' : tz);
    const n = toNumber(v);
    return n !== undefined && Number.isFinite(n) ? new DateTimeValue(Math.round(n * 1e6), 'UTC') : undefined;
  }
  if (v.type === 'IntegerValue' || v.type === 'FloatValue')
    return Number.isFinite(v.value) ? new DateTimeValue(Math.round((v.value as number) * 1e6), 'UTC') : undefined;
  return undefined;
}

/** datetime/timedelta arithmetic and comparison; undefined when neither side is one. */
export function dateArithmetic(op: string, a: RV, b: RV): RV | undefined {
  const dtA = a instanceof DateTimeValue ? a : undefined;
  const dtB = b instanceof DateTimeValue ? b : undefined;
  const tdA = a instanceof TimeDeltaValue ? a : undefined;
  const tdB = b instanceof TimeDeltaValue ? b : undefined;
  if (!dtA && !dtB && !tdA && !tdB) return undefined;
  const usA = (dtA ?? tdA)?.us;
  const usB = (dtB ?? tdB)?.us;
  const compare = (x: number, y: number): RV | undefined => {
    const r =
      op === '<'
        ? x < y
        : op === '>'
          ? x > y
          : op === '<='
            ? x <= y
            : op === '>='
              ? x >= y
              : op === '=='
                ? x === y
                : op === '!='
                  ? x !== y
                  : undefined;
    return r === undefined ? undefined : bool(r);
  };
  if (usA !== undefined && usB !== undefined && !!dtA === !!dtB) {
    const c = compare(usA, usB);
    if (c) return c;
  }
  if (op === '==' || op === '!=') return bool(op === '!=');
  if (op === '+' && dtA && tdB) return new DateTimeValue(dtA.us + tdB.us, dtA.tz);
  if (op === '+' && tdA && dtB) return new DateTimeValue(dtB.us + tdA.us, dtB.tz);
  if (op === '-' && dtA && tdB) return new DateTimeValue(dtA.us - tdB.us, dtA.tz);
  if (op === '-' && dtA && dtB) return new TimeDeltaValue(dtA.us - dtB.us);
  if (tdA && tdB && (op === '+' || op === '-'))
    return new TimeDeltaValue(op === '+' ? tdA.us + tdB.us : tdA.us - tdB.us);
  if (tdA && (op === '*' || op === '/') && (b.type === 'IntegerValue' || b.type === 'FloatValue'))
    return new TimeDeltaValue(Math.round(op === '*' ? tdA.us * b.value : tdA.us / b.value));
  if (tdA && tdB && op === '/') return num(tdA.us / tdB.us, true);
  throw new TemplateTypeError(
    `unsupported operand type(s) for ${op}: '${(a as { pyType?: string }).pyType ?? a.type}' and '${(b as { pyType?: string }).pyType ?? b.type}'`,
  );
}

/** HA's relative_time: the age of a past datetime in its largest unit ("2 hours"); a future one is returned as it is. */
export function relativeTime(nowUs: number, dt: DateTimeValue): RV {
  const diff = (nowUs - dt.us) / 1e6;
  if (diff < 0) return dt;
  const units: Array<[string, number]> = [
    ['year', 365 * 86400],
    ['month', 30 * 86400],
    ['day', 86400],
    ['hour', 3600],
    ['minute', 60],
    ['second', 1],
  ];
  for (const [name, secs] of units) {
    const n = Math.floor(diff / secs);
    if (n >= 1) return str(`${n} ${name}${n > 1 ? 's' : ''}`);
  }
  return str('0 seconds');
}
