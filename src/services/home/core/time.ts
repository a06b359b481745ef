// HA's timestamps: ISO 8601 in UTC with microseconds and `+00:00` on the wire, epoch seconds
// (float) in `subscribe_entities` and in the recorder. Internally every time is an integer
// count of microseconds since the epoch: exact, and still below 2^53.
import type { Clock } from '../../../platform/clock.js';

let lastUs = 0;

/**
 * Microseconds now: the clock's milliseconds plus a sub-millisecond part from the monotonic
 * timer. Within one millisecond of the clock, successive calls strictly increase, so changes
 * keep their order even under a manual clock that stands still.
 */
export function nowUs(clock: Clock): number {
  const ms = clock.ms();
  const sub = Math.floor(((performance.timeOrigin + performance.now()) * 1000) % 1000);
  let us = ms * 1000 + sub;
  // (A clock set back by more than a second starts over.)
  if (us <= lastUs && lastUs < ms * 1000 + 1_000_000) us = lastUs + 1;
  lastUs = us;
  return us;
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** 2026-01-05T10:00:00.123456+00:00 */
export function isoUs(us: number): string {
  const ms = Math.floor(us / 1000);
  const d = new Date(ms);
  const micro = us - Math.floor(us / 1_000_000) * 1_000_000;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}.${pad(micro, 6)}+00:00`;
}

const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Parses an ISO timestamp (with or without fraction, `Z`, an offset, or a space where a URL
 * turned `+` into one) into microseconds; undefined when it is not a date. No offset means UTC.
 */
export function parseIsoUs(text: string): number | undefined {
  const t = text.trim().replace(/ (\d{2}:?\d{2})$/, '+$1');
  const m = ISO_RE.exec(t);
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', off = 'Z'] = m;
  let offsetMin = 0;
  if (off.toUpperCase() !== 'Z') {
    const sign = off.startsWith('-') ? -1 : 1;
    const digits = off.slice(1).replace(':', '');
    offsetMin = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  }
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(ms) || Number(mo) > 12 || Number(d) > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59)
    return undefined;
  const micro = Number((frac + '000000').slice(0, 6));
  return (ms - offsetMin * 60_000) * 1000 + micro;
}
